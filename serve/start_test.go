package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/serve/session"
	"github.com/kubeloom/kubeloom/traces"
)

func TestStartABuiltin(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "recordings")
	var logMu sync.Mutex
	var logs []string
	s := newTestServer(t, Options{Dir: dir, Logf: func(format string, args ...any) {
		logMu.Lock()
		logs = append(logs, fmt.Sprintf(format, args...))
		logMu.Unlock()
	}})
	resp, body := s.do(t, "POST", "/api/session?builtin=informer-basics", s.Token(), "")
	if resp.StatusCode != 200 {
		t.Fatalf("starting informer-basics: %d %s", resp.StatusCode, body)
	}
	want := filepath.Join(dir, "informer-basics-20261207-030405.jsonl")
	if !strings.Contains(body, filepath.ToSlash(want)) && !strings.Contains(body, want) {
		t.Errorf("the answer %s does not name %s", body, want)
	}
	if _, err := os.Stat(want); err != nil {
		t.Errorf("the recording is not on disk: %v", err)
	}
	first := s.session()
	for range 3 { // some spans in the first recording
		s.do(t, "POST", "/api/step", s.Token(), "")
	}
	// A second session in the same second: the first closes, its
	// recording complete, and its file is never written over.
	resp, body = s.do(t, "POST", "/api/session?builtin=informer-basics", s.Token(), "")
	if resp.StatusCode != 200 || !strings.Contains(body, "informer-basics-20261207-030405-2.jsonl") {
		t.Fatalf("a second session: %d %s, want the name with -2", resp.StatusCode, body)
	}
	select {
	case <-first.Done():
	default:
		t.Error("the first session still runs after the second started")
	}
	spans, err := traces.ReadFile(want)
	if err != nil || len(spans) == 0 {
		t.Errorf("the first recording: %d spans, %v; want it readable to its last line", len(spans), err)
	}
	logMu.Lock()
	ended := fmt.Sprintf("session informer-basics ended: %d spans recorded in %s\n", len(spans), want)
	if !slices.Contains(logs, ended) {
		t.Errorf("the log %q lacks %q: the file does not hold every span the session recorded", logs, ended)
	}
	logMu.Unlock()

	// The controls reach the second session: play moves simulated time
	// on, pause stops it, step moves it to the next instant a span ends.
	second := s.session()
	if second == first {
		t.Fatal("the server runs the first session still")
	}
	if st := postState(t, s, "play"); !st.Playing {
		t.Errorf("after play: %+v, want playing", st)
	}
	waitState(t, second, "simulated time to move on", func(st session.State) bool { return st.ElapsedUS > 0 })
	paused := postState(t, s, "pause")
	if paused.Playing {
		t.Errorf("after pause: %+v, want paused", paused)
	}
	time.Sleep(150 * time.Millisecond) // three of the pacer's frames
	if st := second.State(); st.ElapsedUS != paused.ElapsedUS || st.Playing {
		t.Errorf("paused at %d µs, then %+v: simulated time moved while paused", paused.ElapsedUS, st)
	}
	if st := postState(t, s, "step"); st.ElapsedUS <= paused.ElapsedUS || st.Playing || st.Spans <= paused.Spans {
		t.Errorf("a step from %d µs (%d spans): %+v, want a later instant with more spans, paused", paused.ElapsedUS, paused.Spans, st)
	}
}

// postState sends a control and returns the state it answers with.
func postState(t *testing.T, s *testServer, control string) session.State {
	t.Helper()
	resp, body := s.do(t, "POST", "/api/"+control, s.Token(), "")
	var st session.State
	if err := json.Unmarshal([]byte(body), &st); resp.StatusCode != 200 || err != nil {
		t.Fatalf("POST /api/%s: %d %s", control, resp.StatusCode, body)
	}
	return st
}

func TestStartRefusesAnUnknownBuiltin(t *testing.T) {
	s := newTestServer(t, Options{})
	resp, body := s.do(t, "POST", "/api/session?builtin=nope", s.Token(), "")
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "unknown built-in scenario") {
		t.Errorf("an unknown built-in: %d %s", resp.StatusCode, body)
	}
}

