package serve

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/htmlview"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// MaxRecording is the largest recording POST /api/open reads: 256 MiB as
// sent (a compressed one may hold some 30 times more text). The 100-node
// cluster-scale lesson records about 40 MB of text; reading and drawing a
// recording takes a few times its text in memory.
const MaxRecording = 256 << 20

// maxWarnings is how many unreadable lines of an opened recording the page
// is told of.
const maxWarnings = 5

// openedRecording is a recording the teacher opened in the page.
type openedRecording struct {
	name, scenario string
	spans          int64
	durationUS     int64
	tl             *timeline.Timeline
}

// open is POST /api/open: the body is a recording (.jsonl or .jsonl.zst,
// ?name= names it), read with the hardened reader as every command reads
// one; the pages then show it in place of the session, which pauses, until
// play or step. Lines that cannot be read are skipped and reported, as
// replay does; a recording with no span is refused.
func (s *Server) open(w http.ResponseWriter, r *http.Request) {
	name := uploadName(r.URL.Query().Get("name"), "recording.jsonl")
	// One recording is read at a time, so that two uploads cannot take
	// twice the memory; the lock is not the sessions' (startMu), so that
	// Ctrl-C does not wait for an upload to end before it closes the
	// session.
	if !s.openMu.TryLock() {
		httpError(w, http.StatusConflict, "another recording is being opened; try again when it shows")
		return
	}
	defer s.openMu.Unlock()
	spans, err := traces.ReadContext(r.Context(), http.MaxBytesReader(w, r.Body, s.o.maxRecording), name, traces.ReadOptions{})
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		httpError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("a recording sent to the page is at most %d MiB; replay a larger one with kubeloom step or export it with kubeloom export", s.o.maxRecording>>20))
		return
	}
	if len(spans) == 0 {
		msg := name + ": no span in this file; is it a kubeloom recording (kubeloom run writes one)?"
		if err != nil {
			msg = firstLines(err.Error(), maxWarnings)
		}
		httpError(w, http.StatusUnprocessableEntity, msg)
		return
	}
	tl, berr := timeline.BuildContext(r.Context(), spans)
	if berr != nil {
		httpError(w, http.StatusServiceUnavailable, berr.Error())
		return
	}
	var data bytes.Buffer
	if err := htmlview.WriteData(&data, tl); err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	if l, err := s.current(); err == nil {
		l.sess.Pause() // the class looks at the recording; the session waits
	}
	o := &openedRecording{name: name, scenario: tl.Scenario, spans: int64(len(spans)), durationUS: tl.End.Sub(tl.Start).Microseconds(), tl: tl}
	s.mu.Lock()
	s.opened, s.view = o, viewRecording
	s.sendSnapshotLocked(data.Bytes())
	s.mu.Unlock()
	s.publishState()
	ans := map[string]any{"name": name, "spans": len(spans)}
	if err != nil {
		ans["warnings"] = firstLines(err.Error(), maxWarnings)
	}
	writeJSON(w, http.StatusOK, ans)
}

// firstLines is the first n lines of text.
func firstLines(text string, n int) string {
	lines := strings.SplitN(text, "\n", n+1)
	if len(lines) > n {
		lines = append(lines[:n], "…")
	}
	return strings.Join(lines, "\n")
}
