package termview_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/termview"
	"github.com/kubeloom/kubeloom/traces/timeline"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// leakRecording is a pre-1.5 reflector's informer whose watch broke at 10s,
// 20s and 30s: each re-list left its resync goroutine behind (leaked=true
// and a "leaked" event, at the break), running to the end; and a v1.5
// informer beside it, whose resync goroutines end with their calls.
func leakRecording() []traces.Span {
	r := tt.New("reflector-leak").Instance("informers", "informers")
	main := r.Span(tt.Root, "main", 0, 60)
	for i, start := range []float64{0, 11, 21, 31} {
		broke := start + 10 - float64(i)
		if i < 3 {
			g := r.Goroutine(main, "reflector/resync-timer", "go", start, 60, catalog.AttrInformer, "pods-v1.4", catalog.AttrLeaked, true)
			r.Event(g, catalog.EventLeaked, broke)
			r.Goroutine(main, "reflector/resync-timer", "go", start, broke, catalog.AttrInformer, "pods-v1.5")
			continue
		}
		r.Goroutine(main, "reflector/resync-timer", "go", start, 60, catalog.AttrInformer, "pods-v1.4")
		r.Goroutine(main, "reflector/resync-timer", "go", start, 60, catalog.AttrInformer, "pods-v1.5")
	}
	return r.Spans()
}

// The summary counts the leaked goroutines, per instance and informer: in
// the whole recording (built whole or as an outline), and in a window only
// those left behind by its end.
func TestSummaryCountsLeakedResyncGoroutines(t *testing.T) {
	spans := leakRecording()
	const line = "LEAKED 3 goroutines, left behind by re-lists of the pre-1.5 reflector (kubernetes#35015): informers reflector/resync-timer pods-v1.4 ×3"
	for name, tl := range map[string]*timeline.Timeline{"build": timeline.Build(spans), "outline": timeline.Outline(asReplaySummaryReads(spans))} {
		var b bytes.Buffer
		if err := termview.Summary(&b, tl, termview.Options{}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), line+"\n") {
			t.Errorf("%s: the summary has no line\n%s\nit says:\n%s", name, line, b.String())
		}
	}
	var b bytes.Buffer
	if err := termview.Summary(&b, timeline.Build(spans), termview.Options{To: 19 * time.Second}); err != nil {
		t.Fatal(err)
	}
	if want := "LEAKED 1 goroutine, left behind by re-lists of the pre-1.5 reflector (kubernetes#35015): informers reflector/resync-timer pods-v1.4 ×1\n"; !strings.Contains(b.String(), want) {
		t.Errorf("to 19s: want %q in\n%s", want, b.String())
	}
	b.Reset()
	if err := termview.Summary(&b, timeline.Build(fixtures["basic"]()), termview.Options{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "LEAKED") {
		t.Errorf("a recording without leaks says LEAKED:\n%s", b.String())
	}
}

// asReplaySummaryReads keeps what `replay --summary` reads of a recording:
// only timeline.OutlineAttributes, and no events.
func asReplaySummaryReads(spans []traces.Span) []traces.Span {
	out := make([]traces.Span, len(spans))
	for i, s := range spans {
		s.Events = nil
		kept := traces.Attributes{}
		for _, k := range timeline.OutlineAttributes {
			if v, ok := s.Attributes[k]; ok {
				kept[k] = v
			}
		}
		s.Attributes = kept
		out[i] = s
	}
	return out
}
