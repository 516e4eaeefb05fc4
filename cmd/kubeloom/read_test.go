package main

import (
	"math"
	"os"
	"path/filepath"
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

// TestPauseReadingSumsTheFiles: readTimelines pauses the collector once for
// the files it reads together, with a budget for all of them (twice their
// text's size together), and done restores the settings from before; files
// too small together do not pause it.
func TestPauseReadingSumsTheFiles(t *testing.T) {
	percent := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetGCPercent(percent); debug.SetMemoryLimit(limit) })

	// Sparse files: only their size is read.
	sized := func(name string, size int64) string {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(path, size); err != nil {
			t.Fatal(err)
		}
		return path
	}
	small := sized("small.jsonl", 1<<20)
	a, b := sized("a.jsonl", bigRecording*3/4), sized("b.jsonl", bigRecording*3/4)

	done := pauseReading(small, filepath.Join(t.TempDir(), "missing.jsonl"))
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("reading 1 MiB, GOGC is %d, want 100 (no pause)", p)
	}
	done()

	done = pauseReading(a, b)
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Errorf("reading two files of %d bytes, GOGC is %d, want off (-1)", bigRecording*3/4, p)
	}
	if l, want := debug.SetMemoryLimit(-1), int64(2*2*bigRecording*3/4+256<<20); l < want {
		t.Errorf("reading two files of %d bytes, the memory limit is %d, want the heap + %d at least (twice both files + 256 MiB)", bigRecording*3/4, l, want)
	}
	done()
	done() // again does nothing
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("after done GOGC is %d, want 100", p)
	}
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Errorf("after done the memory limit is %d, want none (%d)", l, int64(math.MaxInt64))
	}
}
