package timeline

import (
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/sim/catalog"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// stableSortedSteps is Steps as it was before StepRefs: every step with
// its stories, stably sorted by time, lane order and kind.
func stableSortedSteps(tl *Timeline) []Step {
	var steps []Step
	for _, in := range tl.Instances {
		for _, l := range in.Lanes {
			entry, ok := catalog.Lookup(l.Goroutine)
			add := func(kind StepKind, at time.Time, m *Mark) {
				st := Step{Kind: kind, At: at, Instance: in, Lane: l, Mark: m, Entry: entry, HasEntry: ok}
				if kind == StepCall && l.Goroutine == MainLane {
					st.Startup, st.HasStartup = StartupStep(in.Service, m.Name)
					if in.Service == catalog.ServiceScenario {
						st.At = actionTime(tl, m)
					}
				}
				steps = append(steps, st)
			}
			if l.Goroutine != MainLane {
				add(StepStarted, l.Start, nil)
			}
			for i := range l.Iterations {
				add(StepIteration, l.Iterations[i].Start, &l.Iterations[i])
			}
			for i := range l.Calls {
				add(StepCall, l.Calls[i].Start, &l.Calls[i])
			}
			for i := range l.Events {
				add(StepEvent, l.Events[i].Start, &l.Events[i])
			}
			if l.Goroutine != MainLane && !l.Open {
				add(StepStopped, l.End, nil)
			}
		}
	}
	order := map[*Lane]int{}
	n := 1
	for _, in := range tl.Instances {
		for _, l := range in.Lanes {
			order[l] = n
			if in.Service == catalog.ServiceScenario && l.Goroutine == MainLane {
				order[l] = 0
			}
			n++
		}
	}
	sort.SliceStable(steps, func(i, j int) bool {
		a, b := &steps[i], &steps[j]
		if !a.At.Equal(b.At) {
			return a.At.Before(b.At)
		}
		if order[a.Lane] != order[b.Lane] {
			return order[a.Lane] < order[b.Lane]
		}
		return kindOrder[a.Kind] < kindOrder[b.Kind]
	})
	return steps
}

// TestStepsSameAsStableSort: Steps, sorted by StepRefs' whole key, is the
// stable sort it was, on recordings with many steps at the same instant
// (times repeat, zero times, the same instant in another zone), and with
// scenario actions told at their own time, on two scenario instances.
func TestStepsSameAsStableSort(t *testing.T) {
	for seed := range uint64(4) {
		spans := randomRecording(seed, 3000)
		r := tt.New("random")
		for _, id := range []string{"scenario", "scenario-2"} {
			r.Instance(catalog.ServiceScenario, id)
			root := r.Span(tt.Root, "scenario random", 0, 100, catalog.AttrClockOrigin, tt.Origin.Format(time.RFC3339Nano))
			for i := range 10 {
				at := float64(i * 10)
				r.Span(root, "action/update", at+0.002, at+0.004, catalog.AttrAction, "update", catalog.AttrActionAt, at)
				r.Span(root, "LoadObjects", at, at)
			}
		}
		tl := Build(append(spans, r.Spans()...))
		got, want := Steps(tl), stableSortedSteps(tl)
		if len(got) != len(want) {
			t.Fatalf("seed %d: %d steps, want %d", seed, len(got), len(want))
		}
		for i := range got {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("seed %d: step %d is %s %s at %v on %s, want %s %s at %v on %s", seed, i,
					got[i].Kind, got[i].Name(), got[i].At, got[i].Lane.Label, want[i].Kind, want[i].Name(), want[i].At, want[i].Lane.Label)
			}
		}
		refs := StepRefs(tl)
		for i, r := range refs {
			if s := got[i]; r.Kind != s.Kind || !r.At.Equal(s.At) || r.At.Location() != s.At.Location() || r.Lane != s.Lane || r.Instance != s.Instance || r.Mark() != s.Mark {
				t.Fatalf("seed %d: StepRefs()[%d] differs from Steps()[%d]", seed, i, i)
			}
		}
	}
}
