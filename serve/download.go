package serve

import (
	"fmt"
	"net/http"

	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/htmlview"
)

// attachment makes the browser save the answer as name rather than show
// it. name is a scenario's name (a DNS label) or an upload's printable
// base name; quotes and backslashes are left out of it.
func attachment(w http.ResponseWriter, name, contentType string) {
	safe := make([]rune, 0, len(name))
	for _, r := range name {
		if r != '"' && r != '\\' && r >= 0x20 && r < 0x7f {
			safe = append(safe, r)
		}
	}
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, string(safe)))
	w.Header().Set("Cache-Control", "no-store")
}

// recording is GET /api/recording: the session's recording so far, the
// spans that ended (?zst=1: compressed with zstd). Any viewer may take it.
func (s *Server) recording(w http.ResponseWriter, r *http.Request) {
	l, err := s.current()
	if err != nil {
		httpError(w, http.StatusNotFound, err.Error())
		return
	}
	if r.URL.Query().Get("zst") == "1" {
		attachment(w, l.name+".jsonl"+traces.CompressedExt, "application/zstd")
		zw := traces.NewCompressedWriter(w)
		if err := l.sess.WriteRecording(zw); err != nil {
			s.logf("warning: a download of the recording failed: %v\n", err)
		}
		zw.Close()
		return
	}
	attachment(w, l.name+".jsonl", "application/x-ndjson")
	if err := l.sess.WriteRecording(w); err != nil {
		s.logf("warning: a download of the recording failed: %v\n", err)
	}
}

// export is GET /api/export: the self-contained HTML page of what the
// pages show, the session so far or the recording opened.
func (s *Server) export(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	l, opened := s.live, s.opened
	if s.view != viewRecording {
		opened = nil
	}
	s.mu.Unlock()
	// The page is a download: were it shown at this origin, its inline
	// script would run with the control page's origin. sandbox keeps it
	// apart even if a browser shows it.
	w.Header().Set("Content-Security-Policy", "sandbox allow-scripts")
	switch {
	case opened != nil:
		attachment(w, opened.scenario+".html", "text/html; charset=utf-8")
		if err := htmlview.Write(w, opened.tl); err != nil {
			s.logf("warning: an export failed: %v\n", err)
		}
	case l != nil:
		attachment(w, l.name+".html", "text/html; charset=utf-8")
		if err := l.sess.WriteHTML(w); err != nil {
			s.logf("warning: an export failed: %v\n", err)
		}
	default:
		httpError(w, http.StatusNotFound, errNoSession.Error())
	}
}