// TestPastedScenarioErrors: a pasted scenario's errors are those validate
// prints, file:line:col, with each line's place for the page to mark, and
// what does not print escaped.
func TestPastedScenarioErrors(t *testing.T) {
	s := newTestServer(t, Options{})
	src := "apiVersion: kubeloom.dev/v1\nkind: Scenario\nmetadata: {name: demo}\nspec:\n  duration: 1m\n  bogus: 1\n  informers:\n  - {resource: pods, handlers: \"\x1b[31mx\"}\n"
	resp, body := s.do(t, "POST", "/api/session?file=../../my%20lesson.yaml", s.Token(), src)
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("a bad scenario: %d %s", resp.StatusCode, body)
	}
	var ans struct {
		Error    string    `json:"error"`
		Problems []problem `json:"problems"`
	}
	if err := json.Unmarshal([]byte(body), &ans); err != nil {
		t.Fatal(err)
	}
	_, want := scenarios.Parse("my lesson.yaml", []byte(src))
	if want == nil || ans.Error != want.Error() {
		t.Errorf("error %q, want validate's %q", ans.Error, want)
	}
	if strings.ContainsRune(ans.Error, 0x1b) {
		t.Errorf("the error carries a raw escape: %q", ans.Error)
	}
	if len(ans.Problems) == 0 || ans.Problems[0].Line != 8 || !strings.HasPrefix(ans.Problems[0].Text, "my lesson.yaml:8:") {
		t.Errorf("problems %+v, want the first at my lesson.yaml:8", ans.Problems)
	}
	if s.session() != nil || len(s.recordings(t)) != 0 {
		t.Errorf("a bad scenario started a session: recordings %v", s.recordings(t))
	}
}

func TestPastedScenarioLimits(t *testing.T) {
	s := newTestServer(t, Options{})
	big := "# " + strings.Repeat("x", scenarios.MaxFileSize) + "\n"
	resp, body := s.do(t, "POST", "/api/session", s.Token(), big)
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "larger than 256 KiB") {
		t.Errorf("a scenario over 256 KiB: %d %.200s", resp.StatusCode, body)
	}
	huge := strings.Repeat("x", 4*scenarios.MaxFileSize)
	if resp, body := s.do(t, "POST", "/api/session", s.Token(), huge); resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "larger than 256 KiB") {
		t.Errorf("a 1 MiB body: %d %.200s", resp.StatusCode, body)
	}
	manifests := "apiVersion: kubeloom.dev/v1\nkind: Scenario\nmetadata: {name: demo}\nspec:\n  duration: 1m\n  kubelets: {count: 1, manifestDir: manifests}\n"
	resp, body = s.do(t, "POST", "/api/session", s.Token(), manifests)
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "pasted.yaml:6:") || !strings.Contains(body, "no folder") {
		t.Errorf("a pasted scenario with a manifestDir: %d %s", resp.StatusCode, body)
	}
}

func TestControlWithoutASession(t *testing.T) {
	s := newTestServer(t, Options{})
	for _, c := range []string{"play", "pause", "step", "act"} {
		resp, body := s.do(t, "POST", "/api/"+c, s.Token(), "killLeader: {}")
		if resp.StatusCode != http.StatusConflict || !strings.Contains(body, "start it first") {
			t.Errorf("POST /api/%s without a session: %d %s", c, resp.StatusCode, body)
		}
	}
	if resp, body := s.do(t, "GET", "/api/recording", "", ""); resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /api/recording without a session: %d %s", resp.StatusCode, body)
	}
}

func TestSpeedAndAct(t *testing.T) {
	s := newTestServer(t, Options{})
	sess := s.start(t, "cm-leader-failover")
	for _, tc := range []struct {
		body string
		want int
	}{
		{`{"speed": 60}`, 200}, {`{"speed": 0}`, 200}, {`{"speed": 1}`, 200},
		{`{"speed": 0.5}`, 400}, {`{"speed": -1}`, 400}, {`{"speed": 1e9}`, 400}, {`{}`, 400}, {`nope`, 400},
	} {
		body, want := tc.body, tc.want
		if resp, ans := s.do(t, "POST", "/api/speed", s.Token(), body); resp.StatusCode != want {
			t.Errorf("POST /api/speed %s: %d %s, want %d", body, resp.StatusCode, ans, want)
		}
	}
	if st := sess.State(); st.Speed != 1 {
		t.Errorf("speed %g after the last good request, want 1", st.Speed)
	}
	// Until a controller-manager leads, there is no leader to kill: as
	// fast as it goes to 20 s, then paused.
	s.do(t, "POST", "/api/speed", s.Token(), `{"speed": 0}`)
	postState(t, s, "play")
	waitState(t, sess, "20 simulated seconds", func(st session.State) bool { return st.ElapsedUS >= 20_000_000 })
	postState(t, s, "pause")
	if resp, body := s.do(t, "POST", "/api/act", s.Token(), "killLeader: {}"); resp.StatusCode != 200 || !strings.Contains(body, `"lastAction":"killLeader at `) {
		t.Errorf("killLeader: %d %s, want the state naming it as the last action", resp.StatusCode, body)
	}
	resp, body := s.do(t, "POST", "/api/act", s.Token(), "bogus: {}")
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `"line":1`) || !strings.Contains(body, "action:1:1: bogus: unknown field") {
		t.Errorf("a refused action: %d %s, want 422 with why and where", resp.StatusCode, body)
	}
	resp, body = s.do(t, "POST", "/api/act", s.Token(), strings.Repeat("x", maxActBody+1))
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("an action over %d bytes: %d %s", maxActBody, resp.StatusCode, body)
	}
	resp, body = s.do(t, "GET", "/api/templates", "", "")
	if resp.StatusCode != 200 || !strings.Contains(body, `"verb":"killLeader"`) {
		t.Errorf("GET /api/templates: %d %s", resp.StatusCode, body)
	}
}

