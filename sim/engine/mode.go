package engine

import (
	"errors"
	"fmt"
	"time"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/clock"
)

// mode is what differs between virtual time and live mode inside a run:
// the clock, and how long stopping may take. (How a run is started differs
// too: RunVirtual makes the bubble and the in-memory network.) Nothing else
// in the engine, and nothing below it, knows which mode it runs in.
type mode struct {
	speed  float64 // live mode's; 0 is virtual time
	serial bool    // virtual time in turns (Options.Serial)
}

func newMode(speed float64, serial bool) (mode, error) {
	if speed < 0 || speed > MaxSpeed {
		return mode{}, fmt.Errorf("invalid speed %v: expected 0 (virtual time) or a number > 0 and ≤ %d (live mode)", speed, MaxSpeed)
	}
	if serial && speed > 0 {
		return mode{}, errors.New("engine: Serial is for virtual time; live mode runs on the real clock")
	}
	return mode{speed: speed, serial: serial}, nil
}

// MaxSpeed is the highest speed live mode takes: beyond it a Go timer of a
// 100 ms loop would be a tenth of a microsecond.
const MaxSpeed = 1_000_000

func (m mode) virtual() bool { return m.speed == 0 }

// start starts the run's clock at clock.Epoch.
func (m mode) start() clock.Sim {
	if m.virtual() {
		if m.serial {
			return clock.NewVirtual(clock.Epoch(), clock.WithTurns())
		}
		return clock.NewVirtual(clock.Epoch())
	}
	c, err := clock.NewScaledAt(clock.Epoch(), m.speed)
	if err != nil {
		panic(err) // newMode checked the speed
	}
	return c
}

// minRealGrace is the least real time live mode gives goroutines to stop,
// whatever grace is in simulated time: at speed 120, 10 simulated seconds
// are 83 real milliseconds, which a starved CPU (a loaded laptop, the race
// detector) can spend before a stopped goroutine gets to run and return. A
// goroutine still alive after both is a leak, not a slow machine. In
// virtual time a stopped goroutine returns before the clock moves at all.
const minRealGrace = time.Second

// grace is how long, in simulated time, goroutines get to stop.
func (m mode) grace(grace time.Duration) time.Duration {
	if m.virtual() {
		return grace
	}
	return max(grace, time.Duration(m.speed*float64(minRealGrace)))
}

// parallelFrom is the number of kubelets from which a run in virtual time
// wants every core: on one core a run repeats (goroutines take turns at
// each instant, Options.Serial), and up to ten kubelets a run takes a
// second or two anyway; from there, two cores cut the wall time of a run by
// about 40% (docs/design.md, "Time").
const parallelFrom = 11

// WantsEveryCore says whether sc is large enough to run on every core
// rather than in turns on one: `kubeloom run`'s default --cores, and
// whether a `kubeloom serve` session runs in turns.
func WantsEveryCore(sc *scenarios.Scenario) bool {
	k := sc.Spec.Kubelets
	return k != nil && k.Count >= parallelFrom
}
