package session

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/engine"
)

// How the pacer paces.
const (
	// frame is how often, in real time, a playing session moves simulated
	// time on: a page redraws at most this often anyway.
	frame = 50 * time.Millisecond
	// maxLag is how far, in real time, simulated time may fall behind the
	// pace (a simulation slower than its speed) before the pacer stops
	// trying to catch up: a burst to make up for it would freeze the page.
	maxLag = time.Second
	// fastestBatch is the real time one command of "as fast as it goes"
	// should take: long enough that commands cost little, short enough
	// that pause answers at once.
	fastestBatch = 30 * time.Millisecond
	// minSnapshotEvery is the least real time between two snapshots while
	// playing, and snapshotShare how many times a build's cost apart they
	// are at least: building one takes a core from the run (it is built
	// beside it, in the builder), so on two cores the run loses at most a
	// tenth of one however large the recording grows.
	minSnapshotEvery = 200 * time.Millisecond
	snapshotShare    = 10
)

// pacer is the goroutine that commands the run: the only one that calls
// the Control, so that simulated time moves in one place.
type pacer struct {
	s       *Session
	playing bool
	speed   float64
	ended   bool

	// The pace: simulated time anchorSim was reached at anchorReal.
	anchorReal time.Time
	anchorSim  time.Duration
	elapsed    time.Duration
	quantum    time.Duration // as fast as it goes: simulated time per command

	lastSnapshot  time.Time
	gathered      time.Duration // the instant of the last moment gathered
	gatheredSpans int64         // and how many spans had ended by it
	lastAction    string
}

func (p *pacer) run() {
	s := p.s
	defer close(s.pacerDone)
	tick := time.NewTicker(frame)
	defer tick.Stop()
	for {
		switch {
		case p.playing && p.speed == Fastest:
			select {
			case req := <-s.reqs:
				req.reply <- req.do(p)
			case <-s.quit:
				return
			default:
				p.fastest()
			}
		case p.playing:
			select {
			case req := <-s.reqs:
				req.reply <- req.do(p)
			case <-tick.C:
				p.paced()
			case <-s.quit:
				return
			}
		default:
			select {
			case req := <-s.reqs:
				req.reply <- req.do(p)
			case <-s.quit:
				return
			}
		}
	}
}

// paced moves simulated time to where the pace says it is now.
func (p *pacer) paced() {
	now := time.Now()
	target := p.anchorSim + time.Duration(float64(now.Sub(p.anchorReal))*p.speed)
	if lag := target - p.elapsed; lag > time.Duration(float64(maxLag)*p.speed) {
		p.anchor(now) // too slow for this speed: go on from here
		target = p.elapsed
	}
	if target <= p.elapsed {
		return
	}
	p.advance(target - p.elapsed)
}

// fastest moves simulated time on by a quantum that takes about
// fastestBatch of real time.
func (p *pacer) fastest() {
	if p.quantum <= 0 {
		p.quantum = 100 * time.Millisecond
	}
	start := time.Now()
	p.advance(p.quantum)
	switch took := time.Since(start); {
	case took < fastestBatch/2 && p.quantum < time.Minute:
		p.quantum *= 2
	case took > 2*fastestBatch && p.quantum > time.Millisecond:
		p.quantum /= 2
	}
}

func (p *pacer) advance(d time.Duration) {
	r, err := p.s.ctl.Advance(context.Background(), d)
	p.after(r, err, false)
}

// after takes in where a command left the run.
func (p *pacer) after(r engine.Reached, err error, force bool) {
	if err != nil {
		p.end(err)
		return
	}
	p.reached(r, force)
	if r.End {
		p.end(nil)
	}
}

// reached publishes the state and, when it is time (or force), gathers a
// moment for a snapshot.
func (p *pacer) reached(r engine.Reached, force bool) {
	p.elapsed = r.Elapsed
	cost := time.Duration(p.s.builder.cost.Load())
	due := force || time.Since(p.lastSnapshot) >= max(minSnapshotEvery, snapshotShare*cost)
	p.publish(due)
}

// publish publishes the state, and gathers a moment for a snapshot if
// snap: the run is quiet now, and the builder builds it while the run goes
// on.
func (p *pacer) publish(snap bool) {
	// A moment like the last one gathered (same instant, no span ended
	// since: a pause right after a frame) is not gathered again.
	if n := p.s.live.count(); snap && (p.elapsed != p.gathered || n != p.gatheredSpans || p.lastSnapshot.IsZero()) {
		p.s.builder.offer(p.s.live.gather(clock.Epoch().Add(p.elapsed)))
		p.lastSnapshot, p.gathered, p.gatheredSpans = time.Now(), p.elapsed, n
	}
	p.s.publish(func(st *State) {
		st.ElapsedUS = p.elapsed.Microseconds()
		st.Playing = p.playing
		st.Speed = p.speed
		st.Spans = p.s.live.count()
		st.LastAction = p.lastAction
	}, nil, nil)
}

// end takes in the end of the run: it reached its duration, or failed.
func (p *pacer) end(err error) {
	if p.ended {
		return
	}
	p.ended, p.playing = true, false
	<-p.s.runDone // the recording is complete, every span ended
	runErr := p.s.runErr
	if runErr == nil && err != nil && !errors.Is(err, engine.ErrRunEnded) {
		runErr = err
	}
	p.publish(true)
	p.s.publish(func(st *State) {
		st.Done = true
		if runErr != nil {
			st.Err = runErr.Error()
		}
	}, nil, nil)
}

func (p *pacer) anchor(now time.Time) { p.anchorReal, p.anchorSim = now, p.elapsed }

func (p *pacer) play() error {
	if p.ended {
		return ErrEnded
	}
	p.playing = true
	p.anchor(time.Now())
	p.publish(false)
	return nil
}

func (p *pacer) pause() error {
	if p.ended {
		return ErrEnded
	}
	p.playing = false
	// Between two commands the run is quiet: a pause takes effect at once,
	// and the snapshot shows exactly where it stands.
	p.publish(true)
	return nil
}

func (p *pacer) step() error {
	if p.ended {
		return ErrEnded
	}
	p.playing = false
	r, err := p.s.ctl.Step(context.Background())
	p.after(r, err, true)
	return err
}

func (p *pacer) setSpeed(speed float64) error {
	p.speed = speed
	p.quantum = 0
	p.anchor(time.Now())
	p.publish(false)
	return nil
}

func (p *pacer) act(src []byte) error {
	if p.ended {
		return ErrEnded
	}
	a, err := scenarios.ParseAction("action", src, &p.s.sc.Spec, p.elapsed)
	if err != nil {
		return &ActError{Err: err}
	}
	r, failed, err := p.s.ctl.Act(context.Background(), a)
	p.lastAction = a.Verb.Name() + " at " + r.Elapsed.Round(time.Millisecond).String()
	p.after(r, err, true)
	if err != nil {
		return err
	}
	if len(failed) > 0 {
		var errs []error
		for _, f := range failed {
			msg := f.Err.Error()
			if f.Era != "" {
				msg = fmt.Sprintf("in era %s: %s", f.Era, msg)
			}
			errs = append(errs, errors.New(msg))
		}
		return &ActError{Err: fmt.Errorf("%s failed: %w", a.Verb.Name(), errors.Join(errs...))}
	}
	return nil
}
