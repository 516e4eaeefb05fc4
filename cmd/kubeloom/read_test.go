package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestPauseGCRestores: while paused the collector is off under a memory
// limit no higher than the one set before; done restores both settings.
func TestPauseGCRestores(t *testing.T) {
	percent := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetGCPercent(percent); debug.SetMemoryLimit(limit) })

	for _, userLimit := range []int64{math.MaxInt64, 64 << 20} {
		debug.SetMemoryLimit(userLimit)
		done := pauseGC(1 << 30)
		if p := debug.SetGCPercent(-1); p != -1 {
			t.Errorf("while paused GOGC is %d, want off (-1)", p)
		}
		l := debug.SetMemoryLimit(-1)
		if l > userLimit || l < 1<<30 && userLimit == math.MaxInt64 {
			t.Errorf("while paused the memory limit is %d (user limit %d), want the heap + 1 GiB + 256 MiB at most", l, userLimit)
		}
		done()
		if p := debug.SetGCPercent(100); p != 100 {
			t.Errorf("after done GOGC is %d, want 100", p)
		}
		if l := debug.SetMemoryLimit(-1); l != userLimit {
			t.Errorf("after done the memory limit is %d, want %d", l, userLimit)
		}
	}
}
