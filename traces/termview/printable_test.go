package termview_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kubeloom/kubeloom/traces/termview"
	"github.com/kubeloom/kubeloom/traces/timeline"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// A recording whose names and values carry escape sequences (OSC 0, OSC
// 52, CSI 2J, the C1 CSI, a bidirectional override) shows them as visible
// escapes in the timeline and the summary, and writes none to the
// terminal; a filter that matches nothing lists the names escaped too.
func TestControlsInTheRecordingShowEscaped(t *testing.T) {
	tl := timeline.Build(tt.Hostile())
	for _, c := range []struct {
		name string
		draw func(*bytes.Buffer) error
	}{
		{"replay", func(b *bytes.Buffer) error {
			return termview.Render(b, tl, termview.Options{Width: 1000})
		}},
		{"replay folded", func(b *bytes.Buffer) error {
			return termview.Render(b, tl, termview.Options{Width: 1000, MaxLanes: 1})
		}},
		{"summary", func(b *bytes.Buffer) error {
			return termview.Summary(b, tl, termview.Options{})
		}},
		{"summary fitted", func(b *bytes.Buffer) error {
			return termview.Summary(b, tl, termview.Options{Width: 100})
		}},
		{"no instance matches", func(b *bytes.Buffer) error {
			err := termview.Render(b, tl, termview.Options{Width: 100, Filter: timeline.Filter{Instances: []string{"nothing"}}})
			b.WriteString(err.Error())
			return nil
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := c.draw(&b); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			if bad := tt.Unsafe(out); bad != "" {
				t.Fatalf("a control reaches the terminal: %s\n%s", bad, out)
			}
			for _, e := range tt.Escaped {
				if !strings.Contains(out, e) {
					t.Errorf("%s does not show %s:\n%s", c.name, e, out)
				}
			}
		})
	}
}
