package clock

import (
	"sync"
	"time"

	k8sclock "k8s.io/utils/clock"
)

// Clock is the interface every simulated part receives.
type Clock = k8sclock.WithTicker

// Sim is the clock a run is built on, in either mode: Virtual (the
// default: simulated time moves when every simulated goroutine waits) or
// Scaled (live: simulated time is the real clock times a speed). The modes
// differ here and in how the engine runs (sim/engine), nowhere else.
type Sim interface {
	Clock
	// Origin is the simulated time at which the clock started.
	Origin() time.Time
	// Elapsed is the simulated time since then.
	Elapsed() time.Duration
	// Wait blocks for d of simulated time or until done is closed, and
	// reports whether d passed; t keeps the timer from one wait to the next
	// (nil before the first), so that a loop allocates nothing to wait.
	Wait(done <-chan struct{}, d time.Duration, t *k8sclock.Timer) bool
	// AfterFunc calls f in its own goroutine after d of simulated time.
	AfterFunc(d time.Duration, f func()) k8sclock.Timer
}

// Epoch is where a run's simulated time starts: midnight UTC on the day
// Kubernetes v1.5.0, the release the articles read, was tagged. A fixed
// origin makes a run reproducible: everything that reads the time of day
// (a CronJob's schedule and the names of its Jobs, certificates, object
// timestamps) is the same in every run of a scenario, whenever it is run.
func Epoch() time.Time { return time.Date(2016, time.December, 12, 0, 0, 0, 0, time.UTC) }

// reuseTimer resets *t to fire after d, or sets it to a new timer of
// newTimer if it is nil, and returns it (wait's resetOrReuseTimer). Since
// Go 1.23 a reset timer delivers no value left from before.
func reuseTimer(t *k8sclock.Timer, d time.Duration, newTimer func(time.Duration) k8sclock.Timer) k8sclock.Timer {
	if *t == nil {
		*t = newTimer(d)
	} else {
		(*t).Reset(d)
	}
	return *t
}

// ReuseTimer is reuseTimer for loops on a clock that is not a Sim.
func ReuseTimer(c Clock, t *k8sclock.Timer, d time.Duration) k8sclock.Timer {
	return reuseTimer(t, d, c.NewTimer)
}

// newTicker relays real's ticks as the simulated times now tells.
func newTicker(real k8sclock.Ticker, now func() time.Time) *ticker {
	return &ticker{now: now, real: real, c: make(chan time.Time, 1), done: make(chan struct{})}
}

// ticker relays the ticks of the clock under a simulated one as simulated
// times. The relay goroutine starts on the first read of C, so a ticker that
// is only stopped starts none.
type ticker struct {
	now       func() time.Time
	take      func() // nil, or what the relay does before it relays a tick
	real      k8sclock.Ticker
	c         chan time.Time
	done      chan struct{}
	startOnce sync.Once
	stopOnce  sync.Once
}

func (t *ticker) C() <-chan time.Time {
	t.startOnce.Do(func() {
		go func() {
			for {
				select {
				case <-t.real.C():
					if t.take != nil {
						t.take()
					}
					select {
					case t.c <- t.now():
					default: // a slow reader misses ticks, as with time.Ticker
					}
				case <-t.done:
					return
				}
			}
		}()
	})
	return t.c
}

func (t *ticker) Stop() {
	t.stopOnce.Do(func() {
		t.real.Stop()
		close(t.done)
	})
}
