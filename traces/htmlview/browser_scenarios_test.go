package htmlview

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/kubeloom/kubeloom/internal/browsertest"
	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// The windows the page is tested at: a classroom projector and a desktop.
var windowSizes = []struct{ W, H int }{{1280, 720}, {1920, 1080}}

// imagesDir holds the screenshots the docs show, from this package's
// directory; readmePicture is the one the README shows, and what it shows
// is written beside it (timeline.json), which docs/figures_picture_test.go
// compares with a run.
const (
	imagesDir     = "../../docs/images"
	readmePicture = "timeline-cm-leader-failover-1280x720.png" // README.zh.md's is NAME.zh.png, in Chinese
)

// TestBrowserScenarios opens the pages of the two largest built-ins (1,586
// and 458 lanes) in Chromium at 1280×720 and 1920×1080 and uses them as a
// teacher would: groups collapsed on open with room for the story and 20
// rows, the search, zoom at the pointer, + and z keeping the current step
// in view, groups opened by click and by keyboard, the causal arrows, and
// a bookmark (the URL fragment) that survives a reload. The console must
// stay clean. Its screenshots are the docs' pictures (-update writes them).
func TestBrowserScenarios(t *testing.T) {
	b := browsertest.Start(t, browsertest.Options{Width: 1920, Height: 1080})
	for _, name := range []string{"cm-leader-failover", "cluster-basics"} {
		tl := recordBuiltin(t, name)
		pageURL, _ := writePage(t, tl)
		for _, size := range windowSizes {
			t.Run(fmt.Sprintf("%s/%dx%d", name, size.W, size.H), func(t *testing.T) {
				if err := chromedp.Do(b.Ctx, chromedp.EmulateViewport(int64(size.W), int64(size.H))); err != nil {
					t.Fatal(err)
				}
				if err := chromedp.Do(b.Ctx, chromedp.Navigate("about:blank")); err != nil {
					t.Fatal(err)
				}
				load(t, b, pageURL)
				browseScenario(t, b, tl, size.W, size.H)
			})
		}
	}
}

type row struct {
	Kind, Name, Key string
	Lane            int
	Open            bool
}

func rows(tb testing.TB, b *browsertest.Browser) []row {
	tb.Helper()
	return eval[[]row](tb, b, `kubeloom.rowsInfo()`)
}

// shownLanes are the lanes the page shows as rows, as "instance|label".
func shownLanes(tb testing.TB, b *browsertest.Browser) []string {
	tb.Helper()
	var out []string
	for _, r := range rows(tb, b) {
		if r.Kind == "lane" {
			out = append(out, r.Key+"|"+r.Name)
		}
	}
	slices.Sort(out)
	return out
}

type viewState struct {
	T0, T1, Scale, ScrollY float64
	Fitted                 bool
}

func pageView(tb testing.TB, b *browsertest.Browser) viewState {
	tb.Helper()
	return eval[viewState](tb, b, `(() => { const v = kubeloom.view(); return {T0: v.t0, T1: v.t1, Scale: v.scale, ScrollY: v.scrollY, Fitted: v.fitted}; })()`)
}

type visibility struct {
	X, Y bool
	Row  string
}

func stepVisible(tb testing.TB, b *browsertest.Browser) visibility {
	tb.Helper()
	return eval[visibility](tb, b, `kubeloom.stepVisible()`)
}

type box struct{ Left, Top, Right, Bottom float64 }

