package serve

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/serve/session"
	"github.com/kubeloom/kubeloom/sim/engine"
)

// fakeSession is a session whose state and snapshots the test sets: the
// server's tests check what the server does with them, not the simulation.
type fakeSession struct {
	mu      sync.Mutex
	state   session.State
	snap    session.Snapshot
	changed chan struct{}
	done    chan struct{}
	calls   []string
	closed  bool
	rec     io.Writer
}

func newFakeSession(o session.Options) *fakeSession {
	return &fakeSession{
		state:   session.State{Scenario: o.Scenario.Metadata.Name},
		changed: make(chan struct{}), done: make(chan struct{}), rec: o.Recording,
	}
}

func (f *fakeSession) call(name string) {
	f.mu.Lock()
	f.calls = append(f.calls, name)
	f.mu.Unlock()
}

// set changes the state and the snapshot as a session does, and closes
// Changed.
func (f *fakeSession) set(change func(st *session.State, snap *session.Snapshot)) {
	f.mu.Lock()
	change(&f.state, &f.snap)
	close(f.changed)
	f.changed = make(chan struct{})
	f.mu.Unlock()
}

func (f *fakeSession) Play() error {
	f.call("play")
	f.set(func(st *session.State, _ *session.Snapshot) { st.Playing = true })
	return nil
}

func (f *fakeSession) Pause() error {
	f.call("pause")
	f.set(func(st *session.State, _ *session.Snapshot) { st.Playing = false })
	return nil
}

func (f *fakeSession) Step() error { f.call("step"); return nil }

func (f *fakeSession) SetSpeed(v float64) error {
	f.call("speed")
	f.set(func(st *session.State, _ *session.Snapshot) { st.Speed = v })
	return nil
}

func (f *fakeSession) Act(src []byte) error {
	f.call("act " + string(src))
	if strings.Contains(string(src), "bogus") {
		return &session.ActError{Err: &scenarios.Error{Pos: scenarios.Position{File: "action", Line: 1, Column: 1}, Msg: `unknown action "bogus"`}}
	}
	return nil
}

func (f *fakeSession) Templates() []session.Template {
	return []session.Template{{Verb: "killLeader", YAML: "killLeader: {}"}}
}

func (f *fakeSession) State() session.State {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.state
}

func (f *fakeSession) Current() (session.State, session.Snapshot) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.state, f.snap
}

func (f *fakeSession) Snapshot() session.Snapshot {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.snap
}

func (f *fakeSession) Changed() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.changed
}

func (f *fakeSession) WriteRecording(w io.Writer) error {
	_, err := io.WriteString(w, `{"Name":"x"}`+"\n")
	return err
}

func (f *fakeSession) WriteHTML(w io.Writer) error {
	_, err := io.WriteString(w, "<!DOCTYPE html><title>x</title>")
	return err
}

func (f *fakeSession) Done() <-chan struct{} { return f.done }

func (f *fakeSession) Close() (*engine.Summary, error) {
	f.call("close")
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	return &engine.Summary{Spans: 1}, nil
}

// testServer is a server of fake sessions on a real loopback listener
// (httptest), recording into a temporary folder.
type testServer struct {
	*Server
	ts       *httptest.Server
	mu       sync.Mutex
	sessions []*fakeSession
}

func newTestServer(t *testing.T, o Options) *testServer {
	t.Helper()
	tsv := &testServer{}
	if o.Dir == "" {
		o.Dir = t.TempDir()
	}
	o.Loopback = true
	o.now = func() time.Time { return time.Date(2026, 12, 7, 3, 4, 5, 0, time.UTC) }
	o.start = func(so session.Options) (Session, error) {
		f := newFakeSession(so)
		tsv.mu.Lock()
		tsv.sessions = append(tsv.sessions, f)
		tsv.mu.Unlock()
		return f, nil
	}
	o.script = func(name string) (string, bool) {
		if name == "serve.js" {
			return "/* the bundle */", true
		}
		return "", false
	}
	o.style = func() string { return "/* the style */" }
	tsv.Server = New(o)
	tsv.ts = newLoopbackServer(t, tsv.Server)
	return tsv
}

// newLoopbackServer serves s on 127.0.0.1 until the test ends.
func newLoopbackServer(t *testing.T, s *Server) *httptest.Server {
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		s.Close()
		ts.Close()
	})
	return ts
}

func (tsv *testServer) session(i int) *fakeSession {
	tsv.mu.Lock()
	defer tsv.mu.Unlock()
	return tsv.sessions[i]
}

// do sends a request to the server; token "" sends none.
func (tsv *testServer) do(t *testing.T, method, path, token, body string, header ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, tsv.ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}
