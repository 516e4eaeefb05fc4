package serve

import (
	"bytes"
	"net/http"
	"strconv"
	"time"
)

// writeTimeout is how long one event may take to reach a viewer. A browser
// that reads nothing for that long (a laptop closed mid-lesson) is
// disconnected; EventSource reconnects and catches up when it wakes.
const writeTimeout = 30 * time.Second

// keepAlive is how often an idle stream sends a comment, so that a proxy or
// a browser does not close a stream that has had nothing to say.
const keepAlive = 20 * time.Second

// frame makes one Server-Sent Events message: the event's name, its id and
// data, one "data:" field per line of data (a line break inside data would
// otherwise end the field).
func frame(event string, id uint64, data []byte) []byte {
	var b bytes.Buffer
	b.Grow(len(data) + 64)
	b.WriteString("event: ")
	b.WriteString(event)
	b.WriteString("\nid: ")
	b.WriteString(strconv.FormatUint(id, 10))
	b.WriteByte('\n')
	for {
		line, rest, more := bytes.Cut(data, []byte{'\n'})
		b.WriteString("data: ")
		b.Write(bytes.TrimSuffix(line, []byte{'\r'}))
		b.WriteByte('\n')
		if !more {
			break
		}
		data = rest
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// events is GET /api/events: the push channel. The handler's goroutine is
// the viewer's writer: it sleeps until the hub offers something, then
// writes what is pending — the latest state and snapshot only.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if err := rc.Flush(); err != nil {
		return
	}
	v := s.hub.join()
	defer s.hub.leave(v)
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		var msgs [][]byte
		select {
		case <-r.Context().Done():
			return
		case <-s.closing:
			return
		case <-tick.C:
			msgs = [][]byte{[]byte(": keep-alive\n\n")}
		case <-v.wake:
			msgs = v.take()
		}
		for _, m := range msgs {
			rc.SetWriteDeadline(time.Now().Add(writeTimeout))
			if _, err := w.Write(m); err != nil {
				return
			}
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
}
