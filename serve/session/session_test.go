package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
)

// recordingFile is the recording file of a test: written by the run's
// collector, read by the test.
type recordingFile struct {
	t    *testing.T
	path string
}

func (r recordingFile) Bytes() []byte {
	r.t.Helper()
	b, err := os.ReadFile(r.path)
	if err != nil {
		r.t.Fatal(err)
	}
	return b
}

// start starts a session of a built-in, its run in a synctest bubble (a
// test binary cannot use internal/bubble), driven from the test's side
// exactly as serve drives it.
func start(t *testing.T, name string) (*Session, recordingFile) {
	t.Helper()
	sc, err := scenarios.Builtin(name)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name+".jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Start(Options{Scenario: sc, Recording: f, RecordingFile: path, Serial: true,
		Bubble: func(f func()) error { synctest.Test(t, func(*testing.T) { f() }); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(); f.Close() })
	return s, recordingFile{t, path}
}

// snapshotData decodes the parts of a snapshot the tests read.
func snapshotData(t *testing.T, sn Snapshot) (spans, lanes int) {
	t.Helper()
	var d struct {
		Spans int               `json:"spans"`
		Lanes []json.RawMessage `json:"lanes"`
	}
	if err := json.Unmarshal(sn.Data, &d); err != nil {
		t.Fatalf("snapshot %d is not the page's data: %v", sn.Seq, err)
	}
	return d.Spans, len(d.Lanes)
}

// waitFor waits, in real time, until cond holds of the session's state.
func waitFor(t *testing.T, s *Session, what string, cond func(State) bool) State {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := s.Await(ctx, cond)
	if err != nil {
		t.Fatalf("gave up waiting for %s; the state is %+v", what, st)
	}
	return st
}

func TestSessionStartsPausedWithASnapshot(t *testing.T) {
	s, _ := start(t, "informer-basics")
	st := s.State()
	if st.Playing || st.Done || st.Scenario != "informer-basics" || st.Snapshot != 1 {
		t.Errorf("a new session: %+v; want paused, not done, snapshot 1", st)
	}
	spans, lanes := snapshotData(t, s.Snapshot())
	if lanes == 0 {
		t.Errorf("the first snapshot has %d spans and no lanes: the running goroutines should be drawn", spans)
	}
}

func TestSessionPauseMeansPaused(t *testing.T) {
	s, _ := start(t, "informer-basics")
	if err := s.SetSpeed(10); err != nil {
		t.Fatal(err)
	}
	if err := s.Play(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, s, "simulated time to pass 2s", func(st State) bool { return st.Elapsed() > 2*time.Second })
	if err := s.Pause(); err != nil {
		t.Fatal(err)
	}
	paused := waitFor(t, s, "the pause's snapshot", func(st State) bool { return st.SnapshotUS == st.ElapsedUS })
	snap := s.Snapshot()
	time.Sleep(300 * time.Millisecond)
	if now := s.State(); now.ElapsedUS != paused.ElapsedUS || now.Spans != paused.Spans || now.Snapshot != paused.Snapshot {
		t.Errorf("paused at %+v, 300 ms later %+v", paused, now)
	}
	if paused.Playing {
		t.Error("the state says playing after Pause")
	}
	if n, _ := snapshotData(t, snap); int64(n) < paused.Spans {
		t.Errorf("the pause's snapshot has %d spans, the state says %d ended", n, paused.Spans)
	}
}

func TestSessionStep(t *testing.T) {
	s, rec := start(t, "informer-basics")
	before := s.State()
	for i := range 3 {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		st := waitFor(t, s, "the step's snapshot", func(st State) bool { return st.SnapshotUS == st.ElapsedUS })
		if st.Spans <= before.Spans || st.ElapsedUS <= before.ElapsedUS || st.Snapshot <= before.Snapshot || st.Playing {
			t.Fatalf("step %d: from %+v to %+v; want later, more spans, a snapshot of it, paused", i+1, before, st)
		}
		before = st
	}
	// The download in the middle of the run is a valid recording: what
	// the file holds so far (the recorder writes a partial batch within
	// 200 ms of real time).
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var dl bytes.Buffer
		if err := s.WriteRecording(&dl); err != nil {
			t.Fatal(err)
		}
		spans, err := traces.Read(bytes.NewReader(dl.Bytes()), "download")
		if err != nil || !bytes.HasPrefix(rec.Bytes(), dl.Bytes()) {
			t.Fatalf("the download mid-run: %d spans, %v; a prefix of the file: %v", len(spans), err, bytes.HasPrefix(rec.Bytes(), dl.Bytes()))
		}
		if len(spans) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the download mid-run has no span 10 s after three steps")
		}
	}
}

