package serve

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/kubeloom/kubeloom/internal/browsertest"
	"github.com/kubeloom/kubeloom/serve/session"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/htmlview"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// pageData is a recording cut at second `at`, as the page's data: a
// snapshot of a run so far.
func pageData(t *testing.T, spans []traces.Span, at time.Duration) []byte {
	t.Helper()
	start := spans[0].Start
	for _, s := range spans {
		if s.Start.Before(start) {
			start = s.Start
		}
	}
	var cut []traces.Span
	for _, s := range spans {
		if !s.End.After(start.Add(at)) {
			cut = append(cut, s)
		}
	}
	var b bytes.Buffer
	if err := htmlview.WriteData(&b, timeline.Build(cut)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestLivePage opens the page of kubeloom serve in Chromium, with the
// bundle built into the binary and sessions the test drives: the token
// holder starts a scenario, the snapshots mount and grow the timeline,
// play reaches the session, a pasted scenario's errors and a refused
// action show; a browser without the token watches the same timeline with
// its controls disabled. The end-to-end test of a real session is the
// binary's (cmd/kubeloom).
func TestLivePage(t *testing.T) {
	rec := recordInformerBasics(t)
	spans, err := traces.Read(bytes.NewReader(rec), "informer-basics.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	s := newTestServer(t, Options{})
	s.o.script, s.o.style = bundledScript, bundledStyle // the real page
	b := browsertest.Start(t, browsertest.Options{Width: 1280, Height: 720})
	eval := func(expr string) string {
		t.Helper()
		v, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return v
	}
	poll := func(expr string) {
		t.Helper()
		if _, err := chromedp.Run(b.Ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
			t.Fatalf("waiting for %s: %v\nkubeloomLive: %.600s\nconsole: %v", expr, err, eval(`JSON.stringify(window.kubeloomLive || null)`), b.Messages())
		}
	}
	navigate := func(url string) {
		t.Helper()
		if err := chromedp.Do(b.Ctx, chromedp.Navigate(url)); err != nil {
			t.Fatal(err)
		}
	}

	navigate(s.ts.URL + "/#token=" + s.Token())
	poll(`!!window.kubeloomLive && window.kubeloomLive.canControl === true && window.kubeloomLive.scenarios.length > 5`)
	if h := eval(`location.hash`); strings.Contains(h, "token") {
		t.Errorf("the token stays in the address bar: %q", h)
	}
	eval(`[...document.querySelectorAll('#live-scenario-list > li')].find(li => li.querySelector('strong').textContent.trim() === 'informer-basics').querySelector('button').click(); ''`)
	poll(`!!window.kubeloomLive.state && window.kubeloomLive.state.mode === 'live' && window.kubeloomLive.state.scenario === 'informer-basics'`)
	f := s.session(0)

	// The first snapshot mounts the timeline; a later one updates it.
	f.set(func(st *session.State, snap *session.Snapshot) {
		st.Spans, st.ElapsedUS, st.DurationUS = 40, 6_000_000, 30_000_000
		snap.Seq, snap.Data = 1, pageData(t, spans, 6*time.Second)
	})
	poll(`!!window.kubeloom && window.kubeloom.ready === true && window.kubeloomLive.snapshots >= 1`)
	lanes := eval(`String(window.kubeloom.lanes)`)
	f.set(func(st *session.State, snap *session.Snapshot) {
		st.Spans, st.ElapsedUS = int64(len(spans)), 30_000_000
		snap.Seq, snap.Data = 2, pageData(t, spans, time.Hour)
	})
	poll(`window.kubeloom.updates >= 1 && window.kubeloomLive.spans > 40 && window.kubeloom.following === true`)
	if after := eval(`String(window.kubeloom.lanes)`); after == lanes && lanes == "0" {
		t.Errorf("lanes %s then %s: the timeline did not show the snapshots", lanes, after)
	}
	if got := eval(`document.getElementById('live-spans').textContent`); !strings.Contains(got, "spans") {
		t.Errorf("the span count reads %q", got)
	}

	eval(`document.getElementById('live-play').click(); ''`)
	poll(`window.kubeloomLive.state.playing === true && document.getElementById('live-play').disabled && !document.getElementById('live-pause').disabled`)

	eval(`document.getElementById('live-yaml').value = 'apiVersion: kubeloom.dev/v1\nkind: Scenario\nmetadata: {name: x}\nspec:\n  duration: 1m\n  bogus: <b>1</b>\n'; document.getElementById('live-run-yaml').click(); ''`)
	poll(`document.getElementById('live-yaml-errors').textContent.startsWith('pasted.yaml:6:3: spec.bogus: unknown field')`)
	if html := eval(`document.getElementById('live-yaml-errors').innerHTML`); strings.Contains(html, "<b>") {
		t.Errorf("an error's text became markup: %s", html)
	}
	poll(`document.querySelectorAll('#live-action-buttons button').length === 1`)
	eval(`document.getElementById('live-act-yaml').value = 'bogus: {}'; document.getElementById('live-act').click(); ''`)
	poll(`document.getElementById('live-act-error').textContent.includes('unknown action') && window.kubeloomLive.lastError.includes('unknown action')`)

	// The timeline's language button turns the live controls to 中文 too.
	eval(`document.getElementById('lang').click(); ''`)
	poll(`document.getElementById('live-who').textContent.includes('控制')`)
	shot, err := chromedp.Run(b.Ctx, chromedp.CaptureScreenshot())
	if err == nil && os.Getenv("KUBELOOM_SERVE_SHOT") != "" {
		os.WriteFile(filepath.Join(os.Getenv("KUBELOOM_SERVE_SHOT")), shot, 0o644)
	}

	// A viewer: no token, the same timeline, its controls disabled.
	eval(`sessionStorage.clear(); ''`)
	navigate(s.ts.URL + "/")
	poll(`!!window.kubeloomLive && !!window.kubeloomLive.state && window.kubeloomLive.state.mode === 'live' && window.kubeloomLive.canControl === false`)
	poll(`!!window.kubeloom && window.kubeloom.ready === true && window.kubeloomLive.spans > 40`)
	poll(`!!document.querySelector('#live-scenario-list button') && document.querySelector('#live-scenario-list button').disabled && document.getElementById('live-pause').disabled && document.getElementById('live-act').disabled`)
	if calls := f.calls; len(calls) != 2 || calls[0] != "play" {
		t.Errorf("the session was asked %v, want play and the refused action only", calls)
	}

	// The console: only the refusals the test asked for (a 422 is logged
	// by Chromium as a failed resource).
	for _, p := range b.Problems(t) {
		if !strings.Contains(p, "status of 422") {
			t.Errorf("console: %s", p)
		}
	}
}
