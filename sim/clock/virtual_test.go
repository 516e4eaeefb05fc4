package clock

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	k8sclock "k8s.io/utils/clock"
)

func TestVirtualReadsTheBubble(t *testing.T) {
	for _, turns := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			var opts []VirtualOption
			if turns {
				opts = append(opts, WithTurns())
			}
			c := NewVirtual(Epoch(), opts...)
			defer c.Stop()
			if !c.Now().Equal(Epoch()) || c.Elapsed() != 0 {
				t.Fatalf("a new clock reads %v (+%v), want the epoch", c.Now(), c.Elapsed())
			}
			// Timers, tickers and AfterFunc deliver simulated times, exactly.
			if at := <-c.After(30 * time.Second); at.Sub(Epoch()) != 30*time.Second {
				t.Errorf("After(30s) fired at +%v", at.Sub(Epoch()))
			}
			tm := c.NewTimer(time.Hour)
			if !tm.Stop() {
				t.Error("Stop of a pending timer = false")
			}
			tm.Reset(10 * time.Second)
			if at := <-tm.C(); at.Sub(Epoch()) != 40*time.Second {
				t.Errorf("reset timer fired at +%v, want +40s", at.Sub(Epoch()))
			}
			tk := c.NewTicker(5 * time.Second)
			for i := 1; i <= 3; i++ {
				if at := <-tk.C(); at.Sub(Epoch()) != 40*time.Second+time.Duration(i)*5*time.Second {
					t.Errorf("tick %d at +%v", i, at.Sub(Epoch()))
				}
			}
			tk.Stop()
			fired := make(chan time.Duration, 1)
			ft := c.AfterFunc(time.Second, func() { fired <- c.Elapsed() })
			ft.Reset(2 * time.Second)
			if got := <-fired; got != 57*time.Second {
				t.Errorf("reset AfterFunc ran at +%v, want +57s", got)
			}
			c.Sleep(3 * time.Second)
			if c.Elapsed() != time.Minute {
				t.Errorf("after Sleep(3s) the clock reads +%v, want +1m", c.Elapsed())
			}
			var kept k8sclock.Timer
			if !c.Wait(nil, time.Minute, &kept) || c.Elapsed() != 2*time.Minute {
				t.Errorf("Wait(1m) ended at +%v", c.Elapsed())
			}
			if !turns { // a turn is a channel and an arrival: it allocates
				if n := testing.AllocsPerRun(5, func() { c.Wait(nil, time.Second, &kept) }); n != 0 {
					t.Errorf("a wait on a kept timer allocates %v times, want 0", n)
				}
			}
		})
	}
}

// TestTurnsRunInTheOrderTimersWereSet: goroutines whose timers fire at one
// instant take turns in the order their timers were set, and each turn
// lasts until every goroutine waits again, what it set off included (here
// a goroutine it hands work to). Without turns the scheduler picks, and
// the two chains interleave as it likes.
func TestTurnsRunInTheOrderTimersWereSet(t *testing.T) {
	for range 20 {
		synctest.Test(t, func(t *testing.T) {
			c := NewVirtual(Epoch(), WithTurns())
			defer c.Stop()
			var mu sync.Mutex
			var order []string
			note := func(s string) { mu.Lock(); order = append(order, s); mu.Unlock() }
			var wg sync.WaitGroup
			// Timers are set in the order of names (each goroutine sets
			// its timer before the next starts): "c" first, "a" last.
			for _, name := range []string{"c", "b", "a"} {
				handed := make(chan struct{})
				wg.Go(func() {
					<-handed
					note(name + ".child")
				})
				wg.Go(func() {
					var tm k8sclock.Timer
					c.Wait(nil, time.Second, &tm)
					note(name)
					handed <- struct{}{}
				})
				synctest.Wait() // the timer is set
			}
			wg.Wait()
			if got, want := strings.Join(order, " "), "c c.child b b.child a a.child"; got != want {
				t.Errorf("order %q, want %q", got, want)
			}
		})
	}
}

// TestTurnsLetAStoppedClockGo: once Stop, a goroutine waiting for its
// turn goes on, and timers still fire.
func TestTurnsLetAStoppedClockGo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := NewVirtual(Epoch(), WithTurns())
		c.Stop()
		if at := <-c.After(time.Second); at.Sub(Epoch()) != time.Second {
			t.Errorf("After(1s) on a stopped clock fired at +%v", at.Sub(Epoch()))
		}
		var mu sync.Mutex
		names := []string{}
		for _, n := range []string{"x", "y"} {
			c.AfterFunc(time.Second, func() { mu.Lock(); names = append(names, n); mu.Unlock() })
		}
		time.Sleep(2 * time.Second)
		mu.Lock()
		defer mu.Unlock()
		if slices.Sort(names); strings.Join(names, " ") != "x y" {
			t.Errorf("AfterFunc on a stopped clock ran %v", names)
		}
	})
}
