package serve

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/kubeloom/kubeloom/serve/session"
)

// testServer is a server of real sessions on a real loopback listener
// (httptest), recording into a temporary folder. Its sessions run in
// synctest bubbles of the test, as a test binary must run them.
type testServer struct {
	*Server
	ts *httptest.Server
}

func newTestServer(t *testing.T, o Options) *testServer {
	t.Helper()
	if o.Dir == "" {
		o.Dir = t.TempDir()
	}
	o.Loopback = true
	o.now = func() time.Time { return time.Date(2026, 12, 7, 3, 4, 5, 0, time.UTC) }
	o.Bubble = testBubble(t)
	if o.script == nil {
		o.script = func(name string) (string, bool) {
			if name == "serve.js" {
				return "/* the bundle */", true
			}
			return "", false
		}
	}
	if o.style == nil {
		o.style = func() string { return "/* the style */" }
	}
	tsv := &testServer{Server: New(o)}
	tsv.ts = newLoopbackServer(t, tsv.Server)
	return tsv
}

// testBubble is session.Options.Bubble for a test: synctest.Test, which
// may be called from the session's goroutine.
func testBubble(t *testing.T) func(f func()) error {
	return func(f func()) error {
		synctest.Test(t, func(*testing.T) { f() })
		return nil
	}
}

// newLoopbackServer serves s on 127.0.0.1 until the test ends; closing s
// first ends the event streams and the session, whose bubble is the test's.
func newLoopbackServer(t *testing.T, s *Server) *httptest.Server {
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		s.Close()
		ts.Close()
	})
	return ts
}

// session is the session the server runs now, nil before the first.
func (tsv *testServer) session() *session.Session {
	tsv.mu.Lock()
	defer tsv.mu.Unlock()
	if tsv.live == nil {
		return nil
	}
	return tsv.live.sess
}

// start starts the built-in name through the API, as the teacher's page
// does, and returns its session.
func (tsv *testServer) start(t *testing.T, name string) *session.Session {
	t.Helper()
	if resp, body := tsv.do(t, "POST", "/api/session?builtin="+name, tsv.Token(), ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("starting %s: %d %s", name, resp.StatusCode, body)
	}
	return tsv.session()
}

// recordings lists the files in the recordings' folder.
func (tsv *testServer) recordings(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(tsv.o.Dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// waitState waits, in real time, until cond holds of the session's state.
func waitState(t *testing.T, s *session.Session, what string, cond func(session.State) bool) session.State {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := s.Await(ctx, cond)
	if err != nil {
		t.Fatalf("timed out waiting for %s; the state is %+v", what, st)
	}
	return st
}

// testClient is do's client: a server that stalls fails the test instead
// of hanging it.
var testClient = &http.Client{Timeout: 20 * time.Second}

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
	resp, err := testClient.Do(req)
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
