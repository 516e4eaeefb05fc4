package htmlview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/kubeloom/kubeloom/internal/browsertest"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/htmlview/internal/bundle"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// attrRunning marks a span of a live run still going on, cut at the run's
// current instant (serve's snapshots).
const attrRunning = "kubeloom.running"

// cut is the recording as a live run's snapshot would have it at the
// instant at: the spans that started by then, those still going on cut
// there and marked running, with the events they had.
func cut(spans []traces.Span, at time.Time) []traces.Span {
	var out []traces.Span
	for _, s := range spans {
		if s.Start.After(at) {
			continue
		}
		if s.End.After(at) {
			s.End = at
			s.Attributes = maps.Clone(s.Attributes)
			if s.Attributes == nil {
				s.Attributes = traces.Attributes{}
			}
			s.Attributes[attrRunning] = true
			s.Events = slices.DeleteFunc(slices.Clone(s.Events), func(e traces.Event) bool { return e.Time.After(at) })
		}
		out = append(out, s)
	}
	return out
}

// instantAt is the instant a fraction f into the recording.
func instantAt(spans []traces.Span, f float64) time.Time {
	tl := timeline.Build(spans)
	return tl.Start.Add(time.Duration(f * float64(tl.Duration())))
}

// liveSnapshots cuts the recording at each fraction of its length and
// returns the snapshots' data (as WriteData writes it) and durations (µs).
func liveSnapshots(t testing.TB, spans []traces.Span, fractions []float64) ([]string, []int64) {
	t.Helper()
	var snaps []string
	var durations []int64
	for _, f := range fractions {
		tl := timeline.Build(cut(spans, instantAt(spans, f)))
		var b bytes.Buffer
		if err := WriteData(&b, tl); err != nil {
			t.Fatal(err)
		}
		snaps = append(snaps, b.String())
		durations = append(durations, encode(tl).Duration)
	}
	return snaps, durations
}

// writeLivePage writes a page whose data is snapshot and whose script makes
// the timeline as kubeloom serve's page does, {live: true}
// (testdata/live/entry-live.js, bundled from the same modules).
func writeLivePage(t testing.TB, snapshot string) string {
	t.Helper()
	js, err := bundle.Entry(filepath.Join("testdata", "live", "entry-live.js"))
	if err != nil {
		t.Fatalf("bundling the live page's entry: %v", err)
	}
	var out bytes.Buffer
	out.WriteString(page[0] + "live — kubeloom" + page[1] + timelineCSS + page[2])
	out.WriteString(snapshot)
	out.WriteString("\n")
	out.WriteString(page[3])
	out.Write(js)
	out.WriteString(page[4])
	path := filepath.Join(t.TempDir(), "live.html")
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return (&url.URL{Scheme: "file", Path: path}).String()
}

type liveState struct {
	Ready, Following, FollowShown, FollowPressed bool
	Lanes, Steps, Step, Updates                  int
	T0, T1, Scale                                float64
	Fitted                                       bool
	Lang, Search                                 string
	OpenGroups                                   []string
}

func readLive(t testing.TB, b *browsertest.Browser) liveState {
	t.Helper()
	return eval[liveState](t, b, `(() => { const k = window.kubeloom, v = k.view(), f = document.getElementById('follow'); return {
		Ready: k.ready, Following: k.following, FollowShown: !f.hidden && f.offsetWidth > 0, FollowPressed: f.getAttribute('aria-pressed') === 'true',
		Lanes: k.lanes, Steps: k.steps, Step: k.step, Updates: k.updates, T0: v.t0, T1: v.t1, Scale: v.scale, Fitted: v.fitted,
		Lang: k.lang, Search: document.getElementById('search').value, OpenGroups: k.openGroups() }; })()`)
}

