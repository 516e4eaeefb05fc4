package session

import (
	"errors"
	"io"
	"time"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/engine"
)

// Options of a session.
type Options struct {
	Scenario *scenarios.Scenario
	// Recording receives the recording as it is made: the same JSON Lines
	// as `kubeloom run` writes. The caller owns it (creates, compresses,
	// closes it after Close).
	Recording          io.Writer
	Seed               int64         // 0: the scenario's spec.seed
	Duration           time.Duration // simulated; 0: the scenario's spec.duration
	AllowHostManifests bool
	WallStart          time.Time // the wall-clock time the session starts (time.Now)
}

// Fastest is the speed "as fast as it goes": simulated time moves as fast
// as the CPU runs the simulation, not paced to the wall clock.
const Fastest = 0

// State is what the page shows of the session beside the timeline.
type State struct {
	Scenario          string        `json:"scenario"`
	Elapsed, Duration time.Duration `json:"-"`
	ElapsedUS         int64         `json:"elapsedUs"` // simulated µs since the start
	DurationUS        int64         `json:"durationUs"`
	Playing           bool          `json:"playing"`
	Speed             float64       `json:"speed"` // simulated seconds per real second; Fastest (0): as fast as it goes
	Spans             int64         `json:"spans"` // ended so far
	Snapshot          uint64        `json:"snapshot"` // Seq of the latest snapshot
	LastAction        string        `json:"lastAction,omitempty"`
	Done              bool          `json:"done"` // the run reached its end (or failed: Err)
	Err               string        `json:"err,omitempty"`
}

// Snapshot is the timeline so far, as the page's data (htmlview's JSON):
// every span that ended, and every goroutine still running drawn up to the
// current instant. Seq grows by one per snapshot.
type Snapshot struct {
	Seq  uint64
	Data []byte
}

// Template is an action the page offers for this scenario: a verb and the
// YAML Act takes for it, with the scenario's own names filled in
// ("stopKubelet: {node: node-1}").
type Template struct {
	Verb string `json:"verb"`
	YAML string `json:"yaml"`
}

// ActError is an action that could not be applied: its YAML is wrong (Pos
// is set: line and column in the YAML given to Act) or the simulation
// refused it (deleting what is gone, stopping a stopped kubelet).
type ActError struct {
	Pos scenarios.Position
	Err error
}

func (e *ActError) Error() string { return e.Err.Error() }
func (e *ActError) Unwrap() error { return e.Err }

// Session is one live run.
type Session struct{}

var errTODO = errors.New("session: being written")

// Start starts a session, paused at the start of simulated time.
func Start(o Options) (*Session, error) { return nil, errTODO }

// Play lets simulated time run at the session's speed.
func (s *Session) Play() error { return errTODO }

// Pause stops simulated time. It returns once the simulation is quiet: no
// span ends after Pause returns until Play or Step.
func (s *Session) Pause() error { return errTODO }

// Step advances simulated time to the next instant at which a span ends,
// and pauses there.
func (s *Session) Step() error { return errTODO }

// SetSpeed sets the pace: simulated seconds per real second, 1 to
// engine.MaxSpeed, or Fastest.
func (s *Session) SetSpeed(speed float64) error { return errTODO }

// Act applies one action now: src is one verb and its value, as a
// scenario's action is written without `at` ("killLeader: {}"). The error
// is an *ActError.
func (s *Session) Act(src []byte) error { return errTODO }

// Templates lists the actions that make sense for this scenario.
func (s *Session) Templates() []Template { return nil }

// State is the session now.
func (s *Session) State() State { return State{} }

// Snapshot is the latest snapshot.
func (s *Session) Snapshot() Snapshot { return Snapshot{} }

// Changed is closed (and replaced) when the state or the snapshot changes.
func (s *Session) Changed() <-chan struct{} { return nil }

// WriteRecording writes the recording so far: the spans that ended.
func (s *Session) WriteRecording(w io.Writer) error { return errTODO }

// WriteHTML writes the self-contained page of the run so far (what
// `kubeloom export --format html` makes of a recording).
func (s *Session) WriteHTML(w io.Writer) error { return errTODO }

// Done is closed when the run has ended: it reached its duration, or failed.
func (s *Session) Done() <-chan struct{} { return nil }

// Close stops the run (if it still runs) and returns its summary once the
// recording is complete.
func (s *Session) Close() (*engine.Summary, error) { return nil, errTODO }
