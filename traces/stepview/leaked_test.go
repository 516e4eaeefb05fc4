package stepview

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces/timeline"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// A pre-1.5 reflector's resync goroutines are left behind at 10s, 20s and
// 30s and stop with the process at 50s, 45s and 40s; a v1.5 one ends with
// its call. At each step, leaked counts those left behind by then and not
// yet stopped, and the story says it only when there are some.
func TestLeakedCountsLeftBehindGoroutinesAliveAtEachStep(t *testing.T) {
	r := tt.New("leak").Instance("informers", "informers")
	main := r.Span(tt.Root, "main", 0, 60)
	type want struct{ from, to float64 } // leaked at from, stops at to
	var leaks []want
	for i, w := range []want{{10, 50}, {20, 45}, {30, 40}} {
		g := r.Goroutine(main, "reflector/resync-timer", "go", float64(i*10), w.to, catalog.AttrInformer, "pods-v1.4", catalog.AttrLeaked, true)
		r.Event(g, catalog.EventLeaked, w.from)
		leaks = append(leaks, w)
	}
	r.Goroutine(main, "reflector/resync-timer", "go", 0, 10, catalog.AttrInformer, "pods-v1.5")
	d := newData(timeline.Build(r.Spans()), r.Spans())

	// Where each leaked lane's "leaked" event and its stop are among the
	// steps, found by walking them.
	leakAt, stopAt := map[*timeline.Lane]int{}, map[*timeline.Lane]int{}
	for i, s := range d.steps {
		switch {
		case s.Kind == timeline.StepEvent && s.Mark.Name == catalog.EventLeaked:
			leakAt[s.Lane] = i
		case s.Kind == timeline.StepStopped:
			stopAt[s.Lane] = i
		}
	}
	if len(leakAt) != len(leaks) {
		t.Fatalf("%d leaked events among the steps, want %d", len(leakAt), len(leaks))
	}
	seen := map[int]bool{}
	for i, s := range d.steps {
		n := 0
		for l, from := range leakAt {
			if from <= i && i < stopAt[l] {
				n++
			}
		}
		if got := d.leaked(i); got != n {
			t.Errorf("step %d (%s at %s): leaked %d, want %d", i, s.Kind, d.tl.Offset(s.At), got, n)
		}
		seen[n] = true
	}
	if got := d.leaked(len(d.steps) - 1); got != 0 {
		t.Errorf("at the last step %d leaked goroutines alive, want 0: they all stopped", got)
	}
	for n := range 4 {
		if !seen[n] {
			t.Errorf("no step with %d leaked: the test tests little", n)
		}
	}

	var b bytes.Buffer
	if err := Plain(&b, d.tl, "en", 0, 0); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, line := range []string{
		"of them 1 leaked resync goroutine (pre-1.5 reflector, kubernetes#35015)",
		"of them 3 leaked resync goroutines (pre-1.5 reflector, kubernetes#35015)",
	} {
		if !strings.Contains(out, line) {
			t.Errorf("the story never says %q", line)
		}
	}
	if first := strings.SplitN(out, "── step 2 ", 2)[0]; strings.Contains(first, "leaked resync") {
		t.Errorf("step 1, before any leak, mentions leaked goroutines:\n%s", first)
	}
}