// atNewest: the window's right edge is the newest time (with the view's
// 12-pixel margin) and the step the newest step.
func atNewest(t *testing.T, when string, s liveState, duration int64) {
	t.Helper()
	if edge := s.T1 - 12/s.Scale; math.Abs(edge-float64(duration)) > 1 {
		t.Errorf("%s: the window's right edge is at %.0fµs, want the newest time, %dµs", when, edge, duration)
	}
	if s.Step != s.Steps-1 {
		t.Errorf("%s: the step is %d of %d, want the newest", when, s.Step, s.Steps)
	}
}

func feed(t testing.TB, b *browsertest.Browser, snap string) {
	t.Helper()
	js, err := json.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	eval[any](t, b, fmt.Sprintf("kubeloom.update(%s), kubeloom.redraw(), true", js))
}

// TestBrowserLive feeds a page snapshots of a growing run (cluster-basics
// cut at increasing instants) as kubeloom serve does: the lanes and steps
// grow; the open groups, the search, the language and the picked step
// stay; following keeps the newest time and step in view until the user
// zooms or pans, and the follow button or l resumes it; another run resets
// the view; a span still going on says so; a timeline made in its place
// leaves no listener behind; the console stays clean.
func TestBrowserLive(t *testing.T) {
	b := browsertest.Start(t, browsertest.Options{Width: 1280, Height: 720})
	spans := recordSpans(t, "cluster-basics")
	snaps, durations := liveSnapshots(t, spans, []float64{0.02, 0.5, 0.75, 1})
	if err := chromedp.Do(b.Ctx, chromedp.Navigate(writeLivePage(t, snaps[0]))); err != nil {
		t.Fatal(err)
	}
	waitReady(t, b)

	s := readLive(t, b)
	if !s.Following || !s.FollowShown || !s.FollowPressed {
		t.Errorf("a live page opens following, its follow button shown and pressed: %+v", s)
	}
	atNewest(t, "the first snapshot", s, durations[0])

	// The reader opens a group, searches and reads in Chinese; none of it
	// stops following.
	group := eval[string](t, b, `kubeloom.rowsInfo().find((r) => r.kind === 'group' && !r.open).key`)
	eval[any](t, b, fmt.Sprintf(`kubeloom.expand(%q), kubeloom.search('kubelet'), kubeloom.setLang('zh'), true`, group))
	before := readLive(t, b)
	feed(t, b, snaps[1])
	s = readLive(t, b)
	if s.Lanes <= before.Lanes || s.Steps <= before.Steps || s.Updates != 1 {
		t.Errorf("after a newer snapshot: %d lanes and %d steps (before %d and %d), %d updates; want more of both, 1 update",
			s.Lanes, s.Steps, before.Lanes, before.Steps, s.Updates)
	}
	if !slices.Contains(s.OpenGroups, group) || s.Search != "kubelet" || s.Lang != "zh" || !s.Following {
		t.Errorf("after a newer snapshot the group %s is open: %v, the search %q, the language %s, following %v; want them kept",
			group, s.OpenGroups, s.Search, s.Lang, s.Following)
	}
	atNewest(t, "a newer snapshot, following", s, durations[1])

	// Zooming stops following; l resumes it at the zoom chosen.
	key(t, b, "+")
	if s = readLive(t, b); s.Following || s.FollowPressed {
		t.Errorf("after + the page still follows: %+v", s)
	}
	key(t, b, "l")
	s = readLive(t, b)
	if !s.Following || s.Fitted {
		t.Errorf("after l the page does not follow, zoomed in: %+v", s)
	}
	atNewest(t, "after l", s, durations[1])

	// Panning (a sideways wheel) stops following; a newer snapshot then
	// keeps the window and the picked step where they were.
	if err := chromedp.Do(b.Ctx, chromedp.MouseEvent(chromedp.MouseWheel, 600, 400, func(p *input.DispatchMouseEventParams) {
		p.DeltaX, p.DeltaY = -300, 0.01 // Chrome wants both deltas, and the protocol types omit a zero
	})); err != nil {
		t.Fatal(err)
	}
	panned := readLive(t, b)
	if panned.Following || panned.FollowPressed || panned.T0 >= s.T0 {
		t.Errorf("after panning left the page follows %v from %.0fµs (was %.0fµs)", panned.Following, panned.T0, s.T0)
	}
	// A step from the middle of the run: picking one stops following too.
	eval[any](t, b, `kubeloom.go(Math.floor(kubeloom.steps / 2))`)
	picked := eval[map[string]any](t, b, `kubeloom.stepInfo(kubeloom.step)`)
	panned = readLive(t, b) // the step came into view
	feed(t, b, snaps[2])
	s = readLive(t, b)
	if s.T0 != panned.T0 || s.Scale != panned.Scale || s.Following {
		t.Errorf("a newer snapshot moved a view that does not follow: t0 %.0f scale %g following %v, was %.0f %g",
			s.T0, s.Scale, s.Following, panned.T0, panned.Scale)
	}
	again := eval[map[string]any](t, b, `kubeloom.stepInfo(kubeloom.step)`)
	delete(picked, "lane") // its index: lanes that started since come before it
	delete(again, "lane")
	if !maps.Equal(picked, again) || s.Step == s.Steps-1 {
		t.Errorf("a newer snapshot changed the picked step: %v, now %v (step %d of %d)", picked, again, s.Step, s.Steps)
	}

	// A goroutine still running says so in the details panel.
	var runningLane string
	for _, in := range timeline.Build(cut(spans, instantAt(spans, 0.75))).Instances {
		for _, l := range in.Lanes {
			if l.Attributes[attrRunning] == true && runningLane == "" {
				runningLane = l.Label
			}
		}
	}
	if runningLane == "" {
		t.Fatal("no goroutine is running three quarters into cluster-basics")
	}
	lane := eval[map[string]float64](t, b, fmt.Sprintf(`(() => { const k = kubeloom; k.search(%q); const p = k.plot(), v = k.view();
		const r = k.rowsInfo().find((r) => r.kind === 'lane' && r.name === %[1]q);
		return { x: p.left - 40, y: p.top + r.y - v.scrollY + 9 }; })()`, runningLane))
	if err := chromedp.Do(b.Ctx, chromedp.MouseEvent(chromedp.MouseMoved, lane["x"], lane["y"])); err != nil {
		t.Fatal(err)
	}
	running := eval[string](t, b, `kubeloom.msg('stillRunning')`)
	if details := eval[string](t, b, `kubeloom.details()`); !strings.Contains(details, running) || !strings.Contains(details, runningLane) {
		t.Errorf("the details of %s, still running, do not say %q:\n%s", runningLane, running, details)
	}

	// The follow button resumes following; the newest snapshot stays in view.
	if err := chromedp.Do(b.Ctx, chromedp.Click(chromedp.CSS("#follow"))); err != nil {
		t.Fatal(err)
	}
	if s = readLive(t, b); !s.Following || !s.FollowPressed {
		t.Errorf("the follow button did not resume following: %+v", s)
	}
	atNewest(t, "after the follow button", s, durations[2])
	feed(t, b, snaps[3])
	atNewest(t, "the last snapshot, following", readLive(t, b), durations[3])

	// Another run (a recording the teacher opens) resets the view: no
	// search, its groups as they open, the whole run; the language stays.
	other := recordBuiltin(t, "informer-basics")
	var d bytes.Buffer
	if err := WriteData(&d, other); err != nil {
		t.Fatal(err)
	}
	feed(t, b, d.String())
	s = readLive(t, b)
	if s.Lanes != other.LaneCount() || s.Search != "" || !s.Fitted || s.Lang != "zh" || s.Updates != 4 {
		t.Errorf("another run: %d lanes (want %d), search %q, fitted %v, language %s, %d updates; want the view reset, the language kept",
			s.Lanes, other.LaneCount(), s.Search, s.Fitted, s.Lang, s.Updates)
	}
	// A timeline made in its place (serve's page opening a recording)
	// takes the page over: the last one's listeners are gone, so a key
	// moves one step, not two; not live, it hides the follow button.
	eval[any](t, b, `kubeloomTest.createTimeline(document.getElementById('kubeloom-data').textContent, {}), true`)
	key(t, b, kb.ArrowRight)
	if s = readLive(t, b); s.Step != 0 || s.Following || s.FollowShown || s.Updates != 0 || !s.Ready {
		t.Errorf("a second timeline, after →: step %d, following %v, follow button shown %v, %d updates, ready %v; want step 0, not following, hidden, 0, ready",
			s.Step, s.Following, s.FollowShown, s.Updates, s.Ready)
	}
	if frames := eval[int](t, b, `kubeloom.frames.length`); frames < 1 {
		t.Errorf("window.kubeloom.frames holds %d frames", frames)
	}
	if p := b.Problems(t); len(p) > 0 {
		t.Errorf("console problems: %v", p)
	}
}

