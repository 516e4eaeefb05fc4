package serve

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/kubeloom/kubeloom/serve/session"
)

// live is the session the server runs, with its recording on disk and the
// pump that carries its changes to the hub.
type live struct {
	sess     *session.Session
	name     string // the scenario's name
	file     *diskRecording
	stop     chan struct{} // closed to stop the pump
	pumpDone chan struct{}
	sent     uint64 // the session's Seq of the latest snapshot sent (Server.mu)
}

// viewSource is what the pages show.
type viewSource int

const (
	viewLive      viewSource = iota // the session's snapshots
	viewRecording                   // a recording opened with /api/open
)

// stateMsg is the "state" event: the session's state, and what the pages
// show.
type stateMsg struct {
	session.State
	// Mode is "idle" before the first session, "live" while the pages
	// show the session, "recording" while they show an opened recording.
	Mode string `json:"mode"`
	// Recording is the name of the opened recording, in mode "recording".
	Recording string `json:"recording,omitempty"`
	// File is where the session records on this machine.
	File string `json:"file,omitempty"`
	// View is the id of the latest snapshot event: the page has the
	// snapshot this state goes with when it has the event of this id.
	View uint64 `json:"view"`
}

// pumpInterval is the shortest time between two messages of a session: a
// session changes with every span that ends, and a page needs at most a
// few snapshots a second to look live (the session makes about five).
const pumpInterval = 50 * time.Millisecond

// pump carries the session's changes to the hub until l.stop, at most one
// state and one snapshot per pumpInterval: the latest of them.
func (s *Server) pump(l *live) {
	defer close(l.pumpDone)
	defer s.pumps.Done()
	done := l.sess.Done()
	for {
		changed := l.sess.Changed() // before reading, so no change is missed
		s.publishState()
		select {
		case <-changed:
		case <-done:
			done = nil // once: then wait for changes (a recording's download) or the end
		case <-l.stop:
			return
		}
		t := time.NewTimer(pumpInterval)
		select {
		case <-t.C:
		case <-l.stop:
			t.Stop()
			return
		}
	}
}

// liveSnapshot sends l's snapshot snap to the pages if they show l and
// have not had it. s.mu is held.
func (s *Server) liveSnapshotLocked(l *live, snap session.Snapshot) {
	if s.live != l || s.view != viewLive || snap.Seq == l.sent || snap.Data == nil {
		return
	}
	l.sent = snap.Seq
	s.sendSnapshotLocked(snap.Data)
}

// sendSnapshotLocked frames data once, as the next snapshot event, for
// every viewer to share. s.mu is held.
func (s *Server) sendSnapshotLocked(data []byte) {
	s.seq++
	s.hub.publish(nil, frame("snapshot", s.seq, data))
}

// publishState sends the state as it is now. Publishers take turns
// (pubMu), so that a state read earlier is never sent after a later one.
//
// A live session's state and its snapshot are read together (Current), and
// the snapshot is sent first if the pages have not had it, so that a state
// never names (View) an older snapshot than the one it describes
// (SnapshotUS): a page that has the snapshot a state names shows exactly
// that state. Whoever publishes (the pump, a control's handler) goes
// through here.
func (s *Server) publishState() {
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	s.mu.Lock()
	var st *session.State
	if l := s.live; l != nil && s.view == viewLive {
		now, snap := l.sess.Current()
		st = &now
		s.liveSnapshotLocked(l, snap)
	}
	m := stateMsg{Mode: "idle", View: s.seq}
	l := s.live
	switch {
	case s.view == viewRecording && s.opened != nil:
		m.Mode, m.Recording = "recording", s.opened.name
		m.Scenario, m.Spans, m.DurationUS, m.ElapsedUS, m.Done = s.opened.scenario, s.opened.spans, s.opened.durationUS, s.opened.durationUS, true
	case l != nil:
		m.Mode, m.File = "live", l.file.path
	}
	s.mu.Unlock()
	if m.Mode == "live" {
		if st == nil {
			now := l.sess.State()
			st = &now
		}
		m.State = *st
		m.State.Snapshot = 0 // the session's own count; View is the pages'
	}
	b, err := json.Marshal(m)
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hub.publish(frame("state", m.View, b), nil)
}

// current is the session, or an error for the page when there is none.
func (s *Server) current() (*live, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.live == nil {
		return nil, errNoSession
	}
	return s.live, nil
}

var errNoSession = errors.New("no session yet: pick a scenario and start it first")

// showLive makes the pages show the session again after an opened
// recording (play and step do): its latest snapshot at once.
func (s *Server) showLive(l *live) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.view == viewLive || s.live != l {
		return
	}
	s.view = viewLive
	if snap := l.sess.Snapshot(); snap.Data != nil {
		s.sendSnapshotLocked(snap.Data)
	}
}

// stop stops l's pump and closes its session, then its recording, which is
// then complete.
func (s *Server) stop(l *live) error {
	close(l.stop)
	<-l.pumpDone
	sum, err := l.sess.Close()
	ferr := l.file.Close()
	if err == nil && ferr == nil {
		spans := int64(0)
		if sum != nil {
			spans = sum.Spans
		}
		s.logf("session %s ended: %d spans recorded in %s\n", l.name, spans, l.file.path)
	}
	return errors.Join(err, ferr)
}
