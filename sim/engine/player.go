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
	control  *Control // nil: the actions play on their own, and the run to its end
	last     string
	failures []ActionFailure
}

// play applies the actions at their times and then waits for the end of
// the scenario. It returns how many actions ran.
func (p *player) play(ctx context.Context, actions []scenarios.Action) int {
	if p.control != nil {
		return p.playControlled(ctx, actions)
	}
	n := 0
	for _, a := range actions {
		if a.At > p.duration || !p.waitUntil(ctx, a.At) {
			break
		}
		p.apply(a, false)
		n++
	}
	p.waitUntil(ctx, p.duration)
	return n
}

// apply applies a in every world (live: given by a Control), and returns
// where it failed.
func (p *player) apply(a scenarios.Action, live bool) []ActionFailure {
	var failed []ActionFailure
	for _, w := range p.worlds {
		if err := w.driver.apply(a, live); err != nil {
			f := ActionFailure{At: a.At, Verb: a.Verb.Name(), Pos: a.Pos, Err: err}
			if len(p.worlds) > 1 {
				f.Era = w.era
			}
			failed = append(failed, f)
			p.failures = append(p.failures, f)
			if p.failed != nil {
				p.failed(f)
			}
		}
	}
	p.last = a.Verb.Name() + " at " + a.At.String()
	p.report()
	return failed
}

// playControlled plays the run as its Control commands: simulated time
// moves only inside a command, the scenario's own actions at their times
// on the way. Between commands the player waits on the Control's channel,
// made outside the bubble, so the clock stands still. Each command ends
// with the run quiet (clock.Settle). It returns how many actions ran, the
// scenario's and the Control's, when the run reaches its duration, ctx
// ends, or the Control is stopped.
func (p *player) playControlled(ctx context.Context, actions []scenarios.Action) int {
	defer p.control.Stop() // later commands get ErrRunEnded
	n, next := 0, 0
	// advanceTo lets time run to at, playing the actions due by then; false
	// when ctx ended first.
	advanceTo := func(at time.Duration) bool {
		for ; next < len(actions) && actions[next].At <= min(at, p.duration); next++ {
			if !p.waitUntil(ctx, actions[next].At) {
				return false
			}
			p.apply(actions[next], false)
			n++
		}
		return p.waitUntil(ctx, min(at, p.duration))
	}
	clock.Settle(p.clk)
	for {
		cmd, ok := p.control.next(ctx)
		if !ok {
			return n
		}
		var r result
		alive := true
		switch {
		case cmd.action != nil:
			a := *cmd.action
			a.At = p.clk.Elapsed()
			r.failures = p.apply(a, true)
			n++
		case cmd.step:
			for ended := p.tracing.Ended(); alive && p.tracing.Ended() == ended && p.clk.Elapsed() < p.duration; {
				alive = advanceTo(p.clk.Elapsed() + StepQuantum)
				clock.Settle(p.clk)
			}
		default:
			alive = advanceTo(p.clk.Elapsed() + cmd.advance)
		}
		clock.Settle(p.clk)
		r.Elapsed = min(p.clk.Elapsed(), p.duration)
		r.End = !alive || p.clk.Elapsed() >= p.duration
		r.Spans = p.tracing.Ended()
		cmd.reply <- r
		if r.End {
			return n
		}
	}
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
