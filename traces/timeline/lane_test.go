package timeline_test

import (
	"slices"
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces/timeline"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// A lane has its lifetime span's fields, its iterations in order, their
// events and links.
func TestBuildLaneDetails(t *testing.T) {
	r := tt.New("details")
	g := r.Goroutine(tt.Root, "kubelet/container-gc", catalog.KindUntil, 0, 300,
		catalog.AttrGoroutinePeriod, 60.0, catalog.AttrCodeFile, "pkg/kubelet/kubelet.go")
	its := r.Loop(g, "kubelet/container-gc", "Containers/GarbageCollect", 0, 300, 60, 0.5)
	r.Event(its[2], "removed container", 120.2)
	r.Link(its[1], its[0])
	tl := timeline.Build(r.Spans())

	if tl.Scenario != "details" || tl.Links != 1 || tl.Duration() != 300*time.Second {
		t.Fatalf("Scenario %q, Links %d, Duration %v", tl.Scenario, tl.Links, tl.Duration())
	}
	in := tl.Instance("kube-controller-manager", "cm-0")
	if in == nil {
		t.Fatal("no instance cm-0")
	}
	l := in.Lane("kubelet/container-gc")
	if l == nil {
		t.Fatal("no lane kubelet/container-gc")
	}
	if l.Period != time.Minute || l.SpanID != g || l.Open || l.Attributes.String(catalog.AttrCodeFile) == "" {
		t.Errorf("lane = %+v", l)
	}
	var nums []int64
	for _, m := range l.Iterations {
		nums = append(nums, m.Iteration)
	}
	if !slices.Equal(nums, []int64{1, 2, 3, 4, 5}) {
		t.Errorf("iterations %v", nums)
	}
	if got := tl.Offset(l.Iterations[3].Start); got != 3*time.Minute {
		t.Errorf("Offset(iteration 4) = %v", got)
	}
	if len(l.Events) != 1 || l.Events[0].SpanID != its[2] || tl.Offset(l.Events[0].Start) != 120200*time.Millisecond {
		t.Errorf("events %+v", l.Events)
	}
	if tl.LaneCount() != 1 || in.Lane("nope") != nil || tl.Instance("kubelet", "cm-0") != nil {
		t.Error("lookups")
	}
}
