package htmlview

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"image/color"
	"image/png"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/kubeloom/kubeloom/internal/browsertest"
	"github.com/kubeloom/kubeloom/sim/catalog/locale"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

var update = flag.Bool("update", false, "rewrite the docs' screenshots of the page in docs/images, and timeline.json with what the README's shows (make docs-picture)")

// pictureFacts are what the README's picture shows, written beside it
// (docs/images/timeline.json) with -update, so that the docs' test can
// tell when a run no longer looks like it (docs/figures_picture_test.go).
type pictureFacts struct {
	Scenario, Picture                          string
	Spans, Lanes, Components, Steps, DurationS int
}

// writePage writes tl's page into a temporary directory and returns its
// file: URL.
func writePage(tb testing.TB, tl *timeline.Timeline) (string, int64) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "timeline.html")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := Write(f, tl); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	return (&url.URL{Scheme: "file", Path: path}).String(), fi.Size()
}

// load opens the page and waits for its first frame.
func load(tb testing.TB, b *browsertest.Browser, pageURL string) {
	tb.Helper()
	if err := chromedp.Do(b.Ctx, chromedp.Navigate(pageURL)); err != nil {
		tb.Fatalf("loading %s: %v", pageURL, err)
	}
	waitReady(tb, b)
}

// waitReady waits for the page's first frame. chromedp can poll in the
// execution context of the document the navigation replaced, which
// Chromium then reports as gone; the poll starts again in the new one.
func waitReady(tb testing.TB, b *browsertest.Browser) {
	tb.Helper()
	for attempt := 1; ; attempt++ {
		_, err := chromedp.Run(b.Ctx, chromedp.Poll[bool](`window.kubeloom && window.kubeloom.ready === true`,
			chromedp.WithPollingInterval(5*time.Millisecond), chromedp.WithPollingTimeout(30*time.Second)))
		if err == nil {
			return
		}
		if attempt < 3 && strings.Contains(err.Error(), "Cannot find context with specified id") {
			continue
		}
		tb.Fatalf("the page did not draw its first frame: %v (console: %v)", err, b.Problems(tb))
	}
}

