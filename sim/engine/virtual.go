package engine

import (
	"context"
	"errors"

	"github.com/kubeloom/kubeloom/internal/bubble"
	"github.com/kubeloom/kubeloom/internal/memnet"
	"github.com/kubeloom/kubeloom/sim/tracing"
)

// RunVirtual runs a scenario in virtual time, as `kubeloom run` does
// without --speed: inside a testing/synctest bubble (internal/bubble), so
// that simulated time moves only when every simulated goroutine waits. The
// run is as fast as the CPU allows and keeps every period exactly, however
// busy the machine is.
//
// The simulated servers are real net/http servers on an in-memory network
// (internal/memnet) unless o.Listen and o.Dial name one: a goroutine
// waiting on a real socket would keep the bubble's clock from moving.
// ctx's end stops the run as Ctrl-C should: its goroutines at the next
// goroutine or span it starts, the run within a pulse of simulated time
// (the context cannot reach into the bubble; o.Watch carries it).
// o.Speed must be 0 and o.OTLPEndpoint empty.
//
// RunVirtual must not be called from a test binary (see bubble.Run) unless
// o.Bubble calls synctest.Test: tests call Run inside synctest.Test, or
// RunVirtual with such an o.Bubble when they drive the run from outside its
// bubble, as `kubeloom serve` does (Control).
func RunVirtual(ctx context.Context, o Options) (sum *Summary, err error) {
	if o.Speed != 0 {
		return nil, errors.New("engine: RunVirtual runs in virtual time; live mode (Speed > 0) is Run")
	}
	if o.Watch == nil {
		// Every run in virtual time has a pulse, watched or not, so that a
		// quiet run and one with progress are the same run.
		o.Watch = &Watch{}
	}
	if o.Listen == nil || o.Dial == nil {
		n := memnet.New()
		o.Listen, o.Dial = n.Listen, n.Dial
	}
	if o.Recording == nil {
		return nil, errors.New("engine: no recording")
	}
	// Spans are encoded and written by goroutines outside the bubble (see
	// tracing's collector); Run shuts them down at its end, inside.
	tr, err := tracing.New(ctx, tracingOptions(o))
	if err != nil {
		return nil, err
	}
	o.tracing = tr
	defer tr.Shutdown(context.Background()) // Run's end has; not if it failed before it began
	requestStop := func() {
		o.Watch.requestStop()
		if o.Control != nil {
			// A run under control waits for its next command with the
			// clock standing still: the pulse would never see the request.
			o.Control.Stop()
		}
	}
	stop := context.AfterFunc(ctx, requestStop)
	defer stop()
	if ctx.Err() != nil {
		requestStop()
	}
	run := bubble.Run
	if o.Bubble != nil {
		run = o.Bubble
	}
	berr := run(func() { sum, err = Run(context.Background(), o) })
	return sum, errors.Join(err, berr)
}
