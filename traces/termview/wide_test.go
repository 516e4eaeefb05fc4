package termview_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubeloom/kubeloom/traces/termview"
)

// Names in Chinese, with an emoji or a combining accent line up: every
// lane of the wide fixture runs to the end, so every lane row ends in the
// last column, however many runes its label has.
func TestWideNamesLineUp(t *testing.T) {
	for _, width := range []int{termview.MinWidth, 40, 60, 80, 120} {
		for _, color := range []bool{false, true} {
			out := render(t, "wide", termview.Options{Width: width, Color: color})
			rows, in := 0, false
			for _, line := range strings.Split(out, "\n") {
				plain := ansi.Strip(line)
				switch {
				case plain == "kubelet 节点-1":
					in = true
					continue
				case strings.HasPrefix(plain, "legend"):
					in = false
				}
				if !in || strings.Contains(plain, "▾") { // not a lane, or a group's heading
					continue
				}
				rows++
				if w := ansi.StringWidth(line); w != width {
					t.Errorf("width %d, colour %v: a lane row is %d cells wide, want %d:\n%s", width, color, w, width, out)
				}
			}
			if rows != 8 { // main, main-loop, 5 pod workers, pleg-relist
				t.Errorf("width %d: %d lane rows, want 8:\n%s", width, rows, out)
			}
		}
	}
}

// The summary's columns line up whatever the names: the last column is
// right-aligned, so every row but the totals (whose END is empty) is as
// wide as the headings.
func TestWideSummaryLinesUp(t *testing.T) {
	for _, opt := range []termview.Options{{}, {Width: 100}, {Width: 80}, {Width: 80, Color: true}} {
		out := summary(t, "wide", opt)
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		head := -1
		for i, l := range lines {
			if strings.HasPrefix(ansi.Strip(l), "INSTANCE") {
				head = i
			}
		}
		if head < 0 {
			t.Fatalf("%+v: no headings:\n%s", opt, out)
		}
		want := ansi.StringWidth(lines[head])
		for _, l := range lines[head+1 : len(lines)-1] {
			if w := ansi.StringWidth(l); w != want {
				t.Errorf("width %d: row %q is %d cells wide, the headings %d:\n%s", opt.Width, ansi.Strip(l), w, want, out)
			}
		}
		if opt.Width > 0 && want > opt.Width {
			t.Errorf("width %d: the table is %d cells wide:\n%s", opt.Width, want, out)
		}
	}
}

// Fitted to a narrower column, the pod workers' labels are cut between
// characters, never through one, and cut once.
func TestWideLabelsFit(t *testing.T) {
	out := summary(t, "wide", termview.Options{Width: 80})
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "……") || strings.Contains(line, "…\u0301") || strings.ContainsRune(line, '\uFFFD') {
			t.Errorf("a label cut badly: %q", line)
		}
	}
	golden(t, "summary.wide.w80.txt", out)
}