func eval[T any](tb testing.TB, b *browsertest.Browser, expr string, opts ...chromedp.EvaluateOption) T {
	tb.Helper()
	v, err := chromedp.Run(b.Ctx, chromedp.Evaluate[T](expr, opts...))
	if err != nil {
		tb.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

func key(tb testing.TB, b *browsertest.Browser, k string) {
	tb.Helper()
	if err := chromedp.Do(b.Ctx, chromedp.KeyEvent(k)); err != nil {
		tb.Fatalf("pressing %q: %v", k, err)
	}
}

type pageState struct {
	Lanes, DrawnLanes, Instances, Steps, Step int
	Lang, Narrative, Details                  string
	View                                      struct{ T0, Scale, ScrollY float64 }
}

func state(tb testing.TB, b *browsertest.Browser) pageState {
	tb.Helper()
	return eval[pageState](tb, b, `(() => { const k = window.kubeloom; const v = k.view(); return {
		Lanes: k.lanes, DrawnLanes: k.drawnLanes, Instances: k.instances, Steps: k.steps, Step: k.step,
		Lang: k.lang, Narrative: k.narrative(), Details: k.details(), View: {T0: v.t0, Scale: v.scale, ScrollY: v.scrollY} }; })()`)
}

// placeholder finds the names of a message's arguments.
var placeholder = regexp.MustCompile(`\{\s*([A-Za-z0-9_]+)`)

// checkMessages: the page's script formats every word of every language as
// locale does in Go, whatever the numbers (plural forms included).
func checkMessages(t *testing.T, b *browsertest.Browser) {
	type msgCase struct {
		Lang, Key string
		Args      map[string]any
	}
	var cases []msgCase
	var want []string
	for _, code := range locale.Codes() {
		l := locale.Get(code)
		for key, text := range l.Messages("page") {
			for _, n := range []int{0, 1, 2, 5, 21} {
				args := map[string]any{}
				for _, m := range placeholder.FindAllStringSubmatch(text, -1) {
					args[m[1]] = n
				}
				cases = append(cases, msgCase{code, key, args})
				want = append(want, l.Format("page."+key, args))
			}
		}
	}
	js, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	got := eval[[]string](t, b, fmt.Sprintf("%s.map((c) => kubeloom.msg(c.Key, c.Args, c.Lang))", js))
	if len(got) != len(want) {
		t.Fatalf("the page formatted %d messages of %d", len(got), len(want))
	}
	for i, c := range cases {
		if got[i] != want[i] || strings.Contains(got[i], "[page.") {
			t.Errorf("%s page.%s with %v: the page writes %q, Go %q", c.Lang, c.Key, c.Args, got[i], want[i])
		}
	}
}

// TestBrowser loads the page of a real recording (the informer lesson, a
// recording small enough to open with its groups open) in Chromium and
// uses it as a reader would: every lane drawn, the arrow keys walking the
// steps with their narrative, the article's words with their English
// rendering, the language toggle, zoom, pan and hover; the console must
// stay clean and the page must load nothing.
func TestBrowser(t *testing.T) {
	b := browsertest.Start(t, browsertest.Options{Width: 1400, Height: 900})
	tl := recordBuiltin(t, "informer-basics")
	steps := timeline.Steps(tl)
	if tl.LaneCount() < 5 || len(steps) < 10 {
		t.Fatalf("the recording has %d lanes and %d steps; want a real lesson", tl.LaneCount(), len(steps))
	}
	pageURL, _ := writePage(t, tl)
	load(t, b, pageURL)

	s := state(t, b)
	if s.Lanes != tl.LaneCount() || s.DrawnLanes != tl.LaneCount() || s.Instances != len(tl.Instances) {
		t.Errorf("page lays out %d lanes of %d instances and draws %d; the timeline has %d lanes of %d instances (all fit in 900px)",
			s.Lanes, s.Instances, s.DrawnLanes, tl.LaneCount(), len(tl.Instances))
	}
	if s.Steps != len(steps) || s.Step != -1 {
		t.Errorf("page has %d steps and starts at %d, want %d and -1", s.Steps, s.Step, len(steps))
	}

	checkMessages(t, b)

	// → walks the steps; the narrative follows.
	before := s.Narrative
	for want := 0; want < 3; want++ {
		key(t, b, kb.ArrowRight)
		s = state(t, b)
		if s.Step != want {
			t.Fatalf("after → the step is %d, want %d", s.Step, want)
		}
		if s.Narrative == before || s.Narrative == "" {
			t.Fatalf("after → to step %d the narrative did not change: %q", want, s.Narrative)
		}
		if !strings.Contains(s.Narrative, steps[want].Name()) {
			t.Errorf("the narrative of step %d does not name %q: %q", want, steps[want].Name(), s.Narrative)
		}
		before = s.Narrative
	}
	key(t, b, kb.ArrowLeft)
	if s = state(t, b); s.Step != 1 {
		t.Errorf("after ← the step is %d, want 1", s.Step)
	}

	// A step on a goroutine the catalog knows tells its story, in English
	// and, after the toggle, in Chinese.
	// The first after the scenario's first action (5s, web-3 is created)
	// whose quote has Chinese to render.
	known := -1
	for i, st := range steps {
		if st.HasEntry && st.Entry.Story("en").Rendering != "" && st.Kind == timeline.StepCall && tl.Offset(st.At) >= 5*time.Second {
			known = i
			break
		}
	}
	if known < 0 {
		t.Fatal("no step of the recording has a catalog entry with the article's words")
	}
	eval[any](t, b, fmt.Sprintf("kubeloom.go(%d)", known))
	en := state(t, b)
	entry := steps[known].Entry
	enStory, zhStory := entry.Story("en"), entry.Story("zh")
	for _, want := range []string{enStory.Summary, enStory.Quote, enStory.Rendering, entry.Function, entry.File} {
		if !strings.Contains(en.Narrative, want) {
			t.Errorf("the narrative of step %d (%s) lacks %q:\n%s", known, steps[known].Lane.Label, want, en.Narrative)
		}
	}
	// The original first, then kubeloom's rendering, marked as such.
	if i, j := strings.Index(en.Narrative, enStory.Quote), strings.Index(en.Narrative, enStory.Rendering); i < 0 || i > j || !strings.Contains(en.Narrative[i:j], "rendering") {
		t.Errorf("the narrative of step %d does not show the article's words and then, marked, their English rendering:\n%s", known, en.Narrative)
	}
	// The language button goes through the languages in turn, to Chinese
	// among them.
	for range locale.Codes() {
		if err := chromedp.Do(b.Ctx, chromedp.Click(chromedp.CSS("#lang"))); err != nil {
			t.Fatal(err)
		}
		if state(t, b).Lang == "zh" {
			break
		}
	}
	zh := state(t, b)
	if zh.Lang != "zh" || !strings.Contains(zh.Narrative, zhStory.Summary) || !strings.Contains(zh.Narrative, zhStory.Now) || strings.Contains(zh.Narrative, enStory.Summary) ||
		!strings.Contains(zh.Narrative, zhStory.Quote) || strings.Contains(zh.Narrative, enStory.Rendering) {
		t.Errorf("after the language toggle (lang %q) the narrative is not the Chinese one:\n%s", zh.Lang, zh.Narrative)
	}
	// The button goes through every language and back to English.
	for state(t, b).Lang != locale.Codes()[len(locale.Codes())-1] {
		if err := chromedp.Do(b.Ctx, chromedp.Click(chromedp.CSS("#lang"))); err != nil {
			t.Fatal(err)
		}
	}
	if err := chromedp.Do(b.Ctx, chromedp.Click(chromedp.CSS("#lang"))); err != nil {
		t.Fatal(err)
	}
	if l := state(t, b).Lang; l != "en" {
		t.Errorf("the language button after the last language leads to %q, not English", l)
	}

	// Hover over the step's mark: its details.
	pos := eval[struct{ X, Y float64 }](t, b, fmt.Sprintf("kubeloom.locate(%d)", known))
	if err := chromedp.Do(b.Ctx, chromedp.MouseEvent(chromedp.MouseMoved, pos.X, pos.Y)); err != nil {
		t.Fatal(err)
	}
	s = state(t, b)
	if !strings.Contains(s.Details, steps[known].Name()) || !strings.Contains(s.Details, "+") {
		t.Errorf("hovering over %s at (%.0f, %.0f) shows:\n%s", steps[known].Name(), pos.X, pos.Y, s.Details)
	}
	// A screenshot shows a drawing.
	vp := eval[struct{ W, H int }](t, b, `({W: window.innerWidth, H: window.innerHeight})`)
	screenshot(t, b, vp.W, vp.H)

	// Zoom with the button and the wheel, pan by dragging.
	v0 := s.View
	if err := chromedp.Do(b.Ctx, chromedp.Click(chromedp.CSS("#zoom-in"))); err != nil {
		t.Fatal(err)
	}
	waitFrame(t, b)
	s = state(t, b)
	if r := s.View.Scale / v0.Scale; r < 1.99 || r > 2.01 {
		t.Errorf("zoom in: scale %g → %g, want ×2", v0.Scale, s.View.Scale)
	}
	v1 := s.View
	if err := chromedp.Do(b.Ctx, chromedp.MouseEvent(chromedp.MouseWheel, 900, 300, func(p *input.DispatchMouseEventParams) {
		// Chrome wants both deltas, and the protocol types omit a zero.
		p.DeltaX, p.DeltaY = 0.01, 200
	})); err != nil {
		t.Fatal(err)
	}
	waitFrame(t, b)
	if s = state(t, b); s.View.Scale >= v1.Scale {
		t.Errorf("wheel down: scale %g → %g, want smaller", v1.Scale, s.View.Scale)
	}
	v2 := s.View
	if err := chromedp.Do(b.Ctx, chromedp.DragAndDropXY(900, 300, 700, 300, 5)); err != nil {
		t.Fatal(err)
	}
	waitFrame(t, b)
	if s = state(t, b); s.View.T0 <= v2.T0 {
		t.Errorf("drag left: start of the view %gµs → %gµs, want later", v2.T0, s.View.T0)
	}

	if p := b.Problems(t); len(p) > 0 {
		t.Errorf("the console has errors:\n%s", strings.Join(p, "\n"))
	}
	if n := eval[int](t, b, `performance.getEntriesByType('resource').length`); n != 0 {
		t.Errorf("the page loaded %d resources, want none", n)
	}
}

// screenshot is the page as the browser shows it now, checked.
func screenshot(t *testing.T, b *browsertest.Browser, w, h int) []byte {
	t.Helper()
	shot, err := chromedp.Run(b.Ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	checkScreenshot(t, shot, w, h)
	return shot
}

// writeImage writes a screenshot into docs/images.
func writeImage(t *testing.T, name string, shot []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(imagesDir, name), shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d bytes)", name, len(shot))
}

// checkScreenshot fails unless shot is a w×h PNG that shows a drawing: a
// blank or half-drawn page has only a few colours.
func checkScreenshot(t *testing.T, shot []byte, w, h int) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		t.Errorf("the screenshot is %dx%d, want the viewport, %dx%d", b.Dx(), b.Dy(), w, h)
	}
	colours := map[color.Color]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			colours[img.At(x, y)] = true
		}
	}
	t.Logf("screenshot: %d colours", len(colours))
	if len(colours) < 16 {
		t.Errorf("the screenshot has %d colours; the page did not draw its lanes", len(colours))
	}
}

