package main

import (
	"context"
	"io"
)

// interruptible writes to w until ctx is done; then every write fails with
// the cause, so that a view printing a long output (step --plain of a big
// recording: seconds) stops at its next write after Ctrl-C or SIGTERM.
type interruptible struct {
	ctx context.Context
	w   io.Writer
}

func (i interruptible) Write(p []byte) (int, error) {
	if err := context.Cause(i.ctx); err != nil {
		return 0, err
	}
	return i.w.Write(p)
}
