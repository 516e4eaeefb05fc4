package wait

import (
	"context"
	"errors"
	"time"

	"go.opentelemetry.io/otel/attribute"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// ErrWaitTimeout is wait.ErrWaitTimeout: the poll's timeout passed
// without the condition holding.
var ErrWaitTimeout = errors.New("timed out waiting for the condition")

// Poll is v1.5's wait.Poll(interval, timeout, condition), which is
// pollInternal(poller(interval, timeout), condition):
//
//	func pollInternal(wait WaitFunc, condition ConditionFunc) error {
//		done := make(chan struct{})
//		defer close(done)
//		return WaitFor(wait, condition, done)
//	}
//
// poller starts the goroutine recorded as name (its catalog entry, e.g.
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
// and WaitFor checks the condition on the caller's goroutine once per
// tick it receives, and once more when the channel closes:
//
//	for {
//		_, open := <-c
//		ok, err := fn()
//		…
//		if ok { return nil }
//		if !open { break }
//	}
//	return ErrWaitTimeout
//
// There is no immediate first try: the first is one interval in. Each tick
// is an iteration of the poller's lane, with delivered=false when it was
// dropped. A tick and the timeout due at one instant (a 2s interval and a
// 10s timeout, at 10s) are both ready when the poller selects, and Go picks
// one at random: a real process tries a sixth time at 10s about half the
// time. kubeloom always takes the timeout, so that a run repeats: the poll
// ends with the closed channel's try, five tries in 10s.
// Poll also returns when ctx ends (the process stops), which v1.5's Poll
// leaves to its caller; it returns ctx's error then.
func Poll(ctx context.Context, name string, interval, timeout time.Duration, condition func(ctx context.Context) bool, opts ...goroutine.Option) error {
	rt := goroutine.RuntimeFrom(ctx)
	done := make(chan struct{})
	defer close(done)
	ch := make(chan struct{})
	attrs := []attribute.KeyValue{attribute.Float64(catalog.AttrGoroutinePeriod, interval.Seconds())}
	if timeout != 0 {
		attrs = append(attrs, attribute.Float64("wait.timeout_s", timeout.Seconds()))
	}
	rt.Go(ctx, name, func(ctx context.Context) {
		defer close(ch)
		clk := rt.Clock()
		tick := clk.NewTicker(interval)
		defer tick.Stop()
		var after <-chan time.Time
		deadline := clk.Now().Add(timeout)
		if timeout != 0 {
			timer := clk.NewTimer(timeout)
			after = timer.C()
			defer timer.Stop()
		}
		timedOut := func() {
			goroutine.SpanFrom(ctx).AddEvent("timeout", attribute.Float64("wait.timeout_s", timeout.Seconds()))
		}
		for {
			select {
			case <-tick.C():
				if timeout != 0 && !clk.Now().Before(deadline) {
					timedOut() // the timer is due too: see Poll's doc
					return
				}
				goroutine.Tick(ctx, "tick", interval, func(ctx context.Context) {
					delivered := true
					select {
					case ch <- struct{}{}:
					default:
						delivered = false
					}
					goroutine.SpanFrom(ctx).SetAttributes(attribute.Bool("delivered", delivered))
				})
			case <-after:
				timedOut()
				return
			case <-done:
				return
			case <-ctx.Done():
				return
			}
		}
	}, append(opts, goroutine.WithAttributes(attrs...))...)

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
