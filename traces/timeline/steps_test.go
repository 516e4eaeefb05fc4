package timeline_test

import (
	"testing"

	"github.com/kubeloom/kubeloom/traces/timeline"
	"github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

func TestStepsAreOrderedAndNarrated(t *testing.T) {
	r := timelinetest.New("steps")
	root := r.Span("", "main", 0, 10)
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
		if s.HasEntry && s.Entry.Summary != "" && s.Entry.SummaryZH != "" {
			narrated++
		}
	}
	if narrated == 0 {
		t.Error("no step carries its catalog narrative")
	}
}
