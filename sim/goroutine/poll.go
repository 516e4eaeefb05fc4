package goroutine

import (
	"context"
	"errors"
	"time"

	"go.opentelemetry.io/otel/attribute"
	k8sclock "k8s.io/utils/clock"
)

// The polls of pkg/util/wait as the articles' era wrote them (v1.3-v1.5): a
// poller goroutine of its own per call, ticking at the interval, and the
// condition checked on the caller's goroutine each time a tick gets through
// — the shape real goroutine dumps of the era show (main in wait.WaitFor,
// beside a goroutine created by wait.poller). Today's are beside them
// (PollImmediateUntil here, PollUntilContextTimeout in pollloop.go).

// ErrWaitTimeout is wait.ErrWaitTimeout: the poll's timeout passed
// without the condition holding.
var ErrWaitTimeout = errors.New("timed out waiting for the condition")

// Condition is a poll's condition, checked on the caller's goroutine.
type Condition func(ctx context.Context) bool

// Poll is v1.5's wait.Poll(interval, timeout, condition), which is
// pollInternal(poller(interval, timeout), condition):
//
//	func pollInternal(wait WaitFunc, condition ConditionFunc) error {
//		done := make(chan struct{})
//		defer close(done)
//		return WaitFor(wait, condition, done)
//	}
//
// There is no immediate first try: the first is one interval in. The
// poller goroutine ends when Poll returns. A tick and the timeout due at one
// instant (a 2s interval and a 10s timeout, at 10s) are both ready when the
// poller selects, and Go picks one at random: a real process tries a sixth
// time at 10s about half the time. kubeloom always takes the timeout, so
// that a run repeats: the poll ends with the closed channel's try, five
// tries in 10s.
//
// pollInternal's done, closed when Poll returns, is here the poller's
// context, cancelled then.
func Poll(ctx context.Context, name string, interval, timeout time.Duration, condition Condition, opts ...Option) error {
	done, cancel := context.WithCancel(ctx)
	defer cancel()
	return waitFor(ctx, poller(done, name, interval, timeout, opts), condition)
}

// PollInfinite is v1.5's wait.PollInfinite(interval, condition): Poll
// without a timeout. Its poller ends when it returns.
func PollInfinite(ctx context.Context, name string, interval time.Duration, condition Condition, opts ...Option) error {
	return Poll(ctx, name, interval, 0, condition, opts...)
}

// PollUntil is v1.5's wait.PollUntil(interval, condition, stopCh), which is
// WaitFor(poller(interval, 0), condition, stopCh): the poller's done is the
// caller's stop channel, not a channel closed on return, so the poller
// outlives the call and ticks, unheard, until stop closes — here, until ctx
// ends. With wait.NeverStop it never ends: the goroutine leak that
// kubernetes#70277 fixed (1.14) by giving the poller a context cancelled on
// return. cache.WaitForCacheSync polls this way.
func PollUntil(ctx context.Context, name string, interval time.Duration, condition Condition, opts ...Option) error {
	return waitFor(ctx, poller(ctx, name, interval, 0, opts), condition)
}

