package termview

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubeloom/kubeloom/traces/diff"
)

// Diff writes a report's names as printable text and fits every line to
// the width; a section with nothing that differs says so.
func TestDiffFitsAndEscapes(t *testing.T) {
	hostile := "kubelet/pod-worker default/\x1b[31mred\u202e"
	r := diff.Report{
		Families: []diff.Family{
			{Role: "kubelet node-1", Family: hostile, A: &diff.Stats{Lanes: 1, Period: time.Second, Calls: map[string]int{"syncPod": 3, "x\x07": 1}},
				B: &diff.Stats{Lanes: 1, Period: 2 * time.Second, Calls: map[string]int{"syncPod": 3}}, Differs: []string{"period", "calls"}},
			{Role: "kubelet node-1", Family: "kubelet/pleg-relist", A: &diff.Stats{Lanes: 1}, B: &diff.Stats{Lanes: 1}},
		},
	}
	for _, width := range []int{40, 100} {
		var b bytes.Buffer
		if err := Diff(&b, r, DiffOptions{Width: width, A: "a.jsonl", B: "b.jsonl"}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if strings.ContainsAny(out, "\x1b\x07\u202e") {
			t.Errorf("width %d: raw control characters from the recording:\n%q", width, out)
		}
		for i, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
			if w := ansi.StringWidth(line); w > width {
				t.Errorf("width %d: line %d is %d columns: %q", width, i+1, w, line)
			}
		}
		if width == 100 {
			for _, want := range []string{"period", "1s", "2s", "+1s ×2", `calls only in A: x\x07 ×1`, "STARTUP STEPS: no difference"} {
				if !strings.Contains(out, want) {
					t.Errorf("the report lacks %q:\n%s", want, out)
				}
			}
			if strings.Contains(out, "pleg-relist") {
				t.Errorf("a family that does not differ is listed without All:\n%s", out)
			}
		}
	}
}
