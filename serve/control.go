package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/serve/session"
	"github.com/kubeloom/kubeloom/sim/engine"
)

// maxActBody is the largest action POST /api/act takes: one verb's YAML,
// a create's object at most, far below a scenario file's limit.
const maxActBody = 64 << 10

// withSession runs f on the session and answers with the state after it,
// or with why it could not.
func (s *Server) withSession(w http.ResponseWriter, f func(*live) error) {
	l, err := s.current()
	if err != nil {
		httpError(w, http.StatusConflict, err.Error())
		return
	}
	if err := f(l); err != nil {
		httpError(w, http.StatusConflict, err.Error())
		return
	}
	s.publishState()
	writeJSON(w, http.StatusOK, l.sess.State())
}

func (s *Server) play(w http.ResponseWriter, _ *http.Request) {
	s.withSession(w, func(l *live) error {
		s.showLive(l)
		return l.sess.Play()
	})
}

func (s *Server) pause(w http.ResponseWriter, _ *http.Request) {
	s.withSession(w, func(l *live) error { return l.sess.Pause() })
}

func (s *Server) step(w http.ResponseWriter, _ *http.Request) {
	s.withSession(w, func(l *live) error {
		s.showLive(l)
		return l.sess.Step()
	})
}

// speed is POST /api/speed, {"speed": N}: simulated seconds per real
// second, 1 to engine.MaxSpeed, or 0 for as fast as it goes.
func (s *Server) speed(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Speed *float64 `json:"speed"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<10)).Decode(&body); err != nil || body.Speed == nil {
		httpError(w, http.StatusBadRequest, `expected {"speed": N}`)
		return
	}
	v := *body.Speed
	if v != session.Fastest && (v < 1 || v > engine.MaxSpeed) {
		httpError(w, http.StatusBadRequest, fmt.Sprintf("speed %g: expected 1 to %d, or 0 for as fast as it goes", v, engine.MaxSpeed))
		return
	}
	s.withSession(w, func(l *live) error { return l.sess.SetSpeed(v) })
}

// act is POST /api/act: the body is one verb's YAML ("killLeader: {}"),
// applied now. A refused action answers 422 with why, and where in the
// YAML when the YAML is wrong.
func (s *Server) act(w http.ResponseWriter, r *http.Request) {
	src, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxActBody))
	if err != nil {
		httpError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("an action is at most %d KiB", maxActBody>>10))
		return
	}
	l, err := s.current()
	if err != nil {
		httpError(w, http.StatusConflict, err.Error())
		return
	}
	if err := l.sess.Act(src); err != nil {
		ans := map[string]any{"error": err.Error()}
		// The loader's errors are at action:line:col, for the page to
		// mark the line of its YAML box.
		var se *scenarios.Error
		if errors.As(err, &se) && se.Pos.Line > 0 {
			ans["line"], ans["column"] = se.Pos.Line, se.Pos.Column
		}
		writeJSON(w, http.StatusUnprocessableEntity, ans)
		return
	}
	s.publishState()
	writeJSON(w, http.StatusOK, l.sess.State())
}

// templates is GET /api/templates: the actions the session's scenario
// offers, none before a session.
func (s *Server) templates(w http.ResponseWriter, _ *http.Request) {
	t := []session.Template{}
	if l, err := s.current(); err == nil {
		t = append(t, l.sess.Templates()...)
	}
	writeJSON(w, http.StatusOK, map[string]any{"templates": t})
}
