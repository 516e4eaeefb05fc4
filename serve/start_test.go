package serve

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kubeloom/kubeloom/scenarios"
)

func TestStartABuiltin(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "recordings")
	s := newTestServer(t, Options{Dir: dir})
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
	// A second session in the same second: the first closes, and its file
	// is never written over.
	resp, body = s.do(t, "POST", "/api/session?builtin=informer-basics", s.Token(), "")
	if resp.StatusCode != 200 || !strings.Contains(body, "informer-basics-20261207-030405-2.jsonl") {
		t.Fatalf("a second session: %d %s, want the name with -2", resp.StatusCode, body)
	}
	if calls := s.session(0).calls; !slices.Contains(calls, "close") {
		t.Errorf("the first session was not closed when the second started: %v", calls)
	}
	for _, c := range []string{"play", "pause", "step"} {
		if resp, body := s.do(t, "POST", "/api/"+c, s.Token(), ""); resp.StatusCode != 200 {
			t.Errorf("POST /api/%s: %d %s", c, resp.StatusCode, body)
		}
	}
	if calls := s.session(1).calls; !slices.Equal(calls, []string{"play", "pause", "step"}) {
		t.Errorf("the session was asked %v, want play, pause, step", calls)
	}
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
	if len(s.sessions) != 0 {
		t.Error("a bad scenario started a session")
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
	s.do(t, "POST", "/api/session?builtin=cm-leader-failover", s.Token(), "")
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
	if st := s.session(0).State(); st.Speed != 1 {
		t.Errorf("speed %g after the last good request, want 1", st.Speed)
	}
	if resp, body := s.do(t, "POST", "/api/act", s.Token(), "killLeader: {}"); resp.StatusCode != 200 {
		t.Errorf("killLeader: %d %s", resp.StatusCode, body)
	}
	resp, body := s.do(t, "POST", "/api/act", s.Token(), "bogus: {}")
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `"line":1`) || !strings.Contains(body, "unknown action") {
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

func TestDownloads(t *testing.T) {
	s := newTestServer(t, Options{})
	s.do(t, "POST", "/api/session?builtin=informer-basics", s.Token(), "")
	resp, body := s.do(t, "GET", "/api/recording", "", "")
	if resp.StatusCode != 200 || body != `{"Name":"x"}`+"\n" || !strings.Contains(resp.Header.Get("Content-Disposition"), `filename="informer-basics.jsonl"`) {
		t.Errorf("GET /api/recording: %d %q %v", resp.StatusCode, body, resp.Header)
	}
	resp, body = s.do(t, "GET", "/api/recording?zst=1", "", "")
	if resp.StatusCode != 200 || !strings.HasPrefix(body, "\x28\xb5\x2f\xfd") {
		t.Errorf("GET /api/recording?zst=1: %d, not zstd: %q", resp.StatusCode, body[:min(len(body), 8)])
	}
	resp, body = s.do(t, "GET", "/api/export", "", "")
	if resp.StatusCode != 200 || !strings.HasPrefix(body, "<!DOCTYPE html>") || !strings.HasPrefix(resp.Header.Get("Content-Disposition"), "attachment") {
		t.Errorf("GET /api/export: %d %q %v", resp.StatusCode, body, resp.Header)
	}
}
