package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// signalContext is signal.NotifyContext for SIGINT and SIGTERM, whose
// cause says which came: the exit status is 128 plus its number, 130 after
// Ctrl-C and 143 after SIGTERM, as shells report a process they killed.
// stop stops catching them.
func signalContext(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		defer close(done)
		select {
		case s := <-ch:
			cancel(signalError{s.(syscall.Signal)})
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		cancel(nil)
		<-done
	}
}

// signalError is the cause of a context a signal cancelled.
type signalError struct{ sig syscall.Signal }

// Error reads as signal.NotifyContext's cause does: "interrupt signal
// received".
func (e signalError) Error() string { return e.sig.String() + " signal received" }

// receivedSignal is the signal that cancelled ctx, if one did.
func receivedSignal(ctx context.Context) (syscall.Signal, bool) {
	var se signalError
	if errors.As(context.Cause(ctx), &se) {
		return se.sig, true
	}
	return 0, false
}
