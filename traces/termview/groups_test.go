package termview_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces/termview"
	"github.com/kubeloom/kubeloom/traces/timeline"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// pool records a controller manager with one controller of five workers
// and the shared informer of pods with four handlers: 13 lanes.
func pool() *timeline.Timeline {
	r := tt.New("pool")
	root := r.Span(tt.Root, "run", 0, 60)
	main := r.Goroutine(root, "cm/controllers-main", catalog.KindGo, 1, 60)
	start := r.Span(main, "start ReplicaSetController", 2, 2.1, catalog.AttrControllerID, "replicaset")
	run := r.Goroutine(start, "controller/replicaset/run", catalog.KindGo, 2, 60)
	for w := 1; w <= 5; w++ {
		g := r.Goroutine(run, "controller/replicaset/worker", catalog.KindUntil, 3, 60, catalog.AttrWorker, int64(w))
		r.Loop(g, "controller/replicaset/worker", "processNextWorkItem", 3, 60, 1, 0.01)
	}
	inf := r.Goroutine(main, "informer/run", catalog.KindUntil, 5, 60, catalog.AttrInformer, "pods")
	for _, h := range []string{"replicaset-controller", "job-controller", "daemonset-controller", "node-controller"} {
		r.Goroutine(inf, "informer/listener-run", catalog.KindGo, 5, 60, catalog.AttrInformer, "pods", catalog.AttrHandler, h)
	}
	return timeline.Build(r.Spans())
}

func draw(t *testing.T, tl *timeline.Timeline, opt termview.Options) string {
	t.Helper()
	var b bytes.Buffer
	if err := termview.Render(&b, tl, opt); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestFoldsGroupsAboveTheLaneLimit(t *testing.T) {
	tl := pool()
	out := draw(t, tl, termview.Options{Width: 100, MaxLanes: 8})
	for _, want := range []string{
		"▸ controller/replicaset (6)", "▸ informers (5)",
		"2 groups are folded:  --expand NAME unfolds one (e.g. --expand controller/replicaset),",
		"▸ a folded group: its lanes in one row",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("folded output lacks %q:\n%s", want, out)
		}
	}
	// Five workers of one iteration a second draw 5+ per column, never a digit.
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "controller/replicaset (6)") && !strings.Contains(line, "█") {
			t.Errorf("the folded pool shows no dense column: %q", line)
		}
	}

	out = draw(t, tl, termview.Options{Width: 100, MaxLanes: 8, Expand: []string{"replicaset"}})
	for _, want := range []string{"▾ controller/replicaset", "▾ worker", "worker 5", "▸ informers (5)"} {
		if !strings.Contains(out, want) {
			t.Errorf("--expand replicaset output lacks %q:\n%s", want, out)
		}
	}
	out = draw(t, tl, termview.Options{Width: 100, MaxLanes: 8, Expand: []string{"all"}})
	if strings.Contains(out, "▸") || !strings.Contains(out, "listener-run pods node-controller") {
		t.Errorf("--expand all still folds:\n%s", out)
	}
	// Under the limit nothing folds; a --goroutine filter never folds.
	if out := draw(t, tl, termview.Options{Width: 100}); strings.Contains(out, "▸ controller") {
		t.Errorf("13 lanes folded under the default limit:\n%s", out)
	}
	f := timeline.Filter{Goroutines: []string{"controller/*/worker"}}
	if out := draw(t, tl, termview.Options{Width: 100, MaxLanes: 2, Filter: f}); strings.Contains(out, "▸") {
		t.Errorf("a --goroutine filter folded:\n%s", out)
	}
	if err := termview.Render(&bytes.Buffer{}, tl, termview.Options{Width: 100, Expand: []string{"[a-"}}); err == nil || !strings.Contains(err.Error(), "--expand") {
		t.Errorf("a bad --expand pattern: %v", err)
	}
}

func TestSummaryFitsTheWidth(t *testing.T) {
	tl := pool()
	for _, w := range []int{80, 100} {
		var b bytes.Buffer
		if err := termview.Summary(&b, tl, termview.Options{Width: w}); err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		lo, hi := 0, 0 // the GOROUTINE column, in runes
		for _, line := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
			if strings.HasPrefix(line, "INSTANCE") {
				lo, hi = strings.Index(line, "GOROUTINE"), strings.Index(line, "KIND")
			}
			if n := ansi.StringWidth(line); n > w {
				t.Errorf("width %d: a line of %d cells: %q", w, n, line)
			}
			if strings.HasPrefix(line, "cm-0") {
				label := strings.TrimSpace(string([]rune(line)[lo:hi]))
				if seen[label] {
					t.Errorf("width %d: two lanes read %q:\n%s", w, label, b.String())
				}
				seen[label] = true
			}
		}
	}
}
