package session

import (
	"bytes"
	"errors"
	"io"
	"sync"

	"github.com/kubeloom/kubeloom/traces"
)

// recordingCopy writes the recording through to the caller's writer and
// keeps a copy for the page's download, compressed as `run --out X.zst`
// compresses (about 50 bytes a span instead of 1,700: a 100-node session's
// 1.5 GB recording is kept in 50 MB). The recorder writes whole lines per
// call and the copy is flushed after each, so it always decodes to whole
// spans: a valid recording at any moment.
type recordingCopy struct {
	mu     sync.Mutex
	w      io.Writer
	buf    bytes.Buffer
	z      *traces.CompressedWriter
	closed bool
	err    error // the copy's first error; the recording itself is unaffected
}

func newRecordingCopy(w io.Writer) *recordingCopy {
	c := &recordingCopy{w: w}
	c.z = traces.NewCompressedWriter(&c.buf)
	return c
}

func (c *recordingCopy) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil && !c.closed {
		if _, err := c.z.Write(p); err != nil {
			c.err = err
		} else if err := c.z.Flush(); err != nil {
			c.err = err
		}
	}
	return c.w.Write(p)
}

// close ends the copy's zstd frame, once the run has ended.
func (c *recordingCopy) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed && c.err == nil {
		c.err = c.z.Close()
	}
	c.closed = true
}

// writeTo writes the recording so far, as plain JSON Lines.
func (c *recordingCopy) writeTo(w io.Writer) error {
	c.mu.Lock()
	// The buffer is only appended to: these bytes are not written again.
	b, closed, err := c.buf.Bytes(), c.closed, c.err
	c.mu.Unlock()
	if err != nil {
		return err
	}
	if len(b) == 0 {
		return nil
	}
	r, err := traces.Decompress(bytes.NewReader(b))
	if err != nil {
		return err
	}
	defer r.Close()
	_, err = io.Copy(w, r)
	if !closed && errors.Is(err, traces.ErrTruncated) {
		// A run still going: its frame has no end yet, and every block
		// before that decoded.
		err = nil
	}
	return err
}
