package main

import (
	"bytes"
	"context"
	"errors"
	"testing"
)

// interruptible writes until its context is done, then fails with the
// cause.
func TestInterruptibleWriter(t *testing.T) {
	var buf bytes.Buffer
	ctx, cancel := context.WithCancelCause(context.Background())
	w := interruptible{ctx, &buf}
	if n, err := w.Write([]byte("a")); n != 1 || err != nil {
		t.Fatalf("before: %d, %v", n, err)
	}
	cause := errors.New("terminated signal received")
	cancel(cause)
	if n, err := w.Write([]byte("b")); n != 0 || err != cause {
		t.Errorf("after: %d, %v; want 0 and the cause", n, err)
	}
	if buf.String() != "a" {
		t.Errorf("wrote %q", buf.String())
	}
}