func browseScenario(t *testing.T, b *browsertest.Browser, tl *timeline.Timeline, w, h int) {
	steps := timeline.Steps(tl)

	// Collapsed on open: an instance heading, then one row per component
	// (a component of one lane shows as that lane).
	if got, want := rows(t, b), collapsedRows(tl); !slices.Equal(got, want) {
		t.Errorf("on open the page shows %d rows, want %d, the components collapsed:\n got %v\nwant %v", len(got), len(want), head(got), head(want))
	}
	if open := eval[[]string](t, b, `kubeloom.openGroups()`); len(open) != 0 {
		t.Errorf("groups open on open: %v", open)
	}

	// The layout: the story beside at least 20 rows, nothing wider than
	// the window.
	layout := eval[struct {
		Rows                    int
		Narrative, Canvas       box
		ScrollWidth, InnerWidth int
	}](t, b, `(() => { const r = (id) => { const b = document.getElementById(id).getBoundingClientRect(); return {Left: b.left, Top: b.top, Right: b.right, Bottom: b.bottom}; };
		return {Rows: kubeloom.visibleRows, Narrative: r('narrative'), Canvas: r('canvas'), ScrollWidth: document.documentElement.scrollWidth, InnerWidth: innerWidth}; })()`)
	if layout.Rows < 20 {
		t.Errorf("%d×%d: %d rows fit in the timeline, want at least 20", w, h, layout.Rows)
	}
	n := layout.Narrative
	if n.Left < 0 || n.Top < 0 || n.Right > float64(w)+0.5 || n.Bottom > float64(h)+0.5 || n.Right-n.Left < 300 || n.Bottom-n.Top < 200 {
		t.Errorf("%d×%d: the story panel is at %+v, want it inside the window and at least 300×200", w, h, n)
	}
	if c := layout.Canvas; c.Right-c.Left < 700 || c.Right > n.Left+0.5 && c.Bottom > n.Top+0.5 {
		t.Errorf("%d×%d: the timeline is at %+v beside the story at %+v", w, h, c, n)
	}
	if layout.ScrollWidth > layout.InnerWidth {
		t.Errorf("%d×%d: the page is %dpx wide, wider than the window", w, h, layout.ScrollWidth)
	}
	checkTicks(t, b)

	// The search: by goroutine name, object key, component, several words.
	for _, q := range searchQueries(t, tl) {
		focusSearch(t, b)
		if err := chromedp.Do(b.Ctx, chromedp.KeyEvent(q)); err != nil {
			t.Fatal(err)
		}
		want := searchMatches(tl, q)
		if len(want) == 0 || len(want) == tl.LaneCount() {
			t.Fatalf("search %q matches %d of %d lanes in the recording; want a query that narrows", q, len(want), tl.LaneCount())
		}
		if got := shownLanes(t, b); !slices.Equal(got, want) {
			t.Errorf("search %q shows %d lanes, want %d:\n got %v\nwant %v", q, len(got), len(want), head(got), head(want))
		}
		if got, want := eval[string](t, b, `document.getElementById('search-count').innerText`), thousands(len(want))+" of "+thousands(tl.LaneCount())+" lanes"; got != want {
			t.Errorf("search %q: the count says %q, want %q", q, got, want)
		}
		if err := chromedp.Do(b.Ctx, chromedp.KeyEvent(kb.Escape)); err != nil {
			t.Fatal(err)
		}
		if got := len(rows(t, b)); got != len(collapsedRows(tl)) {
			t.Errorf("after Escape in the search the page shows %d rows, want the %d collapsed ones", got, len(collapsedRows(tl)))
		}
	}

	// Zoom with the wheel, and a touchpad's pinch (a wheel with Ctrl), at
	// the pointer: the time under it stays under it.
	plot := eval[box](t, b, `kubeloom.plot()`)
	for i, z := range []struct {
		at     float64 // where in the plot, 0-1
		deltaY float64
		pinch  bool
	}{{0.37, -300, false}, {0.8, -200, false}, {0.15, -60, true}, {0.5, 150, false}} {
		// Whole pixels: a mouse event's clientX is one.
		x, y := math.Round(plot.Left+z.at*(plot.Right-plot.Left)), plot.Top+120
		before, v0 := eval[float64](t, b, fmt.Sprintf("kubeloom.timeAt(%g)", x)), pageView(t, b)
		if err := chromedp.Do(b.Ctx, chromedp.MouseEvent(chromedp.MouseWheel, x, y, func(p *input.DispatchMouseEventParams) {
			p.DeltaX, p.DeltaY = 0.01, z.deltaY // Chrome wants both deltas, and the protocol types omit a zero
			if z.pinch {
				p.Modifiers = int64(chromedp.ModifierCtrl)
			}
		})); err != nil {
			t.Fatal(err)
		}
		waitFrame(t, b)
		after, v1 := eval[float64](t, b, fmt.Sprintf("kubeloom.timeAt(%g)", x)), pageView(t, b)
		if (z.deltaY < 0) != (v1.Scale > v0.Scale) || v1.Scale == v0.Scale {
			t.Errorf("wheel %d (deltaY %g): scale %g → %g", i, z.deltaY, v0.Scale, v1.Scale)
		}
		if px := math.Abs(after-before) * v1.Scale; px > 0.5 {
			t.Errorf("wheel %d at x=%.0f: the time under the pointer moved from %.0fµs to %.0fµs (%.1fpx)", i, x, before, after, px)
		}
	}
	checkTicks(t, b)

	// + and − zoom around the current step: at an early step (the issue's
	// +19ms), five clicks on + keep it in view.
	early := slices.IndexFunc(steps, func(s timeline.Step) bool { return tl.Offset(s.At) > 10*time.Millisecond })
	key(t, b, "0")
	eval[any](t, b, fmt.Sprintf("kubeloom.go(%d)", early))
	fit := pageView(t, b)
	for range 5 {
		if err := chromedp.Do(b.Ctx, chromedp.Click(chromedp.CSS("#zoom-in"))); err != nil {
			t.Fatal(err)
		}
	}
	waitFrame(t, b)
	if v, vis := pageView(t, b), stepVisible(t, b); math.Abs(v.Scale/fit.Scale-32) > 0.01 || !vis.X {
		t.Errorf("five clicks on + at step %d (+%v): scale ×%.2f, the step in view: %v", early, tl.Offset(steps[early].At), v.Scale/fit.Scale, vis.X)
	}
	key(t, b, "-")
	if vis := stepVisible(t, b); !vis.X {
		t.Errorf("− at step %d took the step out of view", early)
	}

	// z zooms to the story's step, from the whole recording.
	story := storyStep(t, tl, steps)
	key(t, b, "0")
	eval[any](t, b, fmt.Sprintf("kubeloom.go(%d)", story))
	fit = pageView(t, b)
	key(t, b, "z")
	waitFrame(t, b)
	at := float64(tl.Offset(steps[story].At).Microseconds())
	if v, vis := pageView(t, b), stepVisible(t, b); !vis.X || !vis.Y || v.T1-v.T0 >= (fit.T1-fit.T0)/10 || at < v.T0 || at > v.T1 {
		t.Errorf("z at step %d (+%v): window %.0f–%.0fµs (the whole: %.0f–%.0f), the step in view: %+v",
			story, tl.Offset(steps[story].At), v.T0, v.T1, fit.T0, fit.T1, vis)
	}
	for range 3 {
		key(t, b, "+")
	}
	if vis := stepVisible(t, b); !vis.X || !vis.Y {
		t.Errorf("+ after z at step %d: the step in view: %+v", story, vis)
	}
	key(t, b, "z")

	// Open a group with a click on its row, and the current step's with e.
	comp := steps[story].Lane.Component()
	if comp == nil || len(comp.Lanes) < 2 {
		t.Fatalf("the story's step %d is on %s, which is in no group", story, steps[story].Lane.Label)
	}
	if vis := stepVisible(t, b); vis.Row != "group" {
		t.Errorf("step %d's lane %s shows on a %q row; want it folded into its group %s", story, steps[story].Lane.Label, vis.Row, comp.Key)
	}
	other := otherGroup(tl, comp)
	pos := eval[struct{ X, Y float64 }](t, b, fmt.Sprintf("kubeloom.groupRow(%q)", other.Key))
	if err := chromedp.Do(b.Ctx, chromedp.MouseClickXY(pos.X, pos.Y)); err != nil {
		t.Fatal(err)
	}
	if open := eval[[]string](t, b, `kubeloom.openGroups()`); !slices.Equal(open, []string{other.Key}) {
		t.Errorf("a click on the row of %s opened %v", other.Key, open)
	}
	key(t, b, "e")
	if vis := stepVisible(t, b); vis.Row != "lane" || !vis.Y {
		t.Errorf("e did not show step %d's lane: %+v (open: %v)", story, vis, eval[[]string](t, b, `kubeloom.openGroups()`))
	}
	key(t, b, "e")
	if vis := stepVisible(t, b); vis.Row != "group" {
		t.Errorf("e again did not fold step %d's lane: %+v", story, vis)
	}
	key(t, b, "e")

	// The causal arrows of a step that has causes.
	if fs := flowStep(tl, steps); fs >= 0 {
		eval[any](t, b, fmt.Sprintf("kubeloom.go(%d)", fs))
		waitFrame(t, b)
		f := eval[struct{ Causes, Effects, Drawn int }](t, b, `(() => { const f = kubeloom.flows(); return {Causes: f.causes, Effects: f.effects, Drawn: kubeloom.drawnFlows}; })()`)
		if f.Causes == 0 || f.Drawn == 0 || !strings.Contains(strings.ToLower(eval[string](t, b, `kubeloom.narrative()`)), "caused by") {
			t.Errorf("step %d (%s on %s) has causes; the page knows %d, draws %d arrows, and its story does not list them", fs, steps[fs].Name(), steps[fs].Lane.Label, f.Causes, f.Drawn)
		}
	} else {
		t.Errorf("no step of %s has a cause in the recording", tl.Scenario)
	}

	// The story's moment: the screenshot for the docs, then a bookmark.
	eval[any](t, b, fmt.Sprintf("kubeloom.go(%d)", story))
	waitFrame(t, b)
	name := fmt.Sprintf("timeline-%s-%dx%d.png", tl.Scenario, w, h)
	shot := screenshot(t, b, w, h)
	if *update {
		writeImage(t, name, shot)
		if name == readmePicture {
			writePictureFacts(t, tl, steps)
		}
	}
	if name == readmePicture {
		chinesePicture(t, b, w, h)
	}

	wantHash := []string{fmt.Sprintf("step=%d", story), "t=", "open="}
	if _, err := chromedp.Run(b.Ctx, chromedp.Poll[bool](fmt.Sprintf(`%q.split(' ').every((p) => location.hash.includes(p))`, strings.Join(wantHash, " ")),
		chromedp.WithPollingInterval(10*time.Millisecond), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the URL fragment %q does not keep the view (%v): %v", eval[string](t, b, `location.hash`), wantHash, err)
	}
	before, open := pageView(t, b), eval[[]string](t, b, `kubeloom.openGroups()`)
	if err := chromedp.Do(b.Ctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitReady(t, b)
	s, after := state(t, b), pageView(t, b)
	if s.Step != story || math.Abs(after.T0-before.T0) > 1 || math.Abs(after.T1-before.T1) > 1 {
		t.Errorf("after a reload: step %d, window %.0f–%.0fµs; want step %d, %.0f–%.0fµs (#%s)", s.Step, after.T0, after.T1, story, before.T0, before.T1, eval[string](t, b, `location.hash`))
	}
	if got := eval[[]string](t, b, `kubeloom.openGroups()`); !slices.Equal(got, open) {
		t.Errorf("after a reload the open groups are %v, want %v", got, open)
	}
	if vis := stepVisible(t, b); !vis.X || !vis.Y || vis.Row != "lane" {
		t.Errorf("after a reload step %d is not in view: %+v", story, vis)
	}

	if p := b.Problems(t); len(p) > 0 {
		t.Errorf("the console has errors:\n%s", strings.Join(p, "\n"))
	}
	if n := eval[int](t, b, `performance.getEntriesByType('resource').length`); n != 0 {
		t.Errorf("the page loaded %d resources, want none", n)
	}
}

// collapsedRows are the rows of a page that opens collapsed.
func collapsedRows(tl *timeline.Timeline) []row {
	var out []row
	first := 0 // the page's index of the instance's first lane
	for _, in := range tl.Instances {
		out = append(out, row{Kind: "instance", Name: in.Name(), Lane: -1, Open: true})
		for _, c := range in.Groups() {
			if len(c.Lanes) > 1 {
				out = append(out, row{Kind: "group", Name: c.Name, Key: c.Key, Lane: -1})
				continue
			}
			l := c.Lanes[0]
			out = append(out, row{Kind: "lane", Name: l.Label, Key: in.Name(), Lane: first + slices.Index(in.Display(), l), Open: true})
		}
		first += len(in.Lanes)
	}
	return out
}

// searchQueries are the searches tried on a recording: a goroutine name,
// an object key (the leader lock, or a pod), a component, and two words.
func searchQueries(t *testing.T, tl *timeline.Timeline) []string {
	qs := []string{"leader-renew", "controller/replicaset"}
	switch tl.Scenario {
	case "cm-leader-failover":
		qs = append(qs, "kube-system/kube-controller-manager", "cm-2 node")
	default:
		var pod string
		for _, in := range tl.Instances {
			for _, l := range in.Lanes {
				if !strings.HasPrefix(l.Goroutine, "kubelet/pod-worker") || pod != "" {
					continue
				}
				pod = l.Attributes.String(catalog.AttrObjectKey)
				for _, m := range append(l.Iterations, l.Calls...) {
					if pod == "" {
						pod = m.Attributes.String(catalog.AttrObjectKey)
					}
				}
			}
		}
		if pod == "" {
			t.Fatal("cluster-basics has no pod worker with an object key")
		}
		qs = append(qs, pod, "node-1 pleg")
	}
	return qs
}

// searchMatches is the page's search, in Go: the lanes ("instance|label")
// for which every word of q is in their label, goroutine, short label,
// instance, groups' names and keys, or an object key of their spans.
func searchMatches(tl *timeline.Timeline, q string) []string {
	terms := strings.Fields(strings.ToLower(q))
	var out []string
	for _, in := range tl.Instances {
		for _, l := range in.Lanes {
			parts := []string{l.Label, l.Goroutine, l.Short, in.Name()}
			for g := l.Group; g != nil; g = g.Parent {
				parts = append(parts, g.Name, g.Key)
			}
			add := func(a map[string]any) {
				if k, ok := a[catalog.AttrObjectKey].(string); ok {
					parts = append(parts, k)
				}
			}
			add(l.Attributes)
			for _, ms := range [][]timeline.Mark{l.Iterations, l.Calls, l.Events} {
				for _, m := range ms {
					add(m.Attributes)
				}
			}
			hay := strings.ToLower(strings.Join(parts, "\n"))
			if !slices.ContainsFunc(terms, func(t string) bool { return !strings.Contains(hay, t) }) {
				out = append(out, in.Name()+"|"+l.Label)
			}
		}
	}
	slices.Sort(out)
	return out
}

// thousands writes n as the page does: 1,586.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// storyStep is the moment of the scenario the pictures show: in
// cm-leader-failover the standby that becomes the leader after the kill,
// in cluster-basics the node controller finding node-2's status unknown.
func storyStep(t *testing.T, tl *timeline.Timeline, steps []timeline.Step) int {
	t.Helper()
	lane, event, after := "cm/leader-acquire", "became leader", time.Minute
	if tl.Scenario == "cluster-basics" {
		lane, event, after = "controller/node/monitor", "node status unknown", 2*time.Minute
	}
	for i, s := range steps {
		if s.Kind == timeline.StepEvent && s.Lane.Goroutine == lane && s.Name() == event && tl.Offset(s.At) > after {
			return i
		}
	}
	t.Fatalf("%s has no %q event on %s after %v", tl.Scenario, event, lane, after)
	return -1
}

// otherGroup is a component of the story's instance other than comp,
// with lanes to open.
func otherGroup(tl *timeline.Timeline, comp *timeline.Group) *timeline.Group {
	for _, g := range comp.Instance.Groups() {
		if g != comp && len(g.Lanes) > 1 {
			return g
		}
	}
	return nil
}

// flowStep is the first step after a second whose mark has a cause in the
// recording, or -1.
func flowStep(tl *timeline.Timeline, steps []timeline.Step) int {
	ids := map[trace.SpanID]bool{}
	for _, in := range tl.Instances {
		for _, l := range in.Lanes {
			for _, m := range l.Iterations {
				ids[m.SpanID] = true
			}
			for _, m := range l.Calls {
				ids[m.SpanID] = true
			}
		}
	}
	for i, s := range steps {
		if s.Mark == nil || (s.Kind != timeline.StepCall && s.Kind != timeline.StepIteration) || tl.Offset(s.At) < time.Second {
			continue
		}
		if slices.ContainsFunc(s.Mark.Causes, func(c trace.SpanID) bool { return ids[c] }) {
			return i
		}
	}
	return -1
}

// roundTicks are the axis steps the page may use, in µs.
var roundTicks = func() map[float64]bool {
	m := map[float64]bool{}
	for p := 1.0; p < 1e6; p *= 10 {
		m[p], m[2*p], m[5*p] = true, true, true
	}
	for _, s := range []float64{1, 5, 10, 15, 30, 60, 300, 600, 900, 1800, 3600} {
		m[s*1e6] = true
	}
	return m
}()

// checkTicks checks the axis of the last frame: a round step, every tick
// a multiple of it, labelled as a clock reads.
func checkTicks(t *testing.T, b *browsertest.Browser) {
	t.Helper()
	ax := eval[struct {
		Step  float64
		Ticks []struct {
			T     float64
			Label string
		}
	}](t, b, `kubeloom.ticks()`)
	if !roundTicks[ax.Step] || len(ax.Ticks) < 3 {
		t.Errorf("axis: %d ticks %gµs apart, want 3 or more at a round step", len(ax.Ticks), ax.Step)
	}
	for _, tk := range ax.Ticks {
		if r := math.Mod(tk.T, ax.Step); r > 1e-6 && ax.Step-r > 1e-6 {
			t.Errorf("axis: a tick at %gµs, not a multiple of its step %gµs", tk.T, ax.Step)
		}
		if ax.Step >= 1e6 && tk.Label != roundLabel(tk.T) {
			t.Errorf("axis: the tick at %gµs reads %q, want %q", tk.T, tk.Label, roundLabel(tk.T))
		}
	}
}

// roundLabel is how the axis labels a whole number of seconds: 0, 30s,
// 1m, 1m30s, 1h5m.
func roundLabel(us float64) string {
	if us == 0 {
		return "0"
	}
	s := int64(math.Round(us / 1e6))
	var out string
	for _, u := range []struct {
		n    int64
		unit string
	}{{s / 3600, "h"}, {s % 3600 / 60, "m"}, {s % 60, "s"}} {
		if u.n > 0 {
			out += fmt.Sprint(u.n, u.unit)
		}
	}
	return out
}

// writePictureFacts writes what the README's picture shows beside it.
func writePictureFacts(t *testing.T, tl *timeline.Timeline, steps []timeline.Step) {
	t.Helper()
	groups := 0
	for _, in := range tl.Instances {
		groups += len(in.Groups())
	}
	facts, _ := json.MarshalIndent(pictureFacts{Scenario: tl.Scenario, Picture: readmePicture, Spans: tl.Spans, Lanes: tl.LaneCount(),
		Components: groups, Steps: len(steps), DurationS: int(tl.Duration().Round(time.Second).Seconds())}, "", "  ")
	if err := os.WriteFile(filepath.Join(imagesDir, "timeline.json"), append(facts, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote what the README's picture shows: %s", facts)
}

// chinesePicture takes the README's picture again in Chinese, the same
// moment with every word of the page in the language a Chinese reader picks
// with its 中文 button (README.zh.md and docs/zh/export.md show it), and
// switches the page back.
func chinesePicture(t *testing.T, b *browsertest.Browser, w, h int) {
	t.Helper()
	eval[any](t, b, `kubeloom.setLang("zh")`)
	waitFrame(t, b)
	if got := eval[string](t, b, `kubeloom.narrative()`); !strings.Contains(got, "它做什么") {
		t.Errorf("in Chinese the story does not say 它做什么:\n%s", got)
	}
	if shot := screenshot(t, b, w, h); *update {
		writeImage(t, strings.TrimSuffix(readmePicture, ".png")+".zh.png", shot)
	}
	eval[any](t, b, `kubeloom.setLang("en")`)
	waitFrame(t, b)
}

// head is the start of a long list, for messages.
func head[T any](s []T) []T { return s[:min(len(s), 12)] }

func focusSearch(t *testing.T, b *browsertest.Browser) {
	t.Helper()
	// The keyboard's way: / from the timeline.
	eval[any](t, b, `document.getElementById('canvas').focus()`)
	key(t, b, "/")
	if f := eval[string](t, b, `document.activeElement.id`); f != "search" {
		t.Fatalf("/ focused %q, want the search box", f)
	}
	if v := eval[string](t, b, `document.getElementById('search').value`); v != "" {
		t.Fatalf("the search box holds %q after /", v)
	}
}
