package session

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/engine"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/htmlview"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// Options of a session.
type Options struct {
	Scenario *scenarios.Scenario
	// Recording receives the recording as it is made: the same JSON Lines
	// as `kubeloom run` writes, whole lines at a time, so that the file is
	// valid whenever it is read. The caller owns it (creates, compresses,
	// closes it after Close).
	Recording io.Writer
	// RecordingFile is the file Recording writes (plain or compressed),
	// which WriteRecording reads back for the page's download.
	RecordingFile      string
	Seed               int64         // 0: the scenario's spec.seed
	Duration           time.Duration // simulated; 0: the scenario's spec.duration
	AllowHostManifests bool
	WallStart          time.Time // the wall-clock time the session starts (time.Now)
	// Serial runs the goroutines of an instant in turns (engine.Options.Serial):
	// with the process on one core, the same session gives the same run.
	Serial bool

	// Bubble, if set, is how the run gets its testing/synctest bubble
	// (engine.Options.Bubble): a test binary cannot use the default,
	// internal/bubble, and passes one that calls synctest.Test. Whatever the
	// bubble, the session drives the run from outside it, as serve does.
	Bubble func(f func()) error
}

// Fastest is the speed "as fast as it goes": simulated time moves as fast
// as the CPU runs the simulation, not paced to the wall clock.
const Fastest = 0

// ErrEnded is what a control gets once the run has ended.
var ErrEnded = errors.New("the run has ended")

// State is what the page shows of the session beside the timeline.
type State struct {
	Scenario   string  `json:"scenario"`
	ElapsedUS  int64   `json:"elapsedUs"`  // simulated µs since the start
	DurationUS int64   `json:"durationUs"` // the run's simulated length
	Playing    bool    `json:"playing"`
	Speed      float64 `json:"speed"`      // simulated seconds per real second; Fastest (0): as fast as it goes
	Spans      int64   `json:"spans"`      // ended so far
	Snapshot   uint64  `json:"snapshot"`   // Seq of the latest snapshot
	SnapshotUS int64   `json:"snapshotUs"` // the simulated instant it shows (µs since the start)
	LastAction string  `json:"lastAction,omitempty"`
	Done       bool    `json:"done"` // the run reached its end, was closed, or failed (Err)
	Err        string  `json:"err,omitempty"`
}

// Elapsed is the simulated time since the start.
func (s State) Elapsed() time.Duration { return time.Duration(s.ElapsedUS) * time.Microsecond }

// Snapshot is the timeline so far, as the page's data (htmlview.WriteData):
// every span that ended, and every goroutine still running drawn up to the
// current instant (catalog.AttrRunning). Seq grows by one per snapshot.
type Snapshot struct {
	Seq  uint64
	Data []byte
}

// ActError is an action that could not be applied: its YAML is wrong (the
// error is the loader's, at action:line:col) or the simulation refused it
// (deleting what is gone, stopping a stopped kubelet).
type ActError struct {
	Err error
}

func (e *ActError) Error() string { return e.Err.Error() }
func (e *ActError) Unwrap() error { return e.Err }

// Session is one live run: a run in virtual time under an engine.Control,
// whose pacer goroutine (outside the run's bubble) is the only one that
// commands it. The page's requests reach the pacer over reqs, so that a
// click and the pacing never race.
type Session struct {
	sc       *scenarios.Scenario
	duration time.Duration
	ctl      *engine.Control
	live     *liveSpans
	builder  *builder
	file     string

	reqs      chan request
	quit      chan struct{}
	closeOnce sync.Once
	pacerDone chan struct{}
	runDone   chan struct{}
	sum       *engine.Summary
	runErr    error

	mu      sync.Mutex
	state   State
	snap    Snapshot
	spans   []traces.Span // the latest snapshot's
	changed chan struct{}
}

type request struct {
	do    func(p *pacer) error
	reply chan error
}

// Start starts a session, paused at the start of simulated time: the
// components have started and the first snapshot is there when it returns.
func Start(o Options) (*Session, error) {
	sc := o.Scenario
	if sc == nil {
		return nil, errors.New("session: no scenario")
	}
	if o.Recording == nil {
		return nil, errors.New("session: no recording")
	}
	if err := engine.Check(sc, engine.AllowHostManifests(o.AllowHostManifests)); err != nil {
		return nil, err
	}
	s := &Session{
		sc: sc, duration: cmp.Or(o.Duration, sc.Spec.Duration),
		ctl: engine.NewControl(), live: newLiveSpans(), file: o.RecordingFile,
		reqs: make(chan request), quit: make(chan struct{}), pacerDone: make(chan struct{}), runDone: make(chan struct{}),
		changed: make(chan struct{}),
	}
	s.builder = newBuilder(s)
	speed := float64(sc.Spec.Speed)
	if speed <= 0 {
		speed = 1
	}
	s.state = State{Scenario: sc.Metadata.Name, DurationUS: s.duration.Microseconds(), Speed: speed}
	go func() {
		defer close(s.runDone)
		s.sum, s.runErr = engine.RunVirtual(context.Background(), engine.Options{
			Scenario: sc, Recording: o.Recording, Seed: o.Seed, Duration: o.Duration, AllowHostManifests: o.AllowHostManifests,
			WallStart: o.WallStart, Serial: o.Serial, Control: s.ctl, Observe: s.live, Bubble: o.Bubble,
		})
	}()
	p := &pacer{s: s, speed: speed}
	// The first command returns once the components have started and the
	// run is quiet at its first instant.
	r, err := s.ctl.Advance(context.Background(), 0)
	if err != nil {
		<-s.runDone
		return nil, cmp.Or(s.runErr, err)
	}
	go s.builder.run(s.quit)
	p.reached(r, true)
	go p.run()
	// The first snapshot, built beside the run.
	s.Await(context.Background(), func(st State) bool { return st.Snapshot > 0 || st.Err != "" })
	return s, nil
}