// waitFrame waits until the page has drawn the frames it asked for.
func waitFrame(tb testing.TB, b *browsertest.Browser) {
	tb.Helper()
	eval[any](tb, b, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, chromedp.EvalAwaitPromise)
}

// BenchmarkFirstPaint100k loads the page of a 100,000-span recording in
// Chromium. It reports first-paint-ms, the time from the start of the
// navigation to the end of the page's first frame (the page's own
// performance.now(): reading the file, parsing the data, laying out the
// lanes, drawing), whose goal is 2,000 ms or less; frame-ms, a redraw of
// the whole recording zoomed out; and the page's size. ns/op is the whole
// load as the test sees it.
func BenchmarkFirstPaint100k(b *testing.B) {
	br := browsertest.Start(b, browsertest.Options{Width: 1400, Height: 900})
	spans := synthetic(100_000)
	tl := timeline.Build(spans)
	pageURL, size := writePage(b, tl)
	var paint float64
	n := 0
	for b.Loop() {
		if err := chromedp.Do(br.Ctx, chromedp.Navigate("about:blank")); err != nil {
			b.Fatal(err)
		}
		load(b, br, pageURL)
		paint += eval[float64](b, br, `kubeloom.firstPaintMs`)
		n++
	}
	if got := eval[int](b, br, `kubeloom.lanes`); got != tl.LaneCount() {
		b.Fatalf("the page lays out %d lanes, want %d", got, tl.LaneCount())
	}
	frame := eval[float64](b, br, `kubeloom.fit(), kubeloom.redraw()`)
	if p := br.Problems(b); len(p) > 0 {
		b.Fatalf("the console has errors:\n%s", strings.Join(p, "\n"))
	}
	b.ReportMetric(paint/float64(n), "first-paint-ms")
	b.ReportMetric(frame, "frame-ms")
	b.ReportMetric(float64(size)/1e6, "page-MB")
}

