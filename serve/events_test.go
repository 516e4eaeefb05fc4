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
	var ev event
	for {
		line, err := e.r.ReadBytes('\n')
		if err != nil {
			t.Fatalf("reading the event stream: %v", err)
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		switch {
		case len(line) == 0:
			if ev.name != "" {
				return ev
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

// until reads events until one satisfies ok.
func (e *sse) until(t *testing.T, ok func(event) bool) event {
	t.Helper()
	for i := 0; i < 1000; i++ {
		if ev := e.next(t); ok(ev) {
			return ev
		}
	}
	t.Fatal("no such event in 1000")
	return event{}
}

func stateOf(t *testing.T, ev event) stateMsg {
	t.Helper()
	var m stateMsg
	if err := json.Unmarshal(ev.data, &m); err != nil {
		t.Fatalf("state %s: %v", ev.data, err)
	}
	return m
}

func TestEventsCatchUp(t *testing.T) {
	s := newTestServer(t, Options{})
	first := s.connect(t)
	if m := stateOf(t, first.next(t)); m.Mode != "idle" {
		t.Errorf("before a session the state is %+v, want mode idle", m)
	}
	s.do(t, "POST", "/api/session?builtin=informer-basics", s.Token(), "")
	f := s.session(0)
	f.set(func(st *session.State, snap *session.Snapshot) {
		st.Spans, st.ElapsedUS = 42, 3_000_000
		snap.Seq, snap.Data = 1, []byte(`{"v":1,"scenario":"informer-basics","spans":42}`)
	})
	ev := first.until(t, func(ev event) bool { return ev.name == "snapshot" })
	if !bytes.Contains(ev.data, []byte(`"spans":42`)) {
		t.Errorf("snapshot %s", ev.data)
	}
	first.until(t, func(ev event) bool { return ev.name == "state" && stateOf(t, ev).Spans == 42 })

	// A viewer that connects now, or reconnects, gets the latest snapshot
	// and state first.
	late := s.connect(t)
	snap, st := late.next(t), late.next(t)
	if snap.name != "snapshot" || !bytes.Contains(snap.data, []byte(`"spans":42`)) {
		t.Errorf("a late viewer's first event: %s %s, want the latest snapshot", snap.name, snap.data)
	}
	if m := stateOf(t, st); st.name != "state" || m.Spans != 42 || m.Mode != "live" || fmt.Sprint(m.View) != snap.id {
		t.Errorf("a late viewer's second event: %s %+v, want the latest state naming snapshot %s", st.name, m, snap.id)
	}
}

// TestSlowViewer: a viewer that never reads holds at most the latest
// messages; it stalls neither the session's pump nor another viewer, and
// memory stays bounded however much is published.
func TestSlowViewer(t *testing.T) {
	s := newTestServer(t, Options{})
	s.do(t, "POST", "/api/session?builtin=informer-basics", s.Token(), "")
	f := s.session(0)
	// The stuck viewer: a connection that asks for the stream and never
	// reads, so the server's writes fill the socket buffers and block.
	addr := strings.TrimPrefix(s.ts.URL, "http://")
	stuck, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer stuck.Close()
	fmt.Fprintf(stuck, "GET /api/events HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
	good := s.connect(t)
	waitFor(t, func() bool { return s.hub.count() == 2 })

	const size = 1 << 20
	const n = 200 // 200 MiB published in all
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	for i := 1; i <= n; i++ {
		data := bytes.Repeat([]byte{'a' + byte(i%26)}, size)
		copy(data, fmt.Sprintf(`{"seq":%d}`, i))
		f.set(func(st *session.State, snap *session.Snapshot) {
			st.Spans, snap.Seq, snap.Data = int64(i), uint64(i), data
		})
		s.publishState() // as the pump does, without its pacing
	}
	publishing := time.Since(start)
	// The good viewer gets the last snapshot.
	good.until(t, func(ev event) bool {
		return ev.name == "snapshot" && bytes.HasPrefix(ev.data, []byte(fmt.Sprintf(`{"seq":%d}`, n)))
	})
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("published %d MiB to a stuck viewer and a reading one in %v; the heap grew %d KiB", n*size>>20, publishing, grown>>10)
	// The latest snapshot (in the hub, framed, and maybe a second in a
	// slot not yet written) and the stuck writer's: a few MiB, never n.
	if grown > 16*size {
		t.Errorf("the heap grew %d MiB with a stuck viewer; want it bounded by a few snapshots", grown>>20)
	}
	if publishing > 20*time.Second {
		t.Errorf("publishing took %v: a stuck viewer slowed the session", publishing)
	}
}

func TestViewerSlotKeepsTheLatest(t *testing.T) {
	h := newHub()
	v := h.join()
	for i := 0; i < 100; i++ {
		h.publishState([]byte(fmt.Sprint("state ", i)))
		h.publishSnapshot([]byte(fmt.Sprint("snap ", i)))
	}
	msgs := v.take()
	if len(msgs) != 2 || string(msgs[0]) != "snap 99" || string(msgs[1]) != "state 99" {
		t.Errorf("a slow viewer's pending messages: %q, want only the latest snapshot and state", msgs)
	}
	if len(v.take()) != 0 {
		t.Error("take did not empty the slot")
	}
	h.leave(v)
	if h.count() != 0 {
		t.Error("leave kept the viewer")
	}
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
	s.do(t, "POST", "/api/session?builtin=informer-basics", s.Token(), "")
	e.until(t, func(ev event) bool { return ev.name == "state" && stateOf(t, ev).Mode == "live" })
}
