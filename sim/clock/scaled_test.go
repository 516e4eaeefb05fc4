package clock

import (
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"
	k8sclock "k8s.io/utils/clock"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestScaledRunsFaster(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, err := NewScaled(60)
		if err != nil {
			t.Fatal(err)
		}
		origin := c.Now()
		realStart := time.Now()
		c.Sleep(time.Minute)
		if got := time.Since(realStart); got != time.Second {
			t.Errorf("a simulated minute at speed 60 took %v real, want 1s", got)
		}
		if got := c.Since(origin); got != time.Minute {
			t.Errorf("simulated elapsed = %v, want 1m", got)
		}
		if got := c.ToReal(5 * time.Minute); got != 5*time.Second {
			t.Errorf("ToReal(5m) = %v, want 5s", got)
		}
	})
}

func TestTimersAndTickersDeliverSimulatedTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, _ := NewScaled(10)
		origin := c.Now()
		if at := <-c.After(30 * time.Second); at.Sub(origin) != 30*time.Second {
			t.Errorf("After(30s) fired at +%v", at.Sub(origin))
		}
		tm := c.NewTimer(time.Hour)
		if !tm.Stop() {
			t.Error("Stop of a pending timer = false")
		}
		tm.Reset(10 * time.Second)
		if at := <-tm.C(); at.Sub(origin) != 40*time.Second {
			t.Errorf("reset timer fired at +%v, want +40s", at.Sub(origin))
		}
		tk := c.NewTicker(5 * time.Second)
		for i := 1; i <= 3; i++ {
			if at := <-tk.C(); at.Sub(origin) != 40*time.Second+time.Duration(i)*5*time.Second {
				t.Errorf("tick %d at +%v", i, at.Sub(origin))
			}
		}
		tk.Stop()
		tk.Stop() // twice is fine
		fired := make(chan time.Duration, 1)
		c.AfterFunc(2*time.Second, func() { fired <- c.Since(origin) })
		if got := <-fired; got != 57*time.Second {
			t.Errorf("AfterFunc ran at +%v, want +57s", got)
		}
		// A func timer reset to later fires then, and the extension does
		// not count as the runtime's lateness.
		ft := c.AfterFunc(time.Second, func() { fired <- c.Since(origin) })
		ft.Reset(5 * time.Second)
		if got := <-fired; got != 62*time.Second {
			t.Errorf("reset AfterFunc ran at +%v, want +62s", got)
		}
		if lead := c.lead.Load(); lead != 0 {
			t.Errorf("lead = %v after on-time timers, want 0", time.Duration(lead))
		}
	})
}

func TestInvalidSpeed(t *testing.T) {
	for _, s := range []float64{0, -1, 2e6} {
		if _, err := NewScaled(s); err == nil {
			t.Errorf("NewScaled(%v) accepted", s)
		}
	}
}

func TestTimersLearnTheRuntimesLateness(t *testing.T) {
	c, _ := NewScaled(60)
	for range 100 { // timers keep firing 1ms late
		c.learn(time.Millisecond - time.Duration(c.lead.Load()))
	}
	if lead := time.Duration(c.lead.Load()); lead < 900*time.Microsecond || lead > time.Millisecond {
		t.Errorf("lead after steady 1ms lateness = %v, want about 1ms", lead)
	}
	for range 100 {
		c.learn(10 * time.Millisecond)
	}
	if lead := time.Duration(c.lead.Load()); lead != maxLead {
		t.Errorf("lead = %v, want capped at %v", lead, maxLead)
	}
	for range 200 {
		c.learn(-time.Millisecond)
	}
	if lead := c.lead.Load(); lead != 0 {
		t.Errorf("lead = %v, want floored at 0 when timers fire early", lead)
	}
}

// A timer never fires before its simulated duration has passed: at speeds
// that do not divide it (10s at 60, 7), it used to fire nanoseconds early,
// which a CronJob checking "is it 1m0s yet" would see.
func TestTimersNeverFireEarly(t *testing.T) {
	for _, speed := range []float64{60, 7, 1000, 0.3} {
		synctest.Test(t, func(t *testing.T) {
			c, err := NewScaledAt(Epoch(), speed)
			if err != nil {
				t.Fatal(err)
			}
			for i := 1; i <= 6; i++ {
				<-c.NewTimer(10 * time.Second).C()
				if got, want := c.Elapsed(), time.Duration(i)*10*time.Second; got < want {
					t.Fatalf("speed %g: timer %d fired at %v, before %v", speed, i, got, want)
				}
			}
			if !c.Origin().Equal(Epoch()) {
				t.Errorf("origin %v, want the epoch %v", c.Origin(), Epoch())
			}
		})
	}
}

// Wait, the loops' timer, waits as NewTimer does, and not at all once
// done is closed; one timer serves every wait of a loop, including those
// after a wait that done ended, and waiting with it allocates nothing.
func TestWaitWaitsSimulatedTime(t *testing.T) {
	for _, speed := range []float64{60, 7} {
		synctest.Test(t, func(t *testing.T) {
			c, _ := NewScaledAt(Epoch(), speed)
			var timer k8sclock.Timer
			waitTen := func(i int) {
				t.Helper()
				start := c.Elapsed()
				if !c.Wait(nil, 10*time.Second, &timer) {
					t.Fatalf("speed %g: Wait(10s) %d with nothing done returned false", speed, i)
				}
				if got := c.Elapsed() - start; got < 10*time.Second || got > 10*time.Second+time.Millisecond {
					t.Errorf("speed %g: wait %d took %v, want 10s", speed, i, got)
				}
			}
			for i := 1; i <= 3; i++ {
				waitTen(i)
			}
			done := make(chan struct{})
			close(done)
			before := c.Elapsed()
			if c.Wait(done, time.Hour, &timer) {
				t.Errorf("speed %g: Wait with done closed reports the hour passed", speed)
			}
			if c.Elapsed() != before {
				t.Errorf("speed %g: Wait with done closed waited %v", speed, c.Elapsed()-before)
			}
			// The stopped hour leaves nothing behind for the next wait.
			waitTen(4)
			if n := testing.AllocsPerRun(5, func() { c.Wait(nil, time.Second, &timer) }); n != 0 {
				t.Errorf("speed %g: a wait on a kept timer allocates %v times, want 0", speed, n)
			}
		})
	}
}