// BenchmarkLiveUpdates streams a run to a following page at 1280×720 as
// serve does at full speed: a snapshot every 200 ms (5 a second), from a
// tenth of the run to all of it, each as JSON text (parsed by update). The
// run is synthetic (a benchmark cannot record in a synctest bubble), sized
// as cluster-basics' snapshots are, about 700 KB. It reports the frames'
// draw times (window.kubeloom.frames) and update()'s (parse, re-index, lay
// out): the page must keep a median frame ≤ 16 ms and a worst ≤ 50 ms.
func BenchmarkLiveUpdates(bm *testing.B) {
	var fractions []float64
	for f := 0.1; f <= 1.0001; f += 0.03 {
		fractions = append(fractions, f)
	}
	br := browsertest.Start(bm, browsertest.Options{Width: 1280, Height: 720})
	snaps, _ := liveSnapshots(bm, synthetic(16_000), fractions)
	pageURL := writeLivePage(bm, snaps[0])
	var frames, updates []float64
	for bm.Loop() {
		if err := chromedp.Do(br.Ctx, chromedp.Navigate("about:blank")); err != nil {
			bm.Fatal(err)
		}
		load(bm, br, pageURL)
		eval[any](bm, br, `window.snaps = [], true`)
		for _, s := range snaps[1:] {
			js, err := json.Marshal(s)
			if err != nil {
				bm.Fatal(err)
			}
			eval[any](bm, br, fmt.Sprintf("snaps.push(%s), true", js))
		}
		res := eval[map[string][]float64](bm, br, `new Promise((done) => {
			const took = [];
			let i = 0;
			kubeloom.frames.length = 0;
			const timer = setInterval(() => {
				if (i === snaps.length) {
					clearInterval(timer);
					requestAnimationFrame(() => requestAnimationFrame(() => done({ frames: kubeloom.frames.slice(), updates: took })));
					return;
				}
				const t0 = performance.now();
				kubeloom.update(snaps[i++]);
				took.push(performance.now() - t0);
			}, 200);
		})`, chromedp.EvalAwaitPromise)
		frames = append(frames, res["frames"]...)
		updates = append(updates, res["updates"]...)
	}
	if got := eval[bool](bm, br, `kubeloom.following && kubeloom.updates > 0`); !got {
		bm.Fatal("the page stopped following or applied no update")
	}
	if p := br.Problems(bm); len(p) > 0 {
		bm.Fatalf("the console has errors:\n%s", strings.Join(p, "\n"))
	}
	slices.Sort(frames)
	slices.Sort(updates)
	bm.ReportMetric(frames[len(frames)/2], "median-frame-ms")
	bm.ReportMetric(frames[len(frames)-1], "worst-frame-ms")
	bm.ReportMetric(updates[len(updates)/2], "median-update-ms")
	bm.ReportMetric(updates[len(updates)-1], "worst-update-ms")
	bm.ReportMetric(float64(len(snaps[len(snaps)-1]))/1024, "last-snapshot-KB")
}
