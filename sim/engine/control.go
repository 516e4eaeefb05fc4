package engine

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/kubeloom/kubeloom/scenarios"
)

// Control drives a run in virtual time from outside its bubble, as
// `kubeloom serve` does: with Options.Control set, simulated time moves only
// as far as the Control lets it, and actions can be given at the instant the
// run is at. The run's own player goroutine waits inside the bubble for the
// Control's next command on a channel made outside it; a goroutine blocked on
// such a channel does not count as waiting, so while it waits the clock
// stands still (docs/design.md, "A live session"). Each command returns
// once the simulation is quiet again (clock.Settle): every span of what
// happened has ended, and nothing more happens until the next command.
//
// A Control serves one run. Its methods may be called from any goroutine,
// one command at a time.
type Control struct {
	cmds chan command
	quit chan struct{}
	once sync.Once
}

// NewControl returns a Control for one run. Make it outside the run's bubble.
func NewControl() *Control {
	return &Control{cmds: make(chan command), quit: make(chan struct{})}
}

// ErrRunEnded is what a command gets once the run has ended.
var ErrRunEnded = errors.New("the run has ended")

// Reached is where a command left the run.
type Reached struct {
	Elapsed time.Duration // simulated time since the start
	End     bool          // the run reached its duration: it is ending
	Spans   int64         // spans ended so far: no more end before the next command
}

type command struct {
	advance time.Duration     // let simulated time run this long
	step    bool              // run until a span ends
	action  *scenarios.Action // apply this at the current instant
	reply   chan result
}

type result struct {
	Reached
	failures []ActionFailure
}

// Advance lets simulated time run for d (the scenario's actions play at
// their times on the way) and returns once the run is quiet at the new
// instant, or at the end of the scenario.
func (c *Control) Advance(ctx context.Context, d time.Duration) (Reached, error) {
	r, err := c.do(ctx, command{advance: max(d, 0)})
	return r.Reached, err
}

// StepQuantum is the resolution of Step: simulated time moves in steps of
// this much until something is recorded. Loops of the era tick at 100 ms and
// more; a millisecond keeps a step's stop close to its event.
const StepQuantum = time.Millisecond

// Step lets simulated time run until at least one span has ended (at most
// to the end of the scenario) and returns once the run is quiet there: the
// first StepQuantum boundary after the event.
func (c *Control) Step(ctx context.Context) (Reached, error) {
	r, err := c.do(ctx, command{step: true})
	return r.Reached, err
}

// Act applies a at the instant the run is at (a.At is set to it), in every
// era's world, recorded as a scheduled action is: its span, its causal
// links to its effects. It returns once the run is quiet again, with the
// worlds where it failed.
func (c *Control) Act(ctx context.Context, a scenarios.Action) (Reached, []ActionFailure, error) {
	r, err := c.do(ctx, command{action: &a})
	return r.Reached, r.failures, err
}

// Stop ends the run: its player returns and the run stops as at its end.
func (c *Control) Stop() { c.once.Do(func() { close(c.quit) }) }

func (c *Control) do(ctx context.Context, cmd command) (result, error) {
	cmd.reply = make(chan result, 1)
	select {
	case c.cmds <- cmd:
	case <-c.quit:
		return result{}, ErrRunEnded
	case <-ctx.Done():
		return result{}, ctx.Err()
	}
	// The player always replies to a command it took (its reply ends the
	// command); waiting for it whatever ctx says keeps two commands from
	// ever being in the run.
	return <-cmd.reply, nil
}

// next is the player's side: the next command, or false once stopped or
// once ctx (the run's) ended.
func (c *Control) next(ctx context.Context) (command, bool) {
	select {
	case cmd := <-c.cmds:
		return cmd, true
	case <-c.quit:
		return command{}, false
	case <-ctx.Done():
		return command{}, false
	}
}
