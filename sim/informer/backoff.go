package informer

import (
	"math/rand/v2"
	"time"

	"k8s.io/utils/clock"
)

// reflectorBackoff is the wait between two ListAndWatch calls of today's
// reflector (client-go tools/cache/reflector.go, NewReflectorWithOptions:
// wait.Backoff{Duration: 800ms, Cap: 30s, Steps: 38, Factor: 2, Jitter: 1}
// .DelayWithReset(clock, 2m)): 800ms doubling up to 30s, each wait plus up
// to 100% jitter, starting over once 2 minutes have passed since the
// backoff last started. It is wait.Backoff's arithmetic line by line, with
// one difference: the jitter comes from the goroutine's seeded source, not
// math/rand's global one, so that a run is the same every time.
func reflectorBackoff(clk clock.PassiveClock) func(*rand.Rand) time.Duration {
	const (
		initial = 800 * time.Millisecond
		limit   = 30 * time.Second
		steps   = 38
		factor  = 2
		jitter  = 1.0
		reset   = 2 * time.Minute
	)
	duration, left := initial, steps
	lastStart := clk.Now()
	return func(rng *rand.Rand) time.Duration {
		if now := clk.Now(); now.Sub(lastStart) > reset { // backoffManager.Step
			duration, left, lastStart = initial, steps, now
		}
		d := duration // wait.delay
		if left > 0 {
			left--
			if duration = time.Duration(float64(duration) * factor); duration > limit {
				duration, left = limit, 0
			}
		}
		return d + time.Duration(rng.Float64()*jitter*float64(d)) // wait.Jitter
	}
}
