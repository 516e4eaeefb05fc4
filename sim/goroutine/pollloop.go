package goroutine

import (
	"context"
	"time"
)

// PollUntilContextTimeout is today's wait.PollUntilContextTimeout(ctx,
// interval, timeout, immediate, condition) (apimachinery's loop.go,
// loopConditionUntilContext), which polls on the caller's goroutine with a
// ticker and starts no goroutine: the condition is checked at once when
// immediate, then at each tick, until it holds or timeout has passed. A
// tick due at the deadline finds the deadline passed (the loop checks the
// context again after each tick, "because there is no channel priority
// selection in golang") and returns without a check, with the deadline's
// error, context.DeadlineExceeded; if ctx itself ends first, its error.
func PollUntilContextTimeout(ctx context.Context, interval, timeout time.Duration, immediate bool, condition Condition) error {
	clk := RuntimeFrom(ctx).Clock()
	deadline := clk.Now().Add(timeout)
	tick := clk.NewTicker(interval)
	defer tick.Stop()
	if immediate && condition(ctx) {
		return nil
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C():
		}
		if !clk.Now().Before(deadline) {
			return context.DeadlineExceeded
		}
		if condition(ctx) {
			return nil
		}
	}
}
