package termview_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces/termview"
	"github.com/kubeloom/kubeloom/traces/timeline"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// At width 30 a ten-rune label leaves a bar of 17 columns: with the window
// 0s to 17s, column n is second n.
const rowLabel = "lane/abcde"

func TestLaneRow(t *testing.T) {
	tests := []struct {
		name   string
		record func(r *tt.Recorder)
		want   string // the bar, trailing spaces trimmed
	}{{
		name: "lifetime with caps",
		record: func(r *tt.Recorder) {
			r.Span(tt.Root, "run", 0, 17) // the origin of the axis is the earliest span
			r.Goroutine(tt.Root, rowLabel, catalog.KindGo, 1, 16)
		},
		want: " ├──────────────┤",
	}, {
		name: "iterations counted per column",
		record: func(r *tt.Recorder) {
			g := r.Goroutine(tt.Root, rowLabel, catalog.KindUntil, 0, 16)
			r.Iteration(g, rowLabel, "it", 1, 1, 1.1)
			r.Iteration(g, rowLabel, "it", 2, 2, 2.1)
			r.Iteration(g, rowLabel, "it", 3, 2.5, 2.6)
			for n := range 12 {
				r.Iteration(g, rowLabel, "it", 4+n, 5+float64(n)/20, 5+float64(n)/20)
			}
		},
		want: "├│┃──█──────────┤",
	}, {
		name: "a long iteration is drawn running",
		record: func(r *tt.Recorder) {
			g := r.Goroutine(tt.Root, rowLabel, catalog.KindUntil, 0, 16)
			r.Iteration(g, rowLabel, "ListAndWatch", 1, 7, 10.5)
		},
		want: "├──────│━━━─────┤",
	}, {
		name: "layers: action > event > iteration > call > cap",
		record: func(r *tt.Recorder) {
			g := r.Goroutine(tt.Root, rowLabel, catalog.KindUntil, 0, 16)
			it := r.Iteration(g, rowLabel, "it", 1, 4, 4.1)
			r.Event(it, "watch event", 4.5)           // hides the iteration
			r.Iteration(g, rowLabel, "it", 2, 3, 3.1) // hides the call
			r.Span(g, "pods.List", 3.2, 3.3)
			r.Span(g, "pods.Get", 0.5, 0.6) // hides the start cap
			r.Span(g, "action/create", 6, 6)
			r.Event(g, "e", 6.5) // hidden by the action
		},
		want: "·──│•─◆─────────┤",
	}, {
		name: "a goroutine running when the recording stopped",
		record: func(r *tt.Recorder) {
			r.Span(tt.Root, "run", 0, 12)
			g := r.Goroutine(tt.Root, rowLabel, catalog.KindUntil, 2, 12)
			r.Iteration(g, rowLabel, "it", 1, 2, 2)
			r.Iteration(g, rowLabel, "it", 2, 9, 9)
			r.Drop(g)
		},
		want: "  │──────│──→",
	}, {
		name: "short-lived goroutine",
		record: func(r *tt.Recorder) {
			r.Span(tt.Root, "run", 0, 17)
			r.Goroutine(tt.Root, rowLabel, catalog.KindGo, 3.2, 3.7)
		},
		want: "   ▪",
	}, {
		name: "sampled-out iterations are placed one period apart",
		record: func(r *tt.Recorder) {
			g := r.Goroutine(tt.Root, rowLabel, catalog.KindUntil, 0, 16, catalog.AttrGoroutinePeriod, 1.0)
			r.Iteration(g, rowLabel, "relist", 1, 0, 0)
			r.Iteration(g, rowLabel, "relist", 10, 9, 9, catalog.AttrSkipped, 8)
		},
		want: "││││││││││──────┤",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := tt.New("row")
			tc.record(r)
			var b bytes.Buffer
			if err := termview.Render(&b, timeline.Build(r.Spans()), termview.Options{Width: 30, To: 17 * time.Second}); err != nil {
				t.Fatal(err)
			}
			prefix := "  " + rowLabel + " "
			for _, line := range strings.Split(b.String(), "\n") {
				if bar, ok := strings.CutPrefix(line, prefix); ok {
					if bar != tc.want {
						t.Errorf("bar\n got %q\nwant %q\noutput:\n%s", bar, tc.want, b.String())
					}
					return
				}
			}
			t.Fatalf("no row for %s:\n%s", rowLabel, b.String())
		})
	}
}
