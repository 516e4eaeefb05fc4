package timeline_test

import (
	"slices"
	"testing"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces/timeline"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// A goroutine started once per call of a loop (catalog.Entry.PerCall: a
// renewal's poller) counts in the shape as iterations do, by its presence
// only: a run in real time may end just before or after one more renewal.
// Other goroutines count.
func TestShapeCountsPerCallGoroutinesByPresence(t *testing.T) {
	shape := func(pollers, pipelines int) []string {
		r := tt.New("shape")
		main := r.Span(tt.Root, "main", 0, 60)
		for i := range pollers {
			r.Goroutine(main, "cm/leader-poll-ticker", catalog.KindGo, float64(2*i), float64(2*i+2))
		}
		for range pipelines {
			r.Goroutine(main, "cm/event-broadcast-loop", catalog.KindGo, 0, 60)
		}
		return timeline.Shape(timeline.Build(r.Spans()))
	}
	if a, b := shape(45, 1), shape(44, 1); !slices.Equal(a, b) {
		t.Errorf("45 and 44 renewals' pollers give different shapes:\n%v\n%v", a, b)
	}
	if a, b := shape(45, 1), shape(45, 2); slices.Equal(a, b) {
		t.Errorf("one and two event pipelines give the same shape: %v", a)
	}
	if a, b := shape(3, 1), shape(0, 1); slices.Equal(a, b) {
		t.Errorf("a run with pollers and one without give the same shape: %v", a)
	}
}
