package traces

import (
	"time"

	"github.com/kubeloom/kubeloom/sim/catalog"
)

// WallClockOffset is how far the wall clock was ahead of the simulated one
// when the recorded run started: the difference between the two times its
// scenario span carries (kubeloom.run.wall_start − kubeloom.clock.origin).
// Adding it to a span's times gives when, in real life, the run did it (at
// speed 1; faster runs did it sooner). ok is false for a recording without
// them (one made in a test, or by a kubeloom older than them).
func WallClockOffset(spans []Span) (d time.Duration, ok bool) {
	for i := len(spans) - 1; i >= 0; i-- { // the scenario span ends last
		a := spans[i].Attributes
		wall, origin := a.String(catalog.AttrRunWallStart), a.String(catalog.AttrClockOrigin)
		if wall == "" || origin == "" {
			continue
		}
		w, err1 := time.Parse(time.RFC3339Nano, wall)
		o, err2 := time.Parse(time.RFC3339Nano, origin)
		if err1 == nil && err2 == nil {
			return w.Sub(o), true
		}
	}
	return 0, false
}
