package timeline_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces/timeline"
	"github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

func TestStepsAreOrderedAndNarrated(t *testing.T) {
	r := timelinetest.New("steps")
	root := r.Span(timelinetest.Root, "main", 0, 10)
	run := r.Goroutine(root, "informer/run", "until", 0.5, 10)
	r.Loop(run, "informer/run", "processLoop", 0.5, 10, 1, 0.1)
	pop := r.Goroutine(run, "informer/listener-pop", "go", 1, 9)
	r.Event(pop, "watch event", 2)
	tl := timeline.Build(r.Spans())
	steps := timeline.Steps(tl)
	if len(steps) == 0 {
		t.Fatal("no steps")
	}
	started := map[*timeline.Lane]bool{}
	narrated := 0
	for i, s := range steps {
		if i > 0 && s.At.Before(steps[i-1].At) {
			t.Fatalf("step %d (%s %s) is before step %d", i, s.Kind, s.Name(), i-1)
		}
		switch s.Kind {
		case timeline.StepStarted:
			started[s.Lane] = true
		case timeline.StepIteration, timeline.StepStopped:
			if s.Lane.Goroutine != timeline.MainLane && !started[s.Lane] {
				t.Errorf("step %d: %s of %s before the goroutine started", i, s.Kind, s.Lane.Label)
			}
		}
		if s.HasEntry && s.Entry.Story("en").Summary != "" && s.Entry.Story("zh").Summary != "" {
			narrated++
		}
	}
	if narrated == 0 {
		t.Error("no step carries its catalog narrative")
	}
}

// A scenario action is told at the time the scenario gives it, before
// anything else at that instant (in virtual time its effects start at the
// same instant), and before what happened between that time and its
// span's start (a live run's player wakes up a little late).
func TestActionsAreStepsAtTheirOwnTime(t *testing.T) {
	r := timelinetest.New("actions")
	r.Instance("kubelet", "node-1")
	krun := r.Span(timelinetest.Root, "main", 0, 200)
	oom := r.Goroutine(krun, "kubelet/oom-watcher", "go", 0.1, 200)
	pleg := r.Goroutine(krun, "kubelet/pleg-relist", "until", 0.1, 200)
	r.Iteration(pleg, "kubelet/pleg-relist", "relist", 1, 90.01, 90.02)
	r.Iteration(oom, "kubelet/oom-watcher", "oomEvent", 1, 90.05, 90.06)
	r.Iteration(oom, "kubelet/oom-watcher", "oomEvent", 2, 120, 120)
	r.Instance("kubeloom", "scenario")
	root := r.Span(timelinetest.Root, "scenario actions", 0, 200, "kubeloom.clock.origin", timelinetest.Origin.Format(time.RFC3339Nano))
	r.Span(root, "action/injectOOM", 90.042, 90.044, catalog.AttrAction, "injectOOM", catalog.AttrActionAt, 90.0)
	r.Span(root, "action/injectOOM", 120, 120, catalog.AttrAction, "injectOOM", catalog.AttrActionAt, 120.0)
	tl := timeline.Build(r.Spans())
	var got []string
	for _, s := range timeline.Steps(tl) {
		if off := tl.Offset(s.At); off >= 89*time.Second && s.Mark != nil {
			got = append(got, fmt.Sprintf("%s %s", off, s.Name()))
		}
	}
	want := []string{"1m30s action/injectOOM", "1m30.01s relist", "1m30.05s oomEvent", "2m0s action/injectOOM", "2m0s oomEvent"}
	if !slices.Equal(got, want) {
		t.Errorf("steps\n got %q\nwant %q", got, want)
	}
}

// A goroutine a live snapshot cuts at its instant (kubeloom serve) has not
// returned: its lane is open and has no stopped step, unlike one that
// returned at that very instant.
func TestRunningGoroutineHasNotStopped(t *testing.T) {
	r := timelinetest.New("live")
	root := r.Span(timelinetest.Root, "main", 0, 10)
	r.Goroutine(root, "informer/run", "until", 0.5, 10, catalog.AttrRunning, true)
	r.Goroutine(root, "informer/listener-pop", "go", 1, 10)
	tl := timeline.Build(r.Spans())
	stopped := map[string]bool{}
	for _, s := range timeline.Steps(tl) {
		if s.Kind == timeline.StepStopped {
			stopped[s.Lane.Goroutine] = true
		}
	}
	for _, in := range tl.Instances {
		for _, l := range in.Lanes {
			if want := l.Goroutine == "informer/run"; l.Open != want {
				t.Errorf("%s: Open = %v, want %v", l.Goroutine, l.Open, want)
			}
		}
	}
	if stopped["informer/run"] || !stopped["informer/listener-pop"] {
		t.Errorf("stopped steps: %v; want informer/listener-pop's only", stopped)
	}
}
