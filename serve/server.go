package serve

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/kubeloom/kubeloom/sim/catalog/locale"
)

// Options of a server. The zero value serves in English, records plain
// JSON Lines under ./recordings and binds nothing (Serve takes a listener).
type Options struct {
	// Dir is the folder of the sessions' recordings; "" is "recordings".
	Dir string
	// Compress writes the recordings with zstd (.jsonl.zst).
	Compress bool
	// Lang is the page's first language (a code of sim/catalog/locale);
	// the page can switch. "" is English.
	Lang string
	// AllowHostManifests lets a scenario's manifestDir leave its folder
	// (engine.AllowHostManifests): a pasted scenario has no folder, so
	// without it a pasted scenario may not read manifests at all.
	AllowHostManifests bool
	// Loopback says the listener is on loopback only: then requests must
	// name a loopback host (no DNS rebinding).
	Loopback bool
	// Logf reports what the teacher's terminal should see (a recording
	// started, a session ended); nil is silence.
	Logf func(format string, args ...any)

	// Bubble, if set, is how each session's run gets its testing/synctest
	// bubble (session.Options.Bubble): tests, whose binary cannot use the
	// default, pass one that calls synctest.Test.
	Bubble func(f func()) error

	// now is the wall clock (recording names); nil is time.Now.
	now func() time.Time
	// maxRecording is the largest upload of /api/open; 0 is MaxRecording.
	maxRecording int64
	// script and style give the page's bundle and style; nil are the
	// ones built into the binary (bundle.go).
	script func(name string) (string, bool)
	style  func() string
}

// Server is kubeloom's web application. Create it with New, serve it with
// Serve (or its Handler, in tests), and Close it to end the session with
// its recording complete.
type Server struct {
	o       Options
	token   string
	hub     *hub
	mux     *http.ServeMux
	closing chan struct{}

	startMu sync.Mutex // one session starts at a time
	openMu  sync.Mutex // one recording is read at a time (open)
	pubMu   sync.Mutex // one state is published at a time (publishState)
	mu      sync.Mutex
	live    *live      // the session, nil before the first
	view    viewSource // what the pages show: the session or an opened recording
	closed  bool
	seq     uint64 // the hub's snapshot sequence: one per snapshot sent
	opened  *openedRecording
	pumps   sync.WaitGroup
	closeMu sync.Once
}

// New makes a server with a new control token.
func New(o Options) *Server {
	if o.Dir == "" {
		o.Dir = "recordings"
	}
	if o.now == nil {
		o.now = time.Now
	}
	if o.script == nil {
		o.script = bundledScript
	}
	if o.maxRecording == 0 {
		o.maxRecording = MaxRecording
	}
	if o.style == nil {
		o.style = bundledStyle
	}
	if _, err := locale.Check(o.Lang); err != nil || o.Lang == "" {
		o.Lang = locale.Reference
	}
	s := &Server{o: o, token: newToken(), hub: newHub(), closing: make(chan struct{})}
	s.routes()
	s.publishState()
	return s
}

// Token is the control token: the page that sends it may play, pause and
// act.
func (s *Server) Token() string { return s.token }

// Handler is the application with its guard (loopback names, security
// headers).
func (s *Server) Handler() http.Handler { return s.guard(s.mux) }

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", s.page)
	m.HandleFunc("GET /assets/{name}", s.asset)
	m.HandleFunc("GET /api/scenarios", s.scenarios)
	m.HandleFunc("GET /api/templates", s.templates)
	m.HandleFunc("GET /api/events", s.events)
	m.HandleFunc("GET /api/recording", s.recording)
	m.HandleFunc("GET /api/export", s.export)
	m.HandleFunc("POST /api/token", s.control(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	m.HandleFunc("POST /api/session", s.control(s.startHandler))
	m.HandleFunc("POST /api/play", s.control(s.play))
	m.HandleFunc("POST /api/pause", s.control(s.pause))
	m.HandleFunc("POST /api/step", s.control(s.step))
	m.HandleFunc("POST /api/speed", s.control(s.speed))
	m.HandleFunc("POST /api/act", s.control(s.act))
	m.HandleFunc("POST /api/open", s.control(s.open))
	// Anything else is not the application: a plain 404, no listing.
	m.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		httpError(w, http.StatusNotFound, "not found")
	})
	s.mux = m
}

// Server timeouts: a client must send its headers promptly; a body (an
// upload of up to MaxRecording) may take minutes on a slow network; the
// event streams are long-lived, so there is no write timeout for the whole
// response, but one per event (events.go).
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 10 * time.Minute
	idleTimeout       = 2 * time.Minute
	maxHeaderBytes    = 64 << 10
	// shutdownGrace is how long Serve waits for requests in flight
	// after the session has closed.
	shutdownGrace = 5 * time.Second
)

// Serve answers on ln until ctx is done; then it closes the session, so
// that its recording is complete, and returns.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	var err error
	select {
	case <-ctx.Done():
	case err = <-errc:
	}
	cerr := s.Close()
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if serr := hs.Shutdown(sctx); serr != nil {
		hs.Close()
	}
	if err == nil {
		err = <-errc
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return errors.Join(err, cerr)
}

// Close ends the event streams and closes the session, which completes its
// recording. Calling it again does nothing.
func (s *Server) Close() error {
	var err error
	s.closeMu.Do(func() {
		s.startMu.Lock()
		defer s.startMu.Unlock()
		s.mu.Lock()
		s.closed = true
		l := s.live
		s.live = nil
		s.mu.Unlock()
		close(s.closing)
		if l != nil {
			err = s.stop(l)
		}
		s.pumps.Wait()
	})
	return err
}

// httpError answers with a JSON error: {"error": msg}. The page shows msg
// as text, never as HTML.
func httpError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]string{"error": msg})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		code, b = http.StatusInternalServerError, []byte(`{"error":"failed to encode the answer"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write(append(b, '\n'))
}

func (s *Server) logf(format string, args ...any) {
	if s.o.Logf != nil {
		s.o.Logf(format, args...)
	}
}