func TestScenarioList(t *testing.T) {
	s := newTestServer(t, Options{})
	resp, body := s.do(t, "GET", "/api/scenarios", "", "")
	var ans struct {
		Scenarios []builtin `json:"scenarios"`
	}
	if err := json.Unmarshal([]byte(body), &ans); resp.StatusCode != 200 || err != nil {
		t.Fatalf("GET /api/scenarios: %d %v %.200s", resp.StatusCode, err, body)
	}
	if len(ans.Scenarios) != len(scenarios.Builtins()) {
		t.Errorf("%d scenarios, want every built-in (%d)", len(ans.Scenarios), len(scenarios.Builtins()))
	}
	for _, b := range ans.Scenarios {
		if b.Name != "informer-basics" {
			continue
		}
		sc, _ := scenarios.Builtin("informer-basics")
		en, zh := b.Text["en"], b.Text["zh"]
		if en.Description != sc.Metadata.Description || zh.Description != sc.Metadata.Text("zh").Description || len(zh.WatchFor) == 0 {
			t.Errorf("informer-basics: %+v, want its description and what to watch for in en and zh", b.Text)
		}
		return
	}
	t.Error("informer-basics is not listed")
}

// TestDownloads: any viewer may take the session's recording so far (the
// file it writes, plain or compressed) and the page of its latest
// snapshot.
func TestDownloads(t *testing.T) {
	s := newTestServer(t, Options{})
	sess := s.start(t, "informer-basics")
	for range 5 {
		s.do(t, "POST", "/api/step", s.Token(), "")
	}
	// The recording's writer writes what ended within a fraction of a
	// second (sim/tracing's collector): then the download holds every span
	// that ended.
	ended := sess.State().Spans
	var resp *http.Response
	var body string
	var spans []traces.Span
	waitFor(t, func() bool {
		var err error
		resp, body = s.do(t, "GET", "/api/recording", "", "")
		spans, err = traces.Read(strings.NewReader(body), "download")
		return err == nil && int64(len(spans)) == ended
	})
	if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Disposition"), `filename="informer-basics.jsonl"`) {
		t.Errorf("GET /api/recording: %d %v", resp.StatusCode, resp.Header)
	}
	onDisk, err := os.ReadFile(filepath.Join(s.o.Dir, "informer-basics-20261207-030405.jsonl"))
	if err != nil || string(onDisk) != body {
		t.Errorf("the download (%d bytes) is not the recording on disk (%d bytes, %v)", len(body), len(onDisk), err)
	}
	resp, zbody := s.do(t, "GET", "/api/recording?zst=1", "", "")
	if resp.StatusCode != 200 || !traces.IsCompressed([]byte(zbody)) {
		t.Errorf("GET /api/recording?zst=1: %d, not zstd: %q", resp.StatusCode, zbody[:min(len(zbody), 8)])
	}
	if zspans, err := traces.Read(strings.NewReader(zbody), "download.zst"); err != nil || len(zspans) != len(spans) {
		t.Errorf("the compressed download: %d spans, %v; want the plain one's %d", len(zspans), err, len(spans))
	}
	resp, body = s.do(t, "GET", "/api/export", "", "")
	if resp.StatusCode != 200 || !strings.HasPrefix(body, "<!DOCTYPE html>") || !strings.Contains(body, "informer-basics — kubeloom") ||
		!strings.HasPrefix(resp.Header.Get("Content-Disposition"), "attachment") {
		t.Errorf("GET /api/export: %d %.200q %v", resp.StatusCode, body, resp.Header)
	}
}
