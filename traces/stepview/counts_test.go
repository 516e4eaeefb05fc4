package stepview

import (
	"testing"

	"github.com/kubeloom/kubeloom/traces/timeline"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// counts, made for every step at once, says what status says of each
// lane at each step.
func TestCountsAsStatusSays(t *testing.T) {
	r := tt.New("counts").Instance("kubelet", "node-1")
	main := r.Span(tt.Root, "main", 0, 100)
	for i := range 12 {
		from := float64(i * 5)
		g := r.Goroutine(main, "worker", "loop", from, from+float64(3+i%4*20))
		r.Loop(g, "worker", "sync", from, from+10, 2, 1)
	}
	d := newData(timeline.Build(r.Spans()), r.Spans())
	stops := 0
	for i := range d.steps {
		var run, stop int
		for li, l := range d.lanes {
			if l.Goroutine == timeline.MainLane {
				continue
			}
			switch d.status(li, i) {
			case started, running:
				run++
			case stopped:
				stop++
			}
		}
		gotRun, gotStop := d.counts(i)
		if gotRun != run || gotStop != stop {
			t.Fatalf("step %d: counts %d running, %d stopped; status says %d, %d", i, gotRun, gotStop, run, stop)
		}
		stops = max(stops, stop)
	}
	if stops == 0 {
		t.Fatal("no goroutine stops: the test tests little")
	}
}
