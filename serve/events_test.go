package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/serve/session"
)

// sse is an event stream as a test reads it.
type sse struct {
	resp   *http.Response
	r      *bufio.Reader
	cancel context.CancelFunc
}

type event struct {
	name, id string
	data     []byte
}

func (s *testServer) connect(t *testing.T) *sse {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", s.ts.URL+"/api/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type %q", ct)
	}
	e := &sse{resp: resp, r: bufio.NewReaderSize(resp.Body, 1<<20), cancel: cancel}
	t.Cleanup(e.close)
	return e
}

func (e *sse) close() { e.cancel(); e.resp.Body.Close() }

// next reads the next event, skipping comments.
func (e *sse) next(t *testing.T) event {
	t.Helper()
	ev, err := e.read()
	if err != nil {
		t.Fatalf("reading the event stream: %v", err)
	}
	return ev
}

// read reads the next event, skipping comments.
func (e *sse) read() (event, error) {
	var ev event
	for {
		line, err := e.r.ReadBytes('\n')
		if err != nil {
			return ev, err
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		switch {
		case len(line) == 0:
			if ev.name != "" {
				return ev, nil
			}
		case bytes.HasPrefix(line, []byte("event: ")):
			ev.name = string(line[7:])
		case bytes.HasPrefix(line, []byte("id: ")):
			ev.id = string(line[4:])
		case bytes.HasPrefix(line, []byte("data: ")):
			if ev.data != nil {
				ev.data = append(ev.data, '\n')
			}
			ev.data = append(ev.data, line[6:]...)
		}
	}
}

// until reads events until one satisfies ok. A stream that stalls ends
// the test after untilTimeout rather than hang it.
func (e *sse) until(t *testing.T, ok func(event) bool) event {
	t.Helper()
	stall := time.AfterFunc(untilTimeout, e.close)
	defer stall.Stop()
	for i := 0; i < 1000; i++ {
		if ev := e.next(t); ok(ev) {
			return ev
		}
	}
	t.Fatal("no such event in 1000")
	return event{}
}

const untilTimeout = 10 * time.Second

func stateOf(t *testing.T, ev event) stateMsg {
	t.Helper()
	var m stateMsg
	if err := json.Unmarshal(ev.data, &m); err != nil {
		t.Fatalf("state %s: %v", ev.data, err)
	}
	return m
}

// TestEventsCatchUp: a viewer gets the session's snapshots and states as
// it steps; one that connects late, or reconnects, gets the latest
// snapshot then the latest state first.
func TestEventsCatchUp(t *testing.T) {
	s := newTestServer(t, Options{})
	first := s.connect(t)
	if m := stateOf(t, first.next(t)); m.Mode != "idle" {
		t.Errorf("before a session the state is %+v, want mode idle", m)
	}
	sess := s.start(t, "informer-basics")
	for range 3 {
		postState(t, s, "step")
	}
	want := waitState(t, sess, "the snapshot of the last step", func(st session.State) bool { return st.SnapshotUS == st.ElapsedUS })
	latest := sess.Snapshot()
	if want.ElapsedUS == 0 || want.Spans == 0 {
		t.Fatalf("three steps left the session at %+v", want)
	}
	snap := first.until(t, func(ev event) bool { return ev.name == "snapshot" && bytes.Equal(ev.data, latest.Data) })
	first.until(t, func(ev event) bool {
		m := stateOf(t, ev)
		return ev.name == "state" && m.Spans == want.Spans && m.ElapsedUS == want.ElapsedUS && fmt.Sprint(m.View) == snap.id
	})

	late := s.connect(t)
	lsnap, lst := late.next(t), late.next(t)
	if lsnap.name != "snapshot" || lsnap.id != snap.id || !bytes.Equal(lsnap.data, latest.Data) {
		t.Errorf("a late viewer's first event: %s %s (%d bytes), want the latest snapshot, %s", lsnap.name, lsnap.id, len(lsnap.data), snap.id)
	}
	if m := stateOf(t, lst); lst.name != "state" || m.Spans != want.Spans || m.ElapsedUS != want.ElapsedUS || m.Mode != "live" || fmt.Sprint(m.View) != lsnap.id {
		t.Errorf("a late viewer's second event: %s %+v, want the latest state (%d spans at %d µs) naming snapshot %s", lst.name, m, want.Spans, want.ElapsedUS, lsnap.id)
	}
}

// TestSlowViewer: a viewer that never reads holds at most the latest
// messages; it stalls neither the session's pump nor another viewer, and
// memory stays bounded however much is published. The session is
// cm-startup, stepped until the stuck viewer's socket is full: each step
// makes a new snapshot of a few hundred KiB.
func TestSlowViewer(t *testing.T) {
	s := newTestServer(t, Options{})
	sess := s.start(t, "cm-startup")
	// The stuck viewer: a connection that asks for the stream and never
	// reads, so the server's writes fill the socket buffers and block. A
	// small receive buffer fills them sooner.
	addr := strings.TrimPrefix(s.ts.URL, "http://")
	stuck, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer stuck.Close()
	stuck.(*net.TCPConn).SetReadBuffer(4 << 10)
	fmt.Fprintf(stuck, "GET /api/events HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
	good := s.connect(t)
	waitFor(t, func() bool { return s.hub.count() == 2 })
	// The good viewer reads as a browser does, all along.
	var seenMu sync.Mutex
	var snapshots int
	var last event
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		for {
			ev, err := good.read()
			if err != nil {
				return
			}
			if ev.name == "snapshot" {
				seenMu.Lock()
				snapshots, last = snapshots+1, ev
				seenMu.Unlock()
			}
		}
	}()
	defer func() { good.close(); <-readerDone }()

	// Step until the stuck viewer has been stuck for a while: each step's
	// snapshot reaches the reading viewer (the pump and the hub go on),
	// and still waits in the stuck viewer's slot (its writer blocks on its
	// socket) — fifteen steps running (some 5 MiB), after ten at least.
	start := time.Now()
	steps, stuckFor, largest, slowest, published := 0, 0, 0, time.Duration(0), 0
	for steps < 10 || stuckFor < 15 {
		if time.Since(start) > 30*time.Second {
			t.Fatalf("after %d steps (%d KiB of snapshots) in %v, the stuck viewer's writer still keeps up", steps, published>>10, time.Since(start))
		}
		t0 := time.Now()
		postState(t, s, "step")
		slowest = max(slowest, time.Since(t0))
		waitState(t, sess, "the step's snapshot", func(st session.State) bool { return st.SnapshotUS == st.ElapsedUS })
		latest := sess.Snapshot()
		waitFor(t, func() bool {
			seenMu.Lock()
			defer seenMu.Unlock()
			return bytes.Equal(last.data, latest.Data)
		})
		largest = max(largest, len(latest.Data))
		published += len(latest.Data)
		steps++
		// The reading viewer took the latest snapshot; a slot that still
		// holds one is the stuck viewer's.
		pending := false
		s.hub.mu.Lock()
		for v := range s.hub.viewers {
			v.mu.Lock()
			pending = pending || v.snap != nil
			v.mu.Unlock()
		}
		s.hub.mu.Unlock()
		if pending {
			stuckFor++
		} else {
			stuckFor = 0
		}
	}
	seenMu.Lock()
	read := snapshots
	seenMu.Unlock()
	t.Logf("%d steps in %v (slowest %v), %d KiB of snapshots published (largest %d KiB), %d read by the reading viewer",
		steps, time.Since(start).Round(time.Millisecond), slowest.Round(time.Millisecond), published>>10, largest>>10, read)
	if slowest > 5*time.Second {
		t.Errorf("a step took %v: a stuck viewer slowed the session", slowest)
	}
	// What the stuck viewer costs is what its leaving frees: its slot and
	// what its writer holds, a few snapshots at most, never all that was
	// published. (The session's own memory, which grows with its spans, is
	// the same before and after.)
	withStuck := heapAlloc()
	stuck.Close()
	waitFor(t, func() bool { return s.hub.count() == 1 })
	freed := withStuck - heapAlloc()
	t.Logf("the stuck viewer held %d KiB", freed>>10)
	if limit := int64(4 * largest); freed > limit {
		t.Errorf("the stuck viewer held %d KiB; want at most a few snapshots (%d KiB)", freed>>10, limit>>10)
	}
}

// heapAlloc is the live heap, after a collection.
func heapAlloc() int64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestStreamOutlivesReadTimeout: the server's ReadTimeout (10 minutes in
// Serve, 100 ms here) bounds reading a request, and does not end an event
// stream that lasts the whole lesson (net/http clears the read deadline
// once the handler runs).
func TestStreamOutlivesReadTimeout(t *testing.T) {
	s := newTestServer(t, Options{})
	s.ts.Close()
	s.ts = httptest.NewUnstartedServer(s.Handler())
	s.ts.Config.ReadTimeout = 100 * time.Millisecond
	s.ts.Start()
	t.Cleanup(func() { s.Close(); s.ts.Close() }) // the streams end first
	e := s.connect(t)
	if m := stateOf(t, e.next(t)); m.Mode != "idle" {
		t.Fatalf("first state %+v", m)
	}
	time.Sleep(300 * time.Millisecond) // three read timeouts: the stream must not notice
	s.start(t, "informer-basics")
	e.until(t, func(ev event) bool { return ev.name == "state" && stateOf(t, ev).Mode == "live" })
}
