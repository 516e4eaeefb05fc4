package clock

import (
	"hash/fnv"
	"slices"
	"testing/synctest"
)

// turns makes the goroutines whose timers fire at one simulated instant run
// one after another, in the order their timers were set, each until every
// goroutine of the simulation waits again: a conductor for virtual time.
//
// Without it they all become runnable together, and which runs first is
// the Go scheduler's choice, which moves with the machine's load (the
// runtime preempts a goroutine that has held a CPU for 10 ms of real time,
// and a busy machine makes that happen). Two controllers' cache-sync polls
// due at 240 ms then write to the apiserver in either order, and a run
// that conflicts in one order does not in the other. In turns, with one
// processor (GOMAXPROCS=1) the run repeats.
//
// A turn's key is a count the clock keeps of the timers it sets, taken
// when the timer is set: timers set in the same order fire in the same
// order, and a timer is set by a turn, which ran in a fixed order.
// TakeTurn makes the calling goroutine, woken at this instant by something
// other than a timer of the clock, wait for its turn among those waiting
// for one, by key: of two goroutines whose work would race (two
// controllers' workers writing the same objects in reaction to one event)
// the one of the lower key goes first, and runs until the simulation is
// quiet. It does nothing on a clock without turns. Keys name what waits
// (a queue and the object it syncs), so that they are the same in every
// run, whatever order the goroutines came in; they all come after the
// instant's timers, whose keys count from 1.
func TakeTurn(c Clock, key string) {
	if v, ok := c.(*Virtual); ok && v.turns != nil {
		h := fnv.New64a()
		h.Write([]byte(key))
		v.turns.take(1<<63 | h.Sum64())
	}
}

type turns struct {
	arrivals chan arrival
	done     chan struct{}
}

// arrival is a goroutine whose timer fired, waiting for its turn.
type arrival struct {
	key uint64
	go_ chan struct{} // closed when its turn comes
}

func newTurns() *turns {
	t := &turns{arrivals: make(chan arrival), done: make(chan struct{})}
	go t.conduct()
	return t
}

// take waits for the turn of the timer set key-th.
func (t *turns) take(key uint64) {
	a := arrival{key: key, go_: make(chan struct{})}
	select {
	case t.arrivals <- a:
	case <-t.done:
		return
	}
	select {
	case <-a.go_:
	case <-t.done:
	}
}

// stop ends the conductor; goroutines waiting for a turn go on at once.
func (t *turns) stop() { close(t.done) }

// conduct gives the turns. It waits for a first arrival; then, as long as
// anyone waits for a turn at this instant, it lets every goroutine of the
// bubble run until all wait (synctest.Wait), which brings every arrival of
// the instant in, and gives the turn to the lowest key. The clock cannot
// move meanwhile: the conductor is never durably blocked while it conducts.
func (t *turns) conduct() {
	var waiting []arrival
	for {
		select {
		case a := <-t.arrivals:
			waiting = append(waiting, a)
		case <-t.done:
			return
		}
		for len(waiting) > 0 {
			synctest.Wait()
		arrive:
			for {
				select {
				case a := <-t.arrivals:
					waiting = append(waiting, a)
				default:
					break arrive
				}
			}
			first := 0
			for i, a := range waiting {
				if a.key < waiting[first].key {
					first = i
				}
			}
			close(waiting[first].go_)
			waiting = slices.Delete(waiting, first, first+1)
		}
	}
}