// call runs do on the pacer and returns its error.
func (s *Session) call(do func(p *pacer) error) error {
	req := request{do: do, reply: make(chan error, 1)}
	select {
	case s.reqs <- req:
		return <-req.reply
	case <-s.pacerDone:
		return ErrEnded
	}
}

// Play lets simulated time run at the session's speed.
func (s *Session) Play() error { return s.call((*pacer).play) }

// Pause stops simulated time. It returns once the simulation is quiet: no
// span ends after Pause returns until Play or Step.
func (s *Session) Pause() error { return s.call((*pacer).pause) }

// Step pauses, advances simulated time to the next instant at which a span
// ends (engine.Control.Step), and pauses there.
func (s *Session) Step() error { return s.call((*pacer).step) }

// SetSpeed sets the pace: simulated seconds per real second, from 1 to
// engine.MaxSpeed, or Fastest.
func (s *Session) SetSpeed(speed float64) error {
	if speed != Fastest && (speed < 1 || speed > engine.MaxSpeed) {
		return fmt.Errorf("invalid speed %v: expected 1 to %d simulated seconds per second, or 0 for as fast as it goes", speed, engine.MaxSpeed)
	}
	return s.call(func(p *pacer) error { return p.setSpeed(speed) })
}

// Act applies one action now: src is one verb and its value, as a
// scenario's action is written without `at` ("killLeader: {}"), checked as
// the loader checks one (scenarios.ParseAction, errors at action:line:col).
// It is recorded like a scheduled action, marked catalog.AttrActionLive.
// The error is an *ActError.
func (s *Session) Act(src []byte) error { return s.call(func(p *pacer) error { return p.act(src) }) }

// State is the session now.
func (s *Session) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

// Snapshot is the latest snapshot.
func (s *Session) Snapshot() Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.snap
}

// Current is the state and the latest snapshot, read together: the state's
// SnapshotUS is that snapshot's instant.
func (s *Session) Current() (State, Snapshot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state, s.snap
}

// Await waits until cond holds of the state, and returns that state; or
// until ctx ends.
func (s *Session) Await(ctx context.Context, cond func(State) bool) (State, error) {
	for {
		ch := s.Changed() // before reading, so that no change is missed
		if st := s.State(); cond(st) {
			return st, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return s.State(), ctx.Err()
		}
	}
}

// Changed is closed (and replaced) when the state or the snapshot changes.
func (s *Session) Changed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

// WriteRecording writes the recording so far, read back from
// Options.RecordingFile: every span that ended and has been written (whole
// lines: a valid recording at any moment), plain JSON Lines.
func (s *Session) WriteRecording(w io.Writer) error { return writeRecording(w, s.file) }

// WriteHTML writes the self-contained page of the latest snapshot: what
// `kubeloom export --format html` makes of a recording, with the
// goroutines still running drawn up to the snapshot's instant.
func (s *Session) WriteHTML(w io.Writer) error {
	s.mu.Lock()
	spans := s.spans
	s.mu.Unlock()
	return htmlview.Write(w, timeline.Build(spans))
}

// Done is closed when the run has ended: it reached its duration, was
// closed, or failed.
func (s *Session) Done() <-chan struct{} { return s.runDone }

// Close stops the run (if it still runs) and returns its summary once the
// recording is complete.
func (s *Session) Close() (*engine.Summary, error) {
	s.closeOnce.Do(func() {
		close(s.quit)
		<-s.pacerDone
		s.ctl.Stop()
	})
	<-s.runDone
	<-s.builder.done
	return s.sum, s.runErr
}

// publish sets the state and, when snap is set, the snapshot, and tells
// whoever waits on Changed.
func (s *Session) publish(update func(*State), snap *Snapshot, spans []traces.Span) {
	s.mu.Lock()
	update(&s.state)
	if snap != nil {
		s.snap, s.spans = *snap, spans
		s.state.Snapshot = snap.Seq
	}
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
}
