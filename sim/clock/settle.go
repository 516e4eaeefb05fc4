package clock

import (
	"math"
	"testing/synctest"
)

// Settle returns once every other goroutine of the simulation waits: the
// run is quiet at this instant, every span of it ended, and the clock can
// move only when the caller waits too. It is what lets `kubeloom serve`
// pause a run and promise that nothing more happens until play or step.
//
// It must be called inside the run's bubble (virtual time), by one
// goroutine at a time. With turns, synctest.Wait belongs to the conductor
// (two goroutines may not wait at once), so Settle takes the last turn of
// the instant instead: the conductor gives it only once every goroutine of
// this instant has had its own and all wait again. On a clock that is not
// virtual it does nothing: live mode has no notion of quiet.
func Settle(c Clock) {
	v, ok := c.(*Virtual)
	if !ok {
		return
	}
	if v.turns != nil {
		v.turns.take(math.MaxUint64)
		return
	}
	synctest.Wait()
}
