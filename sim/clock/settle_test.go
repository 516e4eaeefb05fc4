package clock

import (
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// Settle returns only once what the instant set off has run to its end: a
// chain of goroutines handing work on over channels, woken by timers of
// the same instant as the caller's.
func TestSettleWaitsForTheInstantsWork(t *testing.T) {
	for _, turns := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			var opts []VirtualOption
			if turns {
				opts = append(opts, WithTurns())
			}
			c := NewVirtual(Epoch(), opts...)
			defer c.Stop()
			var done atomic.Int32
			hand := make(chan int)
			for range 3 {
				go func() {
					c.Sleep(time.Second) // the caller's own instant
					hand <- 1
				}()
			}
			go func() {
				for range 3 {
					<-hand
					c.Sleep(0) // a turn of its own, after the caller's timer
					done.Add(1)
				}
			}()
			c.Sleep(time.Second)
			Settle(c)
			if n := done.Load(); n != 3 {
				t.Fatalf("turns=%v: Settle returned with %d of 3 hand-offs done", turns, n)
			}
			if c.Elapsed() != time.Second {
				t.Errorf("turns=%v: the clock moved to +%v while settling", turns, c.Elapsed())
			}
		})
	}
}

// On a clock that is not virtual Settle does nothing (and does not panic
// outside a bubble).
func TestSettleOnLiveClock(t *testing.T) {
	c, err := NewScaled(100)
	if err != nil {
		t.Fatal(err)
	}
	Settle(c)
}
