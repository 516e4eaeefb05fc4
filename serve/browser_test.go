package serve

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/kubeloom/kubeloom/internal/browsertest"
	"github.com/kubeloom/kubeloom/serve/session"
)

// TestLivePage opens the page of kubeloom serve in Chromium, with the
// bundle built into the binary and a real session: the token holder starts
// a scenario, its first snapshot mounts the timeline and its steps grow
// it, play reaches the session, a pasted scenario's errors and a refused
// action show and change nothing; a browser without the token watches the
// same timeline with its controls disabled.
func TestLivePage(t *testing.T) {
	s := newTestServer(t, Options{script: bundledScript, style: bundledStyle}) // the real page
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
	eval(`[...document.querySelectorAll('#live-scenario-list > li')].find(li => li.querySelector('strong').textContent.trim() === 'cm-leader-failover').querySelector('button').click(); ''`)
	poll(`!!window.kubeloomLive.state && window.kubeloomLive.state.mode === 'live' && window.kubeloomLive.state.scenario === 'cm-leader-failover'`)
	sess := s.session()

	// The first snapshot mounts the timeline; those of the steps update it.
	poll(`!!window.kubeloom && window.kubeloom.ready === true && window.kubeloomLive.snapshots >= 1`)
	lanes := eval(`String(window.kubeloom.lanes)`)
	for range 3 {
		at := sess.State().ElapsedUS
		eval(`document.getElementById('live-step').click(); ''`)
		waitState(t, sess, "the page's step", func(st session.State) bool { return st.ElapsedUS > at })
	}
	stepped := waitState(t, sess, "three steps and their snapshot", func(st session.State) bool {
		return st.ElapsedUS > 0 && st.SnapshotUS == st.ElapsedUS && st.Snapshot >= 4
	})
	poll(fmt.Sprintf(`window.kubeloom.updates >= 1 && window.kubeloomLive.spans === %d && window.kubeloom.following === true`, stepped.Spans))
	if after := eval(`String(window.kubeloom.lanes)`); after == lanes && lanes == "0" {
		t.Errorf("lanes %s then %s: the timeline did not show the snapshots", lanes, after)
	}
	if got := eval(`document.getElementById('live-spans').textContent`); !strings.Contains(got, fmt.Sprint(stepped.Spans)) {
		t.Errorf("the span count reads %q, want %d", got, stepped.Spans)
	}

	// At one simulated second a second, the session (three minutes) plays
	// on for the rest of the test.
	if resp, body := s.do(t, "POST", "/api/speed", s.Token(), `{"speed": 1}`); resp.StatusCode != 200 {
		t.Fatalf("speed 1: %d %s", resp.StatusCode, body)
	}
	eval(`document.getElementById('live-play').click(); ''`)
	poll(`window.kubeloomLive.state.playing === true && document.getElementById('live-play').disabled && !document.getElementById('live-pause').disabled`)
	waitState(t, sess, "the session to play", func(st session.State) bool { return st.Playing && st.ElapsedUS > stepped.ElapsedUS })

	eval(`document.getElementById('live-yaml').value = 'apiVersion: kubeloom.dev/v1\nkind: Scenario\nmetadata: {name: x}\nspec:\n  duration: 1m\n  bogus: <b>1</b>\n'; document.getElementById('live-run-yaml').click(); ''`)
	poll(`document.getElementById('live-yaml-errors').textContent.startsWith('pasted.yaml:6:3: spec.bogus: unknown field')`)
	if html := eval(`document.getElementById('live-yaml-errors').innerHTML`); strings.Contains(html, "<b>") {
		t.Errorf("an error's text became markup: %s", html)
	}
	poll(fmt.Sprintf(`document.querySelectorAll('#live-action-buttons button').length === %d`, len(sess.Templates())))
	eval(`document.getElementById('live-act-yaml').value = 'bogus: {}'; document.getElementById('live-act').click(); ''`)
	poll(`document.getElementById('live-act-error').textContent.includes('bogus: unknown field') && window.kubeloomLive.lastError.includes('bogus: unknown field')`)

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
	poll(fmt.Sprintf(`!!window.kubeloom && window.kubeloom.ready === true && window.kubeloomLive.spans >= %d`, stepped.Spans))
	poll(`!!document.querySelector('#live-scenario-list button') && document.querySelector('#live-scenario-list button').disabled && document.getElementById('live-pause').disabled && document.getElementById('live-act').disabled`)
	// The refused action and the refused scenario changed nothing: the
	// session plays on, with no action, and is the only one.
	if st := sess.State(); !st.Playing || st.LastAction != "" || s.session() != sess || len(s.recordings(t)) != 1 {
		t.Errorf("after the refusals: %+v, recordings %v; want the first session playing on, with no action", st, s.recordings(t))
	}

	// The console: only the refusals the test asked for (a 422 is logged
	// by Chromium as a failed resource).
	for _, p := range b.Problems(t) {
		if !strings.Contains(p, "status of 422") {
			t.Errorf("console: %s", p)
		}
	}
}
