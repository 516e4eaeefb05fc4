package informer

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// The modern reflector's waits: 800ms doubling to a 30s cap, each with up
// to 100% jitter, back to 800ms two minutes after the backoff started; the
// same source gives the same waits.
func TestReflectorBackoff(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Unix(0, 0))
	waits := func() []time.Duration {
		next := reflectorBackoff(clk)
		rng := rand.New(rand.NewPCG(1, 2))
		var out []time.Duration
		for range 8 {
			out = append(out, next(rng))
		}
		return out
	}
	got := waits()
	base := 800 * time.Millisecond
	for i, d := range got {
		if d < base || d > 2*base {
			t.Errorf("wait %d = %v, want %v to %v", i+1, d, base, 2*base)
		}
		base = min(2*base, 30*time.Second)
	}
	if again := waits(); !slices.Equal(got, again) {
		t.Errorf("the same seed gave %v, then %v", got, again)
	}
	next := reflectorBackoff(clk)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5 {
		next(rng)
	}
	clk.Step(2*time.Minute + time.Second)
	if d := next(rng); d > 1600*time.Millisecond {
		t.Errorf("after 2 minutes the wait is %v, want the backoff started over (≤ 1.6s)", d)
	}
}
