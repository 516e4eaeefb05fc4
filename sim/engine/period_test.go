package engine

import (
	"math"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// How a periodic loop's period shows in a run.
const (
	// gaps: the loop's body returns, and the next iteration starts one
	// period after it (wait.Until is sliding: the timer starts when f
	// returns).
	gaps = iota
	// blocks: the body never returns while the process runs (a worker
	// blocks in queue.Get, processLoop in Pop, the pod killer on its
	// channel), so wait.Until's period never elapses: one iteration per
	// lane, open to the end.
	blocks
	// jittered: wait.JitterUntil with factor 1.2: every wait is in
	// [period, 2.2 × period).
	jittered
	// polls: wait.Until(f, 0) whose f is one wait.Poll(period, …): the
	// body waits the period itself, so iterations start a period apart.
	polls
	// ticks: a time.Ticker's loop (for range ticker.C): the first
	// iteration is one period after the goroutine starts, and the next
	// ones a period apart, start to start.
	ticks
	// jitteredOnce: wait.JitterUntil with factor 1.0 (the kubelet's
	// per-pod volume-stat calculators): every wait is in [period, 2 × period).
	jitteredOnce
)

// periodRows is every periodic catalog entry (catalog.Entry.Period > 0):
// how its period shows, and in which run (periodRuns). An entry missing
// here fails the test.
func periodRows() map[string]periodRow {
	return map[string]periodRow{
		"cm/glog-flush-daemon":                            {ticks, "cm"},
		"cm/log-flush":                                    {gaps, "cm"},
		"cm/leader-poll-ticker":                           {ticks, "cm"}, // one tick per renewal: each lane's start to its tick
		"cm/leader-acquire":                               {jittered, "failover"},
		"cm/leader-renew":                                 {polls, "cm"},
		"informer/run":                                    {blocks, "cm"},
		"informer/private":                                {blocks, "cm"},
		"informer/cache-sync-poller":                      {ticks, "cm"},
		"reflector/list-watch":                            {gaps, "cm"}, // re-lists after each breakWatches
		"controller/podgc/gc":                             {gaps, "cm"},
		"controller/node/monitor":                         {gaps, "cm"},
		"controller/node/pod-evictor":                     {gaps, "cm"},
		"controller/resourcequota/resync":                 {gaps, "cm"},
		"controller/cronjob/sync-all":                     {gaps, "cm"},
		"controller/attachdetach/reconciler":              {gaps, "cm"},
		"controller/attachdetach/dswp":                    {gaps, "cm"},
		"controller/garbagecollector/monitor-sync-poller": {ticks, "cm"},
		"controller/endpoint/worker":                      {blocks, "cm"},
		"controller/replicationcontroller/worker":         {blocks, "cm"},
		"controller/resourcequota/worker":                 {blocks, "cm"},
		"controller/resourcequota/priority-worker":        {blocks, "cm"},
		"controller/namespace/worker":                     {blocks, "cm"},
		"controller/daemonset/worker":                     {blocks, "cm"},
		"controller/job/worker":                           {blocks, "cm"},
		"controller/deployment/worker":                    {blocks, "cm"},
		"controller/replicaset/worker":                    {blocks, "cm"},
		"controller/disruption/worker":                    {blocks, "cm"},
		"controller/disruption/recheck-worker":            {blocks, "cm"},
		"controller/statefulset/worker":                   {blocks, "cm"},
		"controller/certificatesigningrequests/worker":    {blocks, "cm"},
		"controller/serviceaccount/worker":                {blocks, "cm"},
		"kubelet/glog-flush-daemon":                       {ticks, "kubelet"},
		"kubelet/log-flush":                               {gaps, "kubelet"},
		"kubelet/healthz-server":                          {gaps, "healthz"}, // retried while its port is taken
		"kubelet/source-file":                             {gaps, "kubelet"},
		"kubelet/source-url":                              {gaps, "kubelet"},
		"kubelet/source-apiserver":                        {gaps, "kubelet"}, // re-lists after each breakWatches
		"kubelet/container-gc":                            {gaps, "kubelet"},
		"kubelet/image-gc":                                {gaps, "kubelet"},
		"kubelet/image-detect":                            {gaps, "kubelet"},
		"kubelet/image-cache":                             {gaps, "kubelet-modern"}, // 1.4 on: classic is v1.3's kubelet
		"kubelet/cm-ensure-state":                         {gaps, "kubelet"},
		"kubelet/cm-periodic-tasks":                       {gaps, "kubelet"},
		"kubelet/fs-volume-stats":                         {gaps, "kubelet"},
		"kubelet/volume-stat-calculator":                  {jitteredOnce, "kubelet"},
		"kubelet/volume-mount-poller":                     {ticks, "kubelet"}, // the pod with a volume
		"kubelet/volume-dswp":                             {gaps, "kubelet"},
		"kubelet/volume-reconciler":                       {gaps, "kubelet"},
		"kubelet/node-status":                             {gaps, "kubelet"},
		"kubelet/network-status":                          {gaps, "kubelet"},
		"kubelet/runtime-up":                              {gaps, "kubelet"},
		"kubelet/pod-killer":                              {blocks, "kubelet"},
		"kubelet/eviction":                                {gaps, "kubelet"},
		"kubelet/pleg-relist":                             {gaps, "kubelet"},
	}
}

// periodRow says how a loop's period shows, and in which run.
type periodRow struct {
	shows int
	run   string
}

// periodRuns are the classic built-in runs the periods are read from, each
// long enough for a 5m loop to show two periods, with the actions that
// make a blocking loop come round again (a broken watch re-lists, a taken
// port makes ListenAndServe fail).
func periodRuns() map[string]periodRun {
	return map[string]periodRun{
		"cm": {"cm-startup", `
    - {at: 30s, breakWatches: {resource: pods}}
    - {at: 90s, breakWatches: {resource: pods}}
    - {at: 150s, breakWatches: {resource: services}}`},
		"kubelet": {"kubelet-startup", `
    - {at: 30s, breakWatches: {resource: pods}}
    - {at: 40s, create: ` + podWithVolume + `}
    - {at: 90s, breakWatches: {resource: pods}}`},
		"kubelet-modern": {"kubelet-startup", ""},
		"failover":       {"cm-leader-failover", ""},
		"healthz": {"kubelet-startup", `
    - {at: 20s, stopKubelet: {node: node-1}}
    - {at: 21s, takePort: {node: node-1, server: healthz, for: 40s}}
    - {at: 22s, startKubelet: {node: node-1}}`},
	}
}

// podWithVolume is a pod on node-1 with an emptyDir volume, whose pod
// worker waits for the mount (WaitForAttachAndMount).
const podWithVolume = `{apiVersion: v1, kind: Pod, metadata: {name: scratch, namespace: default}, spec: {nodeName: node-1, volumes: [{name: data, emptyDir: {}}], containers: [{name: c, image: "nginx:1.11"}]}}`

// periodRun is a built-in scenario and the actions added to it.
type periodRun struct {
	scenario string
	actions  string
}

// TestPeriodsFollowTheSource holds every periodic goroutine of the catalog
// to its period, as a run shows it: the median gap between one iteration
// and the next, in simulated time, within 2% of the catalog's period (idle
// iterations the recorder sampled out are counted: a gap over n iterations
// is n periods). The catalog's period is the source's (Entry.PeriodFrom
// names its constant or flag; sim/catalog checks that it does).
func TestPeriodsFollowTheSource(t *testing.T) {
	runs := map[string]*timeline.Timeline{}
	for name, r := range periodRuns() {
		sc := builtin(t, r.scenario)
		sc.Spec.Era = scenarios.EraClassic
		if name == "kubelet-modern" {
			sc.Spec.Era = scenarios.EraModern
		}
		if r.scenario != "cm-leader-failover" { // the failover's own length is its point
			sc.Spec.Duration = 11 * time.Minute
		}
		if r.actions != "" {
			extra, err := scenarios.Parse(name+".yaml", []byte("apiVersion: kubeloom.dev/v1\nkind: Scenario\nmetadata: {name: "+name+"}\n"+
				"spec:\n  duration: 11m\n  kubelets: {count: 1}\n  actions:"+r.actions+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			sc.Spec.Actions = append(sc.Spec.Actions, extra.Spec.Actions...)
			sort.SliceStable(sc.Spec.Actions, func(i, j int) bool { return sc.Spec.Actions[i].At < sc.Spec.Actions[j].At })
		}
		_, spans := runScenario(t, sc, nil)
		runs[name] = timeline.Build(spans)
	}

	rows := periodRows()
	for _, e := range catalog.All() {
		if e.Period <= 0 {
			continue
		}
		t.Run(e.Name, func(t *testing.T) {
			row, ok := rows[e.Name]
			if !ok {
				t.Fatalf("a periodic catalog entry (%s, %s) with no row in periodRows: say how its period shows", e.Period, e.PeriodFrom)
			}
			var lanes []*timeline.Lane
			for _, in := range runs[row.run].Instances {
				for _, l := range in.Lanes {
					if l.Goroutine == e.Name {
						lanes = append(lanes, l)
					}
				}
			}
			if len(lanes) == 0 {
				t.Fatalf("no %s lane in the %s run", e.Name, row.run)
			}
			var waits []time.Duration
			for _, l := range lanes {
				if l.Period != e.Period {
					t.Errorf("%s: the lane's period is %s, the catalog's (%s) %s", l.Label, l.Period, e.PeriodFrom, e.Period)
				}
				if row.shows == ticks {
					waits = append(waits, tickGaps(l)...)
				} else {
					waits = append(waits, iterationGaps(l, row.shows == polls)...)
				}
				if row.shows == blocks && (len(l.Iterations) != 1 || l.Iterations[0].End.Before(l.End)) {
					t.Errorf("%s: %d iterations; its body blocks, so want one, lasting the lane's life (to %s)",
						l.Label, len(l.Iterations), runs[row.run].Offset(l.End))
				}
			}
			switch row.shows {
			case gaps, polls, ticks:
				if len(waits) == 0 {
					t.Fatalf("%d lanes, no two iterations: nothing shows the period", len(lanes))
				}
				med := median(waits)
				if dev := math.Abs(float64(med-e.Period)) / float64(e.Period); dev > 0.02 {
					t.Errorf("median gap %s over %d gaps, want %s (%s) within 2%%", med, len(waits), e.Period, e.PeriodFrom)
				}
			case jittered, jitteredOnce:
				if len(waits) < 3 {
					t.Fatalf("%d gaps, want at least 3", len(waits))
				}
				factor := 1.2
				if row.shows == jitteredOnce {
					factor = 1.0
				}
				hi := time.Duration(float64(e.Period) * (1 + factor))
				distinct := map[time.Duration]bool{}
				for _, w := range waits {
					distinct[w] = true
					if w < e.Period-time.Millisecond || w >= hi {
						t.Errorf("a wait of %s, want within [%s, %s): JitterUntil(%s, %g)", w, e.Period, hi, e.Period, factor)
					}
				}
				if len(distinct) < 2 {
					t.Errorf("every wait is %s: JitterUntil(%s, %g) draws each one", waits[0], e.Period, factor)
				}
			}
		})
	}
}

// iterationGaps is the wait before each iteration of a lane but the first:
// from the previous iteration's end (wait.Until is sliding; from its start
// when the body itself waits), divided by the iterations in between when
// the recorder sampled idle ones out.
func iterationGaps(l *timeline.Lane, fromStart bool) []time.Duration {
	var out []time.Duration
	for i := 1; i < len(l.Iterations); i++ {
		prev, next := l.Iterations[i-1], l.Iterations[i]
		switch n := next.Iteration - prev.Iteration; {
		case n == 1 && fromStart:
			out = append(out, next.Start.Sub(prev.Start))
		case n == 1:
			out = append(out, next.Start.Sub(prev.End))
		case n > 1:
			out = append(out, next.Start.Sub(prev.Start)/time.Duration(n))
		}
	}
	return out
}

// tickGaps is the time from a ticker loop's start to its first tick and
// between ticks, start to start, divided by the ticks in between when the
// recorder sampled unheard ones out.
func tickGaps(l *timeline.Lane) []time.Duration {
	var out []time.Duration
	prev, n := l.Start, int64(0)
	for _, it := range l.Iterations {
		if k := it.Iteration - n; k > 0 {
			out = append(out, it.Start.Sub(prev)/time.Duration(k))
		}
		prev, n = it.Start, it.Iteration
	}
	return out
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
