package htmlview

import (
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/traces/diff"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// The comparison's data: two eras of one recording are two sides of one
// timeline, whose steps and links are encoded once, only those of the
// selected instances; each side's times count from its own recording's
// start, so that two recordings made at different instants share the axis.
func TestEncodeDiff(t *testing.T) {
	tl := recordBuiltin(t, "informer-eras")
	a, b := diff.Side{TL: tl, Select: "classic"}, diff.Side{TL: tl, Select: "modern"}
	d := encodeDiff(a, b, DiffNames{A: "a", B: "b"}, diff.Compare(a, b, diff.Options{}))
	var names []string
	for _, in := range d.Instances {
		names = append(names, d.Strings[in.Name])
	}
	insA, _ := a.Instances()
	insB, _ := b.Instances()
	if len(names) != len(insA)+len(insB) || names[0] != "A "+insA[0].Name() || names[1] != "B "+insB[0].Name() {
		t.Errorf("instances %q, want A's and B's in pairs", names)
	}
	shown := 0
	for _, in := range append(insA, insB...) {
		for _, l := range in.Lanes {
			shown += 2 + len(l.Iterations) + len(l.Calls) + len(l.Events)
			if l.Goroutine == timeline.MainLane {
				shown-- // a main lane has no started step
			}
			if l.Goroutine == timeline.MainLane || l.Open {
				shown-- // nor a stopped one, nor a lane still running
			}
		}
	}
	if got := len(d.Steps) / stepStride; got != shown {
		t.Errorf("%d steps, want the %d of the two eras' lanes, once", got, shown)
	}
	for i := 0; i < len(d.Steps); i += stepStride {
		if d.Steps[i] < 0 || int(d.Steps[i]) >= len(d.Lanes) {
			t.Fatalf("step %d is on lane %d of %d", i/stepStride, d.Steps[i], len(d.Lanes))
		}
	}
	for i := 0; i < len(d.Flows); i += flowStride {
		if d.Flows[i] >= int64(len(d.Lanes)) || d.Flows[i+3] >= int64(len(d.Lanes)) {
			t.Fatalf("flow %d joins lanes %d and %d of %d", i/flowStride, d.Flows[i], d.Flows[i+3], len(d.Lanes))
		}
	}
	if d.Diff == nil || len(d.Diff.Sides) != len(d.Instances) || len(d.Diff.Lanes) != len(d.Lanes) {
		t.Fatalf("the comparison's data does not cover the instances and lanes: %+v", d.Diff)
	}

	// B recorded an hour later than A: its lanes are drawn from its own start.
	later := *tl
	later.Start = tl.Start.Add(-time.Hour)
	b = diff.Side{TL: &later, Select: "modern"}
	d = encodeDiff(a, b, DiffNames{}, diff.Compare(a, b, diff.Options{}))
	if got := len(d.Steps) / stepStride; got != shown {
		t.Errorf("%d steps with B a copy of the recording, want %d: each side's own, once", got, shown)
	}
	first := d.Instances[1] // B's first instance
	l := pageLanes(insB[0])[0]
	if got, want := d.Lanes[first.First].Start, later.Offset(l.Start).Microseconds(); got != want {
		t.Errorf("B's first lane starts at %dµs on the page, want %dµs from B's start", got, want)
	}
}