// PollImmediateUntil is today's wait.PollImmediateUntil(interval,
// condition, stopCh) (apimachinery's poll.go, which client-go's
// cache.WaitForCacheSync still calls): the condition is checked at once on
// the caller, and only if it does not hold does a poller goroutine start;
// since kubernetes#70277 that poller stops when the call returns
// (waitForWithContext cancels the context it gave it).
func PollImmediateUntil(ctx context.Context, name string, interval time.Duration, condition Condition, opts ...Option) error {
	if condition(ctx) {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return Poll(ctx, name, interval, 0, condition, opts...)
}

// waitFunc is wait.WaitFunc: it returns the channel of ticks, closed when
// the poller ends. v1.5's takes the done channel that stops the poller;
// here the poller stops with the context poller was given (Poll's,
// cancelled when it returns; PollUntil's, the caller's own).
type waitFunc func() <-chan struct{}

// waitFor is v1.5's WaitFor, checking the condition on the caller's
// goroutine once per tick it receives and once more when the channel
// closes:
//
//	c := wait(done)
//	for {
//		_, open := <-c
//		ok, err := fn()
//		…
//		if ok { return nil }
//		if !open { break }
//	}
//	return ErrWaitTimeout
//
// It also returns when ctx ends (the process stops), which v1.5's WaitFor
// leaves to its done channel; it returns ctx's error then.
func waitFor(ctx context.Context, wait waitFunc, condition Condition) error {
	ch := wait()
	for {
		var open bool
		select {
		case _, open = <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
		if condition(ctx) {
			return nil
		}
		if !open {
			return ErrWaitTimeout
		}
	}
}

// poller is v1.5's poller(interval, timeout): its WaitFunc starts the
// goroutine recorded as name (its catalog entry, such as
// cm/leader-poll-ticker), one per call:
//
//	go func() {
//		defer close(ch)
//		tick := time.NewTicker(interval)
//		defer tick.Stop()
//		var after <-chan time.Time
//		if timeout != 0 {
//			timer := time.NewTimer(timeout)
//			after = timer.C
//			defer timer.Stop()
//		}
//		for {
//			select {
//			case <-tick.C:
//				select {
//				case ch <- struct{}{}:
//				default: // the consumer is busy: drop the tick
//				}
//			case <-after:
//				return
//			case <-done:
//				return
//			}
//		}
//	}()
//
// Each tick is an iteration of the goroutine's lane, marked delivered=true
// when the caller took it.
//
// The ticker is not a clock ticker, whose ticks a relay goroutine of its
// own forwards (sim/clock), but the waits every loop of the runtime makes
// (Runtime.wait, no goroutine): the ticks fall at start + n×interval, as a
// ticker's do. The timeout is a clock timer, set at the start as v1.5's:
// in a run that takes turns (clock.WithTurns) a timer's turn is its place
// among the timers set, so the timeout keeps the place it had. It is
// waited on once no tick is left before it: a tick due with it loses, the
// tie the doc of Poll describes. ctx ends the poller (see waitFunc).
func poller(ctx context.Context, name string, interval, timeout time.Duration, opts []Option) waitFunc {
	if interval <= 0 {
		panic("goroutine: non-positive interval for a poller") // as time.NewTicker's
	}
	return func() <-chan struct{} {
		rt := RuntimeFrom(ctx)
		ch := make(chan struct{})
		// The interval and the timeout are the poller's, on its lifetime
		// span: its ticks need not repeat them.
		opts := append(opts[:len(opts):len(opts)], WithPeriod(interval), WithIterationName("tick"))
		if timeout != 0 {
			opts = append(opts, lifetimeAttributes(attribute.Float64("wait.timeout_s", timeout.Seconds())))
		}
		rt.Go(ctx, name, func(ctx context.Context) {
			defer close(ch)
			clk := rt.Clock()
			next := clk.Now() // the last tick's time, then the next's
			deadline := next.Add(timeout)
			var after k8sclock.Timer
			if timeout != 0 {
				after = clk.NewTimer(timeout)
				defer after.Stop()
			}
			// Every tick is an iteration named "tick" (WithIterationName
			// above), sampled as a loop of the interval is: the poller has
			// no other iterations, so it needs no Tick and its per-name
			// counters, and the sampling and the offer are set up once.
			g := scopeOf(ctx).g
			var sample int64
			if !rt.allIterations && interval > 0 && interval <= time.Second {
				sample = heartbeatEvery(interval)
			}
			offer := func(ctx context.Context) {
				select {
				case ch <- struct{}{}:
					// Only a delivered tick is marked (and so always
					// recorded): a short interval's unheard ticks stay
					// sampled out, as idle iterations are.
					SpanFrom(ctx).SetAttributes(attribute.Bool("delivered", true))
				default:
				}
			}
			var timer k8sclock.Timer // the ticks' waits'
			for {
				next = next.Add(interval)
				if now := clk.Now(); now.After(next) {
					// Late (live mode, a busy machine): as a ticker, one
					// tick at once and the missed ones dropped.
					next = next.Add(now.Sub(next) / interval * interval)
				}
				if timeout != 0 && !next.Before(deadline) {
					select {
					case <-after.C():
						SpanFrom(ctx).AddEvent("timeout") // the lifetime span, which says wait.timeout_s
					case <-ctx.Done():
					}
					return
				}
				if !rt.wait(ctx, next.Sub(clk.Now()), &timer) {
					return
				}
				g.iterate(ctx, sample, offer)
			}
		}, opts...)
		return ch
	}
}