func TestSessionActAndRecording(t *testing.T) {
	s, rec := start(t, "cm-leader-failover")
	if err := s.SetSpeed(Fastest); err != nil {
		t.Fatal(err)
	}
	if err := s.Play(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, s, "20s", func(st State) bool { return st.Elapsed() > 20*time.Second })
	if err := s.Pause(); err != nil {
		t.Fatal(err)
	}
	at := s.State().Elapsed()
	if err := s.Act([]byte("killLeader: {}")); err != nil {
		t.Fatal(err)
	}
	var ae *ActError
	if err := s.Act([]byte("stopKubelet: {node: node-1}")); !errors.As(err, &ae) || !strings.HasPrefix(err.Error(), "action:1:1: stopKubelet: needs spec.kubelets") {
		t.Errorf("stopKubelet without kubelets: %v; want the loader's error at action:1:1", err)
	}
	if err := s.Act([]byte("delete: {kind: Pod, namespace: default, name: nope}")); !errors.As(err, &ae) || !strings.Contains(err.Error(), "not found") {
		t.Errorf("deleting what is not there: %v; want why it failed", err)
	}
	if err := s.SetSpeed(0.5); err == nil {
		t.Error("speed 0.5 accepted")
	}
	if err := s.Play(); err != nil {
		t.Fatal(err)
	}
	<-s.Done()
	st := waitFor(t, s, "the end", func(st State) bool { return st.Done })
	if st.Err != "" || st.Elapsed() != 3*time.Minute {
		t.Errorf("ended at %v with %q; want 3m, no error", st.Elapsed(), st.Err)
	}
	if err := s.Play(); !errors.Is(err, ErrEnded) {
		t.Errorf("Play after the end: %v", err)
	}
	sum, err := s.Close()
	if err != nil || sum.Actions != 4 {
		t.Fatalf("Close: %v, %d actions; want 4 (2 applied, 2 scheduled)", err, sum.Actions)
	}
	// The file, the page's download and the last snapshot agree.
	spans, err := traces.Read(bytes.NewReader(rec.Bytes()), "recording")
	if err != nil {
		t.Fatal(err)
	}
	var dl bytes.Buffer
	if err := s.WriteRecording(&dl); err != nil || !bytes.Equal(dl.Bytes(), rec.Bytes()) {
		t.Errorf("the download (%d bytes, %v) is not the recording (%d bytes)", dl.Len(), err, len(rec.Bytes()))
	}
	if n, _ := snapshotData(t, s.Snapshot()); n != len(spans) {
		t.Errorf("the last snapshot has %d spans, the recording %d", n, len(spans))
	}
	if st := s.State(); st.SnapshotUS != st.ElapsedUS {
		t.Errorf("the last snapshot shows %dµs, the run ended at %dµs", st.SnapshotUS, st.ElapsedUS)
	}
	live := 0
	for _, sp := range spans {
		if v, _ := sp.Attributes[catalog.AttrActionLive].(bool); v && sp.Name == "action/killLeader" {
			live++
			if got, _ := sp.Attributes.Float(catalog.AttrActionAt); got != at.Seconds() {
				t.Errorf("the killLeader given at %v is recorded at %vs", at, got)
			}
		}
		if _, ok := sp.Attributes[catalog.AttrRunning]; ok {
			t.Errorf("the recording has a span marked %s: %s", catalog.AttrRunning, sp.Name)
		}
	}
	if live != 2 { // one per era
		t.Errorf("%d live killLeader spans, want 2", live)
	}
	var page bytes.Buffer
	if err := s.WriteHTML(&page); err != nil || !bytes.Contains(page.Bytes(), []byte("cm-leader-failover")) {
		t.Errorf("WriteHTML: %v, %d bytes", err, page.Len())
	}
}

// Closing a session in the middle of its run stops it with a complete
// recording.
func TestSessionCloseMidRun(t *testing.T) {
	s, rec := start(t, "cluster-basics")
	if err := s.Step(); err != nil {
		t.Fatal(err)
	}
	sum, err := s.Close()
	if err != nil || !sum.Cancelled && sum.Duration >= 6*time.Minute {
		t.Fatalf("Close mid-run: %v, %+v", err, sum)
	}
	if _, err := traces.Read(bytes.NewReader(rec.Bytes()), "recording"); err != nil {
		t.Errorf("the recording of a closed session: %v", err)
	}
	if err := s.Step(); !errors.Is(err, ErrEnded) {
		t.Errorf("Step after Close: %v", err)
	}
}
