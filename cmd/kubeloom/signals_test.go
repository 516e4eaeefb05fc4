package main

import (
	"context"
	"errors"
	"os"
	"syscall"
	"testing"
	"time"
)

// signalContext says which signal cancelled it, and the exit status is
// 128 plus its number; stop is not a signal.
func TestSignalContextSaysWhichSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		ctx, stop := signalContext(context.Background(), time.Hour, func(int) { t.Error("exited") })
		if err := syscall.Kill(os.Getpid(), sig); err != nil {
			t.Fatal(err)
		}
		<-ctx.Done()
		got, ok := receivedSignal(ctx)
		stop()
		if !ok || got != sig {
			t.Errorf("after %v: received %v, %v", sig, got, ok)
		}
		if code := exitCode(errors.New("interrupted"), got, ok); code != 128+int(sig) {
			t.Errorf("exit status after %v: %d, want %d", sig, code, 128+int(sig))
		}
		if msg := context.Cause(ctx).Error(); msg != sig.String()+" signal received" {
			t.Errorf("cause %q", msg)
		}
	}
	ctx, stop := signalContext(context.Background(), time.Hour, func(int) { t.Error("exited") })
	stop()
	if _, ok := receivedSignal(ctx); ok || exitCode(nil, 0, false) != 0 || exitCode(errors.New("x"), 0, false) != 1 {
		t.Error("stopped without a signal: a signal received, or a status other than 0 and 1")
	}
}
