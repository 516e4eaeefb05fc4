package engine

import (
	"context"
	"time"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/tracing"
)

// player plays the timed actions in every world, in simulated time.
type player struct {
	clk      *clock.Scaled
	worlds   []*world
	reg      *goroutine.Registry
	tracing  *tracing.Tracing
	duration time.Duration
	progress func(Progress)
	last     string
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
			w.driver.apply(a)
		}
		n++
		p.last = a.Verb() + " at " + a.At.String()
		p.report()
	}
	p.waitUntil(ctx, p.duration)
	return n
}

// waitUntil sleeps until simulated time at (since the start), reporting
// progress on the way. It returns false when ctx ended first.
func (p *player) waitUntil(ctx context.Context, at time.Duration) bool {
	step := time.Duration(float64(500*time.Millisecond) * p.clk.Speed()) // half a real second
	for {
		left := at - p.clk.Elapsed()
		if left <= 0 {
			return true
		}
		if p.progress != nil && left > step {
			left = step
		}
		t := p.clk.NewTimer(left)
		select {
		case <-ctx.Done():
			t.Stop()
			return false
		case <-t.C():
		}
		p.report()
	}
}

func (p *player) report() {
	if p.progress == nil {
		return
	}
	live := 0
	for _, a := range p.reg.Live() {
		live += a.N
	}
	p.progress(Progress{Elapsed: min(p.clk.Elapsed(), p.duration), Duration: p.duration, Goroutines: live, Spans: p.tracing.Ended(), LastAction: p.last})
}
