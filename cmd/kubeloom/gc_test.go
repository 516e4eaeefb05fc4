package main

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestTuneGCRespectsTheUsersSettings(t *testing.T) {
	percent := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetGCPercent(percent); debug.SetMemoryLimit(limit) })
	read := func() (int, int64) {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p, debug.SetMemoryLimit(-1)
	}

	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	restore := tuneGC()
	if p, l := read(); p != 100 || l != math.MaxInt64 {
		t.Errorf("with GOGC and GOMEMLIMIT set: GC percent %d, limit %d; want the user's 100 and no limit", p, l)
	}
	restore()
}

func TestTuneGCSetsTheRunsBudget(t *testing.T) {
	percent := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(percent) })
	for _, userLimit := range []int64{math.MaxInt64, 1 << 30} {
		old := debug.SetMemoryLimit(userLimit)
		t.Cleanup(func() { debug.SetMemoryLimit(old) })
		if lookupEnv("GOGC") || lookupEnv("GOMEMLIMIT") {
			t.Skip("GOGC or GOMEMLIMIT is set for this test process") // tuneGC would rightly leave them
		}
		restore := tuneGC()
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		if l := debug.SetMemoryLimit(-1); p != runGCPercent || l != min(userLimit, runMemoryLimit) {
			t.Errorf("limit before %d: GC percent %d, limit %d; want %d and %d", userLimit, p, l, runGCPercent, min(userLimit, runMemoryLimit))
		}
		restore()
		if p := debug.SetGCPercent(-1); p != 100 {
			t.Errorf("restored GC percent %d, want 100", p)
		}
		debug.SetGCPercent(100)
		if l := debug.SetMemoryLimit(-1); l != userLimit {
			t.Errorf("restored limit %d, want %d", l, userLimit)
		}
	}
}
