package podstartup_test

import (
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces/podstartup"
	"github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

func sec(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

func TestReportFromAHandMadeRecording(t *testing.T) {
	var c podstartup.Collector
	c.Spans(timelinetest.PodStarts())
	r := c.Report()

	wantPods := map[string][3]float64{ // created, scheduled, running; -1: none
		"default/solo":          {1, 1.5, 3.5},
		"default/web-abc-aaaaa": {10, 10, 11},
		"default/web-abc-bbbbb": {10, 10.5, 13.5},
		"default/web-abc-ccccc": {12, 12.25, -1},
		"default/static-node-1": {-1, -1, 2.5},
		"default/pre":           {-1, -1, 4},
	}
	if len(r.Pods) != len(wantPods) {
		t.Fatalf("%d pods, want %d: %+v", len(r.Pods), len(wantPods), r.Pods)
	}
	at := func(tm time.Time) float64 {
		if tm.IsZero() {
			return -1
		}
		return tm.Sub(timelinetest.Origin).Seconds()
	}
	for _, p := range r.Pods {
		want, ok := wantPods[p.Key]
		if !ok {
			t.Errorf("unexpected pod %s", p.Key)
			continue
		}
		if got := [3]float64{at(p.Created), at(p.Scheduled), at(p.Running)}; got != want {
			t.Errorf("%s: created, scheduled, running = %v, want %v", p.Key, got, want)
		}
	}
	if r.Static != 1 || r.NoCreate != 1 || r.NotScheduled != 1 || r.NotRunning != 2 {
		t.Errorf("static %d, no create %d, not scheduled %d, not running %d; want 1, 1, 1, 2",
			r.Static, r.NoCreate, r.NotScheduled, r.NotRunning)
	}

	stats := func(n int, p50, p90, p99, max float64) podstartup.Stats {
		return podstartup.Stats{N: n, P50: sec(p50), P90: sec(p90), P99: sec(p99), Max: sec(max)}
	}
	wantRows := []podstartup.Row{
		{Instance: "", Pods: 6, Stats: [3]podstartup.Stats{
			stats(4, 0.25, 0.5, 0.5, 0.5), // 0, 0.25, 0.5, 0.5
			stats(3, 2, 3, 3, 3),          // 1, 2, 3
			stats(3, 2.5, 3.5, 3.5, 3.5),  // 1, 2.5, 3.5
		}},
		{Instance: "node-1", Pods: 4, Stats: [3]podstartup.Stats{
			stats(2, 0, 0.25, 0.25, 0.25), // aaaaa 0, ccccc 0.25
			stats(1, 1, 1, 1, 1),
			stats(1, 1, 1, 1, 1),
		}},
		{Instance: "node-2", Pods: 2, Stats: [3]podstartup.Stats{
			stats(2, 0.5, 0.5, 0.5, 0.5),
			stats(2, 2, 3, 3, 3),
			stats(2, 2.5, 3.5, 3.5, 3.5),
		}},
	}
	got := append([]podstartup.Row{r.Overall}, r.Instances...)
	if len(got) != len(wantRows) {
		t.Fatalf("rows %+v, want %+v", got, wantRows)
	}
	for i := range wantRows {
		if got[i] != wantRows[i] {
			t.Errorf("row %d:\n got %+v\nwant %+v", i, got[i], wantRows[i])
		}
	}
}

// A name used again (a StatefulSet's pod deleted and created anew) is a
// second pod, with its own start.
func TestANameUsedAgainIsASecondPod(t *testing.T) {
	r := timelinetest.New("again")
	r.Span(timelinetest.Root, "pods.Create", 1, 1, catalog.AttrObjectKey, "default/db-0")
	r.Span(timelinetest.Root, "pods.Create", 50, 50, catalog.AttrObjectKey, "default/db-0")
	r.Instance("kubeloom", "scenario")
	bind := r.Goroutine(timelinetest.Root, "scheduler/bind", catalog.KindGo, 0, 60)
	r.Iteration(bind, "scheduler/bind", "scheduleOne", 1, 2, 2, catalog.AttrObjectKey, "default/db-0", catalog.AttrNode, "node-1")
	r.Iteration(bind, "scheduler/bind", "scheduleOne", 2, 51, 51, catalog.AttrObjectKey, "default/db-0", catalog.AttrNode, "node-1")
	r.Instance("kubelet", "node-1")
	sm := r.Goroutine(timelinetest.Root, "kubelet/status-manager", catalog.KindForever, 0, 60)
	r.Iteration(sm, "kubelet/status-manager", "syncPod", 1, 5, 5, catalog.AttrObjectKey, "default/db-0", "k8s.pod.phase", "Running")
	r.Iteration(sm, "kubelet/status-manager", "syncPod", 2, 53, 53, catalog.AttrObjectKey, "default/db-0", "k8s.pod.phase", "Running")
	var c podstartup.Collector
	c.Spans(r.Spans())
	rep := c.Report()
	if got := rep.Overall.Stats[podstartup.CreateToRunning]; got.N != 2 || got.P50 != sec(3) || got.Max != sec(4) {
		t.Errorf("create → running over a name used twice = %+v, want 2 pods, 3s and 4s", got)
	}
}

func TestNoPods(t *testing.T) {
	var c podstartup.Collector
	r := c.Report()
	if len(r.Pods) != 0 || r.Overall.Pods != 0 || len(r.Instances) != 0 || r.Overall.Stats[0] != (podstartup.Stats{}) {
		t.Errorf("report of nothing = %+v, want empty", r)
	}
}

func TestPercentileIsNearestRank(t *testing.T) {
	hundred := make([]time.Duration, 100)
	for i := range hundred {
		hundred[i] = time.Duration(i+1) * time.Millisecond
	}
	ten := hundred[:10]
	for _, c := range []struct {
		vals []time.Duration
		p    int
		want time.Duration
	}{
		{nil, 99, 0},
		{[]time.Duration{7}, 50, 7},
		{[]time.Duration{7}, 99, 7},
		{hundred, 50, 50 * time.Millisecond},
		{hundred, 90, 90 * time.Millisecond},
		{hundred, 99, 99 * time.Millisecond},
		{hundred, 100, 100 * time.Millisecond},
		{ten, 50, 5 * time.Millisecond},
		{ten, 90, 9 * time.Millisecond},
		{ten, 99, 10 * time.Millisecond}, // ⌈9.9⌉ = 10: the largest, not an interpolation
		{ten[:3], 50, 2 * time.Millisecond},
	} {
		if got := podstartup.Percentile(c.vals, c.p); got != c.want {
			t.Errorf("p%d of %d values = %v, want %v", c.p, len(c.vals), got, c.want)
		}
	}
}

// A pod of a generateName prefix already bound before the prefix's first
// create (loaded with the scenario's objects) is not that create's pod.
func TestAnOlderPodOfAPrefixTakesNoLaterCreate(t *testing.T) {
	r := timelinetest.New("older")
	r.Span(timelinetest.Root, "pods.Create", 10, 10, catalog.AttrObjectKey, "default/web-abc-")
	r.Instance("kubeloom", "scenario")
	bind := r.Goroutine(timelinetest.Root, "scheduler/bind", catalog.KindGo, 0, 60)
	r.Iteration(bind, "scheduler/bind", "scheduleOne", 1, 5, 5, catalog.AttrObjectKey, "default/web-abc-old00", catalog.AttrNode, "node-1")
	r.Iteration(bind, "scheduler/bind", "scheduleOne", 2, 11, 11, catalog.AttrObjectKey, "default/web-abc-new00", catalog.AttrNode, "node-1")
	var c podstartup.Collector
	c.Spans(r.Spans())
	rep := c.Report()
	for _, p := range rep.Pods {
		want := p.Key == "default/web-abc-new00"
		if got := !p.Created.IsZero(); got != want {
			t.Errorf("%s has a create: %v, want %v", p.Key, got, want)
		}
	}
	if rep.NoCreate != 1 || rep.NotScheduled != 0 {
		t.Errorf("no create %d, not scheduled %d; want 1, 0", rep.NoCreate, rep.NotScheduled)
	}
}

// A pod created with its node set (a DaemonSet's) goes Running without the
// scheduler: its create → Running counts, and it is told apart from a pod
// never bound.
func TestAPodBoundAtItsCreate(t *testing.T) {
	r := timelinetest.New("bound")
	r.Instance("kubeloom", "scenario")
	r.Span(timelinetest.Root, "action/create", 1, 1, catalog.AttrObjectKey, "default/ds-pod")
	r.Span(timelinetest.Root, "action/create", 1, 1, catalog.AttrObjectKey, "default/waiting")
	r.Instance("kube-controller-manager", "cm-0")
	r.Span(timelinetest.Root, "pods.Create", 2, 2, catalog.AttrObjectKey, "default/unbound")
	r.Instance("kubelet", "node-1")
	sm := r.Goroutine(timelinetest.Root, "kubelet/status-manager", catalog.KindForever, 0, 60)
	r.Iteration(sm, "kubelet/status-manager", "syncPod", 1, 3, 3, catalog.AttrObjectKey, "default/ds-pod", "k8s.pod.phase", "Running")
	var c podstartup.Collector
	c.Spans(r.Spans())
	rep := c.Report()
	if rep.BoundAtCreate != 1 || rep.NotScheduled != 1 || rep.NotRunning != 1 {
		t.Errorf("bound at create %d, not scheduled %d, not running %d; want 1, 1, 1", rep.BoundAtCreate, rep.NotScheduled, rep.NotRunning)
	}
	if s := rep.Overall.Stats[podstartup.CreateToRunning]; s.N != 1 || s.Max != sec(2) {
		t.Errorf("create → Running %+v, want the one pod's 2s", s)
	}
}
