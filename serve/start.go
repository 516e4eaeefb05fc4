package serve

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"
	"strings"

	"github.com/kubeloom/kubeloom/internal/printable"
	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/serve/session"
	"github.com/kubeloom/kubeloom/sim/engine"
)

// pastedName is the name a pasted scenario goes by in its errors.
const pastedName = "pasted.yaml"

// problem is one line of a scenario's errors, with its place when it has
// one, so that the page can mark the line of the paste box.
type problem struct {
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	Text   string `json:"text"`
}

// startHandler is POST /api/session: ?builtin=NAME starts a built-in; else
// the body is a scenario file (?file=NAME.yaml names it in errors). The
// errors are those `kubeloom scenarios validate` prints, file:line:col
// first, with what does not print escaped.
func (s *Server) startHandler(w http.ResponseWriter, r *http.Request) {
	sc, err := s.readScenario(w, r)
	if err != nil {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"error": err.Error(), "problems": problems(err)})
		return
	}
	l, err := s.startScenario(sc)
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"scenario": l.name, "file": l.file.path})
}

// readScenario reads and checks the scenario a request names or carries,
// as `kubeloom run` would.
func (s *Server) readScenario(w http.ResponseWriter, r *http.Request) (*scenarios.Scenario, error) {
	if name := r.URL.Query().Get("builtin"); name != "" {
		return scenarios.Builtin(name)
	}
	// One byte past the limit, so that Parse says the file is too large
	// as validate does; the rest of a larger body is never read (the
	// server closes the connection rather than read it).
	data, err := io.ReadAll(io.LimitReader(r.Body, scenarios.MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	file := uploadName(r.URL.Query().Get("file"), pastedName)
	sc, err := scenarios.Parse(file, data)
	if err != nil {
		return nil, err
	}
	// A scenario sent to the page has no folder of its own: a relative
	// manifestDir would read the folder kubeloom serve runs in.
	if k := sc.Spec.Kubelets; k != nil && k.ManifestDir != "" && !s.o.AllowHostManifests {
		return nil, fmt.Errorf("%s: spec.kubelets.manifestDir: a scenario sent to the page has no folder to read manifests from; run it with kubeloom run FILE, or start kubeloom serve with --allow-host-manifests to read them from the folder it runs in",
			k.ManifestDirPos)
	}
	if err := engine.Check(sc, engine.AllowHostManifests(s.o.AllowHostManifests)); err != nil {
		return nil, err
	}
	return sc, nil
}

// uploadName is the base name a browser gave a file, made printable, or
// def when it gave none.
func uploadName(name, def string) string {
	name = path.Base(strings.ReplaceAll(name, `\`, "/"))
	if name == "." || name == "/" || name == "" {
		return def
	}
	if len(name) > 100 {
		name = name[:100]
	}
	return printable.String(name)
}

// problems splits a scenario's errors into their lines, with the place of
// each that has one.
func problems(err error) []problem {
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else {
		errs = []error{err}
	}
	var out []problem
	for _, e := range errs {
		p := problem{Text: e.Error()}
		var se *scenarios.Error
		if errors.As(e, &se) {
			p.Line, p.Column = se.Pos.Line, se.Pos.Column
		}
		out = append(out, p)
	}
	return out
}

// startScenario closes the session that runs, if any (its recording complete), and
// starts sc, paused at its beginning, recording under Options.Dir.
func (s *Server) startScenario(sc *scenarios.Scenario) (*live, error) {
	s.startMu.Lock()
	defer s.startMu.Unlock()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, errors.New("the server is shutting down")
	}
	old := s.live
	s.live = nil
	s.mu.Unlock()
	if old != nil {
		if err := s.stop(old); err != nil {
			s.logf("warning: the session %s ended with an error: %v\n", old.name, err)
		}
	}
	now := s.o.now()
	file, err := createDiskRecording(s.o.Dir, sc.Metadata.Name, now, s.o.Compress)
	if err != nil {
		return nil, err
	}
	// In turns as `kubeloom run` would run it (the server shares the
	// process's cores, so a session repeats the order of each instant's
	// goroutines, if not every interleaving).
	sess, err := session.Start(session.Options{Scenario: sc, Recording: file, RecordingFile: file.path,
		AllowHostManifests: s.o.AllowHostManifests, WallStart: now, Serial: !engine.WantsEveryCore(sc), Bubble: s.o.Bubble})
	if err != nil {
		file.Close()
		return nil, fmt.Errorf("failed to start %s: %w", sc.Metadata.Name, err)
	}
	l := &live{sess: sess, name: sc.Metadata.Name, file: file, stop: make(chan struct{}), pumpDone: make(chan struct{})}
	s.mu.Lock()
	s.live, s.view = l, viewLive
	s.mu.Unlock()
	s.logf("session %s: recording to %s\n", l.name, file.path)
	s.pumps.Add(1)
	go s.pump(l)
	return l, nil
}
