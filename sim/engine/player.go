package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/tracing"
)

// player plays the timed actions in every world, in simulated time.
type player struct {
	clk      clock.Sim
	worlds   []*world
	reg      *goroutine.Registry
	tracing  *tracing.Tracing
	duration time.Duration
	progress func(Progress)
	watch    *Watch
	failed   func(ActionFailure)
	last     string
	failures []ActionFailure
}

// play applies the actions at their times and then waits for the end of
// the scenario. It returns how many actions ran.
func (p *player) play(ctx context.Context, actions []scenarios.Action) int {
	n := 0
	for _, a := range actions {
		if a.At > p.duration || !p.waitUntil(ctx, a.At) {
			break
		}
		for _, w := range p.worlds {
			if err := w.driver.apply(a); err != nil {
				f := ActionFailure{At: a.At, Verb: a.Verb.Name(), Pos: a.Pos, Err: err}
				if len(p.worlds) > 1 {
					f.Era = w.era
				}
				p.failures = append(p.failures, f)
				if p.failed != nil {
					p.failed(f)
				}
			}
		}
		n++
		p.last = a.Verb.Name() + " at " + a.At.String()
		p.report()
	}
	p.waitUntil(ctx, p.duration)
	return n
}

// waitUntil sleeps until simulated time at (since the start). It returns
// false when ctx ended first. It sets no other timer on the way: progress
// is read from outside (Watch), so that a run shown with progress and a
// quiet one wake the same goroutines at the same instants.
func (p *player) waitUntil(ctx context.Context, at time.Duration) bool {
	left := at - p.clk.Elapsed()
	if left <= 0 {
		return true
	}
	t := p.clk.NewTimer(left)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C():
		return true
	}
}

// report tells the caller an action was played.
func (p *player) report() {
	if p.watch != nil {
		p.watch.played(p.last)
	}
	if p.progress == nil {
		return
	}
	p.progress(Progress{Elapsed: min(p.clk.Elapsed(), p.duration), Duration: p.duration, Goroutines: p.reg.Alive(), Spans: p.tracing.Ended(), LastAction: p.last})
}

// ActionFailure is a scenario action that failed when the run played it.
type ActionFailure struct {
	At   time.Duration      // when, in simulated time
	Verb string             // "delete", "stopKubelet", ...
	Era  scenarios.Era      // the era whose world it failed in, when the run has two
	Pos  scenarios.Position // where the action is in the scenario file
	Err  error
}

// String says what failed, where it is written and why:
// "delete at 1m0s (my.yaml:31:5) failed: pods "web-0" not found".
func (f ActionFailure) String() string {
	era := ""
	if f.Era != "" {
		era = " in era " + string(f.Era)
	}
	return fmt.Sprintf("%s at %s (%s)%s failed: %v", f.Verb, f.At, f.Pos, era, f.Err)
}
