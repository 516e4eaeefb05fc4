package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/kubeloom/kubeloom/internal/memnet"
	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/serve/session"
	"github.com/kubeloom/kubeloom/sim/engine"
	"github.com/kubeloom/kubeloom/traces"
)

// recordInformerBasics runs informer-basics in a synctest bubble with its
// servers on an in-memory network, as htmlview's tests do.
func recordInformerBasics(t *testing.T) []byte {
	t.Helper()
	sc, err := scenarios.Builtin("informer-basics")
	if err != nil {
		t.Fatal(err)
	}
	var rec bytes.Buffer
	synctest.Test(t, func(t *testing.T) {
		n := memnet.New()
		if _, err := engine.Run(context.Background(), engine.Options{Scenario: sc, Recording: &rec, Listen: n.Listen, Dial: n.Dial}); err != nil {
			t.Fatal(err)
		}
	})
	return rec.Bytes()
}

func TestOpenARecording(t *testing.T) {
	rec := recordInformerBasics(t)
	spans, err := traces.Read(bytes.NewReader(rec), "r")
	if err != nil {
		t.Fatal(err)
	}
	s := newTestServer(t, Options{})
	sess := s.start(t, "cm-startup")
	viewer := s.connect(t)
	postState(t, s, "play") // the class watches the session

	resp, body := s.do(t, "POST", "/api/open?name=/home/x/lesson.jsonl", s.Token(), string(rec))
	if resp.StatusCode != 200 {
		t.Fatalf("opening a recording: %d %s", resp.StatusCode, body)
	}
	var ans struct {
		Name     string `json:"name"`
		Spans    int    `json:"spans"`
		Warnings string `json:"warnings"`
	}
	json.Unmarshal([]byte(body), &ans)
	if ans.Name != "lesson.jsonl" || ans.Spans != len(spans) || ans.Warnings != "" {
		t.Errorf("the answer %+v, want lesson.jsonl with %d spans and no warning", ans, len(spans))
	}
	snap := viewer.until(t, func(ev event) bool {
		return ev.name == "snapshot" && bytes.Contains(ev.data, []byte(`"scenario":"informer-basics"`))
	})
	st := viewer.until(t, func(ev event) bool { return ev.name == "state" && stateOf(t, ev).Mode == "recording" })
	if m := stateOf(t, st); m.Recording != "lesson.jsonl" || m.Spans != int64(len(spans)) || st.id != snap.id {
		t.Errorf("the state after opening: %+v (id %s), want the recording's, naming snapshot %s", m, st.id, snap.id)
	}
	// The session waits while the class looks at the recording.
	paused := sess.State()
	time.Sleep(150 * time.Millisecond) // three of the pacer's frames
	if st := sess.State(); paused.Playing || st.ElapsedUS != paused.ElapsedUS {
		t.Errorf("the session was not paused when a recording opened: %+v, then %+v", paused, st)
	}
	// Export is then the recording's page.
	resp, body = s.do(t, "GET", "/api/export", "", "")
	if resp.StatusCode != 200 || !strings.Contains(body, "informer-basics — kubeloom") {
		t.Errorf("GET /api/export of the opened recording: %d %.300s", resp.StatusCode, body)
	}
	// Play shows the session again.
	s.do(t, "POST", "/api/play", s.Token(), "")
	viewer.until(t, func(ev event) bool { return ev.name == "state" && stateOf(t, ev).Mode == "live" })
	waitState(t, sess, "the session to play on", func(st session.State) bool { return st.Playing && st.ElapsedUS > paused.ElapsedUS })

	// A compressed recording reads the same.
	var z bytes.Buffer
	zw := traces.NewCompressedWriter(&z)
	zw.Write(rec)
	zw.Close()
	if resp, body := s.do(t, "POST", "/api/open?name=lesson.jsonl.zst", s.Token(), z.String()); resp.StatusCode != 200 || !strings.Contains(body, `"spans":`) {
		t.Errorf("opening a compressed recording: %d %s", resp.StatusCode, body)
	}
}

func TestOpenATruncatedRecording(t *testing.T) {
	rec := recordInformerBasics(t)
	cut := rec[:len(rec)*2/3]
	s := newTestServer(t, Options{})
	resp, body := s.do(t, "POST", "/api/open?name=cut.jsonl", s.Token(), string(cut))
	if resp.StatusCode != 200 || !strings.Contains(body, "cut.jsonl:") || !strings.Contains(body, "truncated") {
		t.Errorf("a recording cut mid-line: %d %s, want its spans and a warning naming the line", resp.StatusCode, body)
	}
}

func TestOpenHostileRecordings(t *testing.T) {
	s := newTestServer(t, Options{maxRecording: 1 << 20})
	for name, body := range map[string]string{
		"empty":          "",
		"not a trace":    "\x00\x01binary\xff\xfe garbage\n<script>alert(1)</script>\n",
		"deeply nested":  strings.Repeat("[", 100_000) + "\n",
		"escape in name": `{"Name":"\u001b[31mred"` + "\n",
		"zstd garbage":   "\x28\xb5\x2f\xfd" + strings.Repeat("\xff", 1000),
	} {
		resp, ans := s.do(t, "POST", "/api/open?name=x.jsonl", s.Token(), body)
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d %.300s, want 422", name, resp.StatusCode, ans)
		}
		if strings.Contains(ans, "<script>") || strings.ContainsRune(ans, 0x1b) {
			t.Errorf("%s: the error carries markup or a raw escape: %s", name, ans)
		}
	}
	resp, ans := s.do(t, "POST", "/api/open?name=big.jsonl", s.Token(), strings.Repeat("x", 2<<20))
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a recording over the limit: %d %s, want 413", resp.StatusCode, ans)
	}
}
