package main

import (
	"os"
	"runtime/debug"
)

// Garbage collection of a run. A simulation allocates fast (every span,
// every copied object, every timer) and keeps comparatively little: a
// 100-node run allocates about 5 GB and keeps 170 MB. With Go's default
// (GOGC=100) the collector runs every few hundred milliseconds; at
// GOGC=400 it runs a quarter as often. (In live mode its assists also land
// on the loops as lateness: at 100 nodes and speed 10 the worst loop kept
// its period within 23 % at GOGC=100, within 2.5 % at GOGC=400.) The memory
// limit keeps the larger heaps of 1,000 nodes, about 2 GB live, in bounds:
// near it the collector runs as often as it must. At 3.5 GiB rather than 3
// that run spent 15 % less CPU in its pod burst (235 s instead of 278 s,
// docs/design.md "Scale"), and its peak RSS stays under 4 GiB.
const (
	runGCPercent   = 400
	runMemoryLimit = 3584 << 20 // bytes: 3.5 GiB
)

// tuneGC sets the collector for a run unless the user chose (GOGC,
// GOMEMLIMIT); a lower limit the user set stays. The result restores the
// previous settings. It is the command's to call, not the engine's: the
// settings are the process's.
func tuneGC() (restore func()) {
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
