package engine

import (
	"os"
	"runtime/debug"
)

// Garbage collection of a run. A simulation allocates fast (every span,
// every copied object, every timer) and keeps little: the live heap of a
// 100-node run is about 170 MB while it allocates 5 GB. With Go's default
// (GOGC=100) the collector then runs every few hundred milliseconds, and
// its assists land on the loops' goroutines as latency: in one pair of
// runs at 100 nodes and speed 10 on a busy machine, the worst loop kept
// its period within 23 % with GOGC=100 and within 2.5 % with GOGC=400
// (BenchmarkClusterScale, docs/design.md "Scale"). The memory limit keeps
// the larger heaps of 1,000 nodes in bounds: near it the collector runs as
// often as it must.
const (
	runGCPercent   = 400
	runMemoryLimit = 3 << 30 // bytes
)

// TuneGC sets the collector for a run, as `kubeloom run` does, unless the
// user chose (GOGC, GOMEMLIMIT); a lower limit the user set stays. The
// result restores the previous settings.
func TuneGC() (restore func()) {
	oldPercent := debug.SetGCPercent(-1)
	debug.SetGCPercent(oldPercent)
	oldLimit := debug.SetMemoryLimit(-1) // -1 reads it
	if !lookupEnv("GOGC") {
		debug.SetGCPercent(runGCPercent)
	}
	if !lookupEnv("GOMEMLIMIT") {
		debug.SetMemoryLimit(min(oldLimit, runMemoryLimit))
	}
	return func() {
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(oldLimit)
	}
}

func lookupEnv(name string) bool { _, set := os.LookupEnv(name); return set }
