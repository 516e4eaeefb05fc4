package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// signalContext is signal.NotifyContext for SIGINT and SIGTERM, whose
// cause says which came: the exit status is 128 plus its number, 130 after
// Ctrl-C and 143 after SIGTERM, as shells report a process they killed.
// stop stops catching them.
//
// A command stops within patience of the signal, or is ended then by
// exit(128 + signal): the readers check the context in their loops, but a
// read that blocks in the kernel (a named pipe that never sends, a stalled
// network file system) cannot see it. A command that needs longer to stop
// well (run, which stops its goroutines and writes the end of its
// recording) calls stopsGracefully; then only a second signal ends it at
// once. exit is os.Exit outside tests.
func signalContext(parent context.Context, patience time.Duration, exit func(code int)) (ctx context.Context, stop func()) {
	st := &signalState{}
	ctx, cancel := context.WithCancelCause(context.WithValue(parent, signalStateKey{}, st))
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	stopped := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var first syscall.Signal
		select {
		case s := <-ch:
			first = s.(syscall.Signal)
			cancel(signalError{first})
		case <-stopped:
			return
		}
		deadline := time.NewTimer(patience)
		defer deadline.Stop()
		for {
			select {
			case s := <-ch:
				exit(128 + int(s.(syscall.Signal)))
				return
			case <-deadline.C:
				if !st.graceful.Load() {
					exit(128 + int(first))
					return
				}
			case <-stopped:
				return
			}
		}
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			signal.Stop(ch)
			cancel(nil)
			close(stopped)
		})
		<-done
	}
}

// signalState is what a command tells signalContext through its context.
type signalState struct{ graceful atomic.Bool }

type signalStateKey struct{}

// stopsGracefully says that the command of ctx stops well after a signal
// however long that takes (run): only a second signal ends it at once.
func stopsGracefully(ctx context.Context) {
	if st, ok := ctx.Value(signalStateKey{}).(*signalState); ok {
		st.graceful.Store(true)
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
