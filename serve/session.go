package serve

import (
	"io"

	"github.com/kubeloom/kubeloom/serve/session"
	"github.com/kubeloom/kubeloom/sim/engine"
)

// Session is what the server asks of a live run: *session.Session. It is
// an interface so that the server's tests can drive a session whose state
// they choose, at the instant they choose.
type Session interface {
	Play() error
	Pause() error
	Step() error
	SetSpeed(speed float64) error
	Act(src []byte) error
	Templates() []session.Template
	State() session.State
	Current() (session.State, session.Snapshot)
	Snapshot() session.Snapshot
	Changed() <-chan struct{}
	WriteRecording(w io.Writer) error
	WriteHTML(w io.Writer) error
	Done() <-chan struct{}
	Close() (*engine.Summary, error)
}

var _ Session = (*session.Session)(nil)

// startSession is session.Start as a Session.
func startSession(o session.Options) (Session, error) {
	s, err := session.Start(o)
	if err != nil {
		return nil, err
	}
	return s, nil
}