// zoomPanFrames is a script that, from the whole recording, zooms in at a
// point of the timeline with the wheel 24 times (×1.27 each, to about
// 300×) and then pans with the wheel 24 times, drawing a frame after each
// step; it returns the mean and the worst frame in ms. Wheel events go
// through the page's own handlers, so a frame costs what a reader's does.
const zoomPanFrames = `(() => {
	const k = window.kubeloom, c = document.getElementById('canvas'), r = c.getBoundingClientRect();
	const x = r.left + r.width * 0.6, y = r.top + r.height / 2;
	k.fit(); k.redraw();
	const times = [];
	const wheel = (dx, dy) => {
		c.dispatchEvent(new WheelEvent('wheel', {deltaX: dx, deltaY: dy, clientX: x, clientY: y, bubbles: true, cancelable: true}));
		times.push(k.redraw());
	};
	for (let i = 0; i < 24; i++) wheel(0, -160);
	for (let i = 0; i < 24; i++) wheel(120, 0);
	return {Mean: times.reduce((a, b) => a + b, 0) / times.length, Max: Math.max(...times)};
})()`

// BenchmarkZoomPanFrame100k measures the frames of zooming and panning a
// 100,000-span recording in Chromium (zoomPanFrames): zoom-frame-ms is the
// mean frame, worst-frame-ms the slowest; a frame of 16 ms or less keeps
// up with a 60 Hz display. The recording has 400 lanes, so the page opens
// with its groups collapsed, each drawn as the density of its lanes
// ("collapsed"); "expanded" opens every group first, and draws the lanes
// themselves.
func BenchmarkZoomPanFrame100k(b *testing.B) {
	br := browsertest.Start(b, browsertest.Options{Width: 1400, Height: 900})
	pageURL, _ := writePage(b, timeline.Build(synthetic(100_000)))
	for _, bc := range []struct{ name, setup string }{
		{"collapsed", ""},
		{"expanded", "kubeloom.expandAll(true)"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			if err := chromedp.Do(br.Ctx, chromedp.Navigate("about:blank")); err != nil {
				b.Fatal(err)
			}
			load(b, br, pageURL)
			if bc.setup != "" {
				eval[any](b, br, bc.setup)
			}
			var mean, worst float64
			n := 0
			for b.Loop() {
				f := eval[struct{ Mean, Max float64 }](b, br, zoomPanFrames)
				mean += f.Mean
				worst = max(worst, f.Max)
				n++
			}
			if p := br.Problems(b); len(p) > 0 {
				b.Fatalf("the console has errors:\n%s", strings.Join(p, "\n"))
			}
			b.ReportMetric(mean/float64(n), "zoom-frame-ms")
			b.ReportMetric(worst, "worst-frame-ms")
		})
	}
}

