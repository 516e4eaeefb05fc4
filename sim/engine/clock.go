package engine

import (
	k8sclock "k8s.io/utils/clock"

	"github.com/kubeloom/kubeloom/sim/clock"
)

// realClock is the wall clock under the simulation's scaled clock.
func realClock() clock.Base { return k8sclock.RealClock{} }
