package stepview_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kubeloom/kubeloom/traces/stepview"
	"github.com/kubeloom/kubeloom/traces/timeline"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// A recording whose names and values carry escape sequences (OSC 0, OSC
// 52, CSI 2J, the C1 CSI, a bidirectional override) shows them as visible
// escapes at every step, in the interactive view (its tree, story and
// status line) and in plain text, and writes none to the terminal.
func TestControlsInTheRecordingShowEscaped(t *testing.T) {
	spans := tt.Hostile()
	seen := map[string]bool{}
	check := func(what, out string) {
		t.Helper()
		if bad := tt.Unsafe(out); bad != "" {
			t.Fatalf("%s: a control reaches the terminal: %s\n%s", what, bad, out)
		}
		for _, e := range tt.Escaped {
			seen[e] = seen[e] || strings.Contains(out, e)
		}
	}
	m := modelOf(t, spans, stepview.Options{Width: 160, Height: 40})
	n := len(timeline.Steps(timeline.Build(spans)))
	for i := 0; i < n; i++ {
		// The raw view, styles and all: the model draws without colour
		// here, so any escape sequence in it came from the recording.
		check("step "+m.Step().Name(), m.View())
		f, _ := press(t, m, "f") // the status line names what it followed
		check("follow at step "+m.Step().Name(), f.View())
		m, _ = press(t, m, "n")
	}
	m, _ = press(t, m, "/", "\x1b]0;typed\x07") // what is typed shows escaped too
	check("search prompt", m.View())
	m, _ = press(t, m, "enter")
	check("search status", m.View())

	for _, lang := range []string{"en", "zh"} {
		var b bytes.Buffer
		if err := stepview.Plain(&b, timeline.Build(spans), lang, 0, 0); err != nil {
			t.Fatal(err)
		}
		check("plain "+lang, b.String())
	}
	for _, e := range tt.Escaped {
		if !seen[e] {
			t.Errorf("no view shows %s", e)
		}
	}
}