// BenchmarkWrite100k is the Go side: encoding a 100,000-span timeline
// into its page.
func BenchmarkWrite100k(b *testing.B) {
	tl := timeline.Build(synthetic(100_000))
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := Write(&buf, tl); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len())/float64(tl.Spans), "page-B/span")
}

// TestBrowserEdgeCases loads pages the lessons do not make: an empty
// recording, and small() with an open lane, a goroutine the catalog does
// not know, values JSON cannot hold and markup in attributes. Every step
// is visited and hovered, in both languages, without a console error.
func TestBrowserEdgeCases(t *testing.T) {
	b := browsertest.Start(t, browsertest.Options{Width: 1200, Height: 800})

	emptyURL, _ := writePage(t, timeline.Build(nil))
	load(t, b, emptyURL)
	if s := state(t, b); s.Lanes != 0 || s.Steps != 0 || s.Narrative == "" {
		t.Errorf("empty recording: %d lanes, %d steps, narrative %q", s.Lanes, s.Steps, s.Narrative)
	}
	key(t, b, kb.ArrowRight)
	if s := state(t, b); s.Step != -1 {
		t.Errorf("empty recording: → moved to step %d", s.Step)
	}

	tl := timeline.Build(small())
	steps := timeline.Steps(tl)
	pageURL, _ := writePage(t, tl)
	load(t, b, pageURL)
	if s := state(t, b); s.Lanes != tl.LaneCount() || s.DrawnLanes != tl.LaneCount() || s.Steps != len(steps) {
		t.Fatalf("small: %d lanes (%d drawn), %d steps; want %d and %d", s.Lanes, s.DrawnLanes, s.Steps, tl.LaneCount(), len(steps))
	}
	// Zoomed in, so that the marks of one iteration (0.5s) lie apart.
	eval[any](t, b, "kubeloom.zoom(64)")
	for _, lang := range locale.Codes() {
		eval[any](t, b, fmt.Sprintf("kubeloom.setLang(%q)", lang))
		for i, st := range steps {
			pos := eval[struct{ X, Y float64 }](t, b, fmt.Sprintf("kubeloom.locate(%d)", i))
			if err := chromedp.Do(b.Ctx, chromedp.MouseEvent(chromedp.MouseMoved, pos.X, pos.Y)); err != nil {
				t.Fatal(err)
			}
			eval[any](t, b, fmt.Sprintf("kubeloom.go(%d)", i))
			s := state(t, b)
			if s.Step != i || !strings.Contains(s.Narrative, st.Name()) {
				t.Errorf("%s step %d (%s %s): page at step %d, narrative %q", lang, i, st.Kind, st.Name(), s.Step, s.Narrative)
			}
			if st.Mark != nil && !strings.Contains(s.Details, st.Name()) {
				t.Errorf("%s step %d: hovering over %s at (%.0f, %.0f) shows %q", lang, i, st.Name(), pos.X, pos.Y, s.Details)
			}
			if lang == "en" && st.Lane.Goroutine == "kubelet/not-in-the-catalog" && !strings.Contains(s.Narrative, "no entry") {
				t.Errorf("step %d on a goroutine the catalog does not know: %q", i, s.Narrative)
			}
			switch {
			case st.HasStartup:
				// A startup step tells its own story.
				want := st.Startup.Story(lang).Summary
				if !strings.Contains(s.Narrative, want) {
					t.Errorf("%s step %d, the startup step %s: the narrative lacks its story: %q", lang, i, st.Name(), s.Narrative)
				}
			case lang == "en" && st.Lane.Goroutine == timeline.MainLane && !strings.Contains(s.Narrative, "Not a goroutine"):
				t.Errorf("step %d on a main lane: %q", i, s.Narrative)
			}
		}
	}
	if p := b.Problems(t); len(p) > 0 {
		t.Errorf("the console has errors:\n%s", strings.Join(p, "\n"))
	}
}
