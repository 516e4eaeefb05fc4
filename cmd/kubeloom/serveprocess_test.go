package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// servedSession is `kubeloom serve` as a teacher starts it, in a process
// of its own (a live session's run needs a bubble of its own, which a test
// binary cannot give it), driven over its HTTP API as the page drives it.
type servedSession struct {
	tb      testing.TB
	cmd     *exec.Cmd
	base    string // http://127.0.0.1:PORT/
	token   string
	client  *http.Client
	dir     string // --dir: where the recordings go
	stderr  lockedBuffer
	stopped bool
}

// lockedBuffer is a process's error stream, read while it writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// controlURL is the URL serve prints: "kubeloom serve: open URL#token=T".
var controlURL = regexp.MustCompile(`open (http://\S+/)#token=(\S+)`)

// startServe starts `kubeloom serve --dir TEMP args...` (on its default
// address, 127.0.0.1 and a free port) and reads the control URL it prints.
// The test's end stops it with Ctrl-C.
func startServe(tb testing.TB, bin string, args ...string) *servedSession {
	tb.Helper()
	s := &servedSession{tb: tb, client: &http.Client{}, dir: tb.TempDir()}
	s.cmd = exec.Command(bin, append([]string{"serve", "--dir", s.dir}, args...)...)
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	s.cmd.Stderr = &s.stderr
	if err := s.cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.stop)
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if m := controlURL.FindStringSubmatch(sc.Text()); m != nil {
			s.base, s.token = m[1], m[2]
			break
		}
	}
	if s.base == "" {
		tb.Fatalf("kubeloom serve printed no control URL:\n%s", s.stderr.String())
	}
	go io.Copy(io.Discard, out)
	return s
}

// post sends a control request with the token.
func (s *servedSession) post(path, body string) {
	s.tb.Helper()
	req, err := http.NewRequest(http.MethodPost, s.base+strings.TrimPrefix(path, "/"), strings.NewReader(body))
	if err != nil {
		s.tb.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	resp, err := s.client.Do(req)
	if err != nil {
		s.tb.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		b, _ := io.ReadAll(resp.Body)
		s.tb.Fatalf("POST %s: %s: %s", path, resp.Status, b)
	}
}

// viewerState is what a state event carries (serve's stateMsg: the
// session's State, flattened, and what the pages show).
type viewerState struct {
	Mode      string `json:"mode"`
	ElapsedUS int64  `json:"elapsedUs"`
	Spans     int64  `json:"spans"`
	Done      bool   `json:"done"`
}

// watch reads the event stream as one viewer does, until a state satisfies
// until: every state and every snapshot (whose bytes it counts).
func (s *servedSession) watch(until func(viewerState) bool) (last viewerState, snapshots int, snapshotBytes int64) {
	s.tb.Helper()
	resp, err := s.client.Get(s.base + "api/events")
	if err != nil {
		s.tb.Fatal(err)
	}
	defer resp.Body.Close()
	r := bufio.NewReaderSize(resp.Body, 1<<20)
	var event string
	var data bytes.Buffer
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			s.tb.Fatalf("the event stream ended first: %v (last state %+v)\n%s", err, last, s.stderr.String())
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		switch {
		case bytes.HasPrefix(line, []byte("event: ")):
			event = string(line[len("event: "):])
		case bytes.HasPrefix(line, []byte("data: ")):
			data.Write(line[len("data: "):])
		case len(line) == 0 && event != "":
			switch event {
			case "state":
				if err := json.Unmarshal(data.Bytes(), &last); err != nil {
					s.tb.Fatalf("a state event that is not JSON: %v", err)
				}
				if until(last) {
					return last, snapshots, snapshotBytes
				}
			case "snapshot":
				snapshots++
				snapshotBytes += int64(data.Len())
			}
			event = ""
			data.Reset()
		}
	}
}

// stop ends serve with Ctrl-C and waits for it.
func (s *servedSession) stop() {
	if s.stopped {
		return
	}
	s.stopped = true
	s.cmd.Process.Signal(os.Interrupt)
	s.cmd.Wait()
}
