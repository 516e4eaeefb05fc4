package stepview_test

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/stepview"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// wideNames is a kubelet, its node named in Chinese, starting pod workers
// for pods named in Chinese (one too long for the tree), with an emoji and
// with an accent written as a combining mark.
func wideNames() []traces.Span {
	r := tt.New("网站-入门").Instance("kubelet", "节点-1")
	run := r.Span(tt.Root, "run", 0, 30)
	ml := r.Goroutine(run, "kubelet/main-loop", catalog.KindUntil, 0.1, 30)
	for i, key := range []string{"default/网站-0", "default/网站网站网站网站网站网站-1", "default/web-2", "default/cafe\u0301-3", "default/👩\u200d💻-4"} {
		at := 1 + 2*float64(i)
		w := r.Goroutine(ml, "kubelet/pod-worker", catalog.KindGo, at, 30, catalog.AttrObjectKey, key)
		r.Iteration(w, "kubelet/pod-worker", "syncPod", 1, at, at+0.5, catalog.AttrObjectKey, key)
	}
	return r.Spans()
}

// The goroutine tree and the story beside it line up whatever the names:
// at every step, every row's separator is in the same column, and no line
// is wider than the terminal.
func TestViewLinesUpWideNames(t *testing.T) {
	for _, size := range []tea.WindowSizeMsg{{Width: 100, Height: 30}, {Width: 60, Height: 20}, {Width: 40, Height: 16}} {
		m := modelOf(t, wideNames(), stepview.Options{})
		next, _ := m.Update(size)
		m = next.(stepview.Model)
		for step := 0; ; step++ {
			ls := lines(view(m))
			col := -1
			for i, l := range ls[1 : len(ls)-2] { // the title; the status and the help
				at := strings.Index(l, " │")
				if at < 0 {
					t.Fatalf("%dx%d step %d: line %d has no separator: %q", size.Width, size.Height, step, i+2, l)
				}
				c := ansi.StringWidth(l[:at])
				if col < 0 {
					col = c
				}
				if c != col {
					t.Errorf("%dx%d step %d: the separator of line %d is in column %d, not %d:\n%s", size.Width, size.Height, step, i+2, c, col, view(m))
				}
			}
			for i, l := range ls {
				if w := ansi.StringWidth(l); w > size.Width {
					t.Errorf("%dx%d step %d: line %d is %d cells wide: %q", size.Width, size.Height, step, i+1, w, l)
				}
			}
			before := m.Index()
			if m, _ = press(t, m, "n"); m.Index() == before {
				break
			}
		}
	}
}

// What is typed at a prompt longer than the line scrolls: the line ends
// with the cursor and stays within the terminal.
func TestPromptFitsTheLine(t *testing.T) {
	m := modelOf(t, wideNames(), stepview.Options{})
	next, _ := m.Update(tea.WindowSizeMsg{Width: 40, Height: 20})
	m = next.(stepview.Model)
	m, _ = press(t, m, "/", strings.Repeat("网站", 30)+"-0")
	ls := lines(view(m))
	prompt := ls[len(ls)-2]
	if !strings.HasSuffix(prompt, "网站-0█") || !strings.HasPrefix(prompt, "…") {
		t.Errorf("prompt line %q: want the end of what was typed", prompt)
	}
	for i, l := range ls {
		if w := ansi.StringWidth(l); w > 40 {
			t.Errorf("line %d is %d cells wide: %q", i+1, w, l)
		}
	}
}
