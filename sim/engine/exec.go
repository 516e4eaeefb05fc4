package engine

import (
	"context"
	"hash/fnv"
	"time"

	"github.com/kubeloom/kubeloom/sim/clock"
)

// execTime is how long a process takes from being started to its main
// running: 100–200 simulated milliseconds, fixed per host name. A real
// binary takes about that to be exec'd, load and initialise; a live run
// spends some of it anyway, as real CPU time scaled by the speed. Without
// it, in virtual time every component's loops would tick at round seconds,
// exactly when the scenario's actions come (a kubelet's status at 2m0s and
// the stopKubelet at 2m0s), and which of two goroutines ready at one
// instant runs first is up to the Go scheduler.
func execTime(host string) time.Duration {
	h := fnv.New32a()
	h.Write([]byte(host))
	return 100*time.Millisecond + time.Duration(h.Sum32()%100)*time.Millisecond
}

// execWait waits d of simulated time before a process's main runs; false
// if the run ended first.
func execWait(ctx context.Context, clk clock.Clock, d time.Duration) bool {
	t := clk.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C():
		return true
	case <-ctx.Done():
		return false
	}
}
