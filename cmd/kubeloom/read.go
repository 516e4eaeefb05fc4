package main

import (
	"os"
	"runtime/debug"
	"runtime/metrics"

	"github.com/kubeloom/kubeloom/traces"
)

// bigRecording is the size from which readRecording pauses the garbage
// collector.
const bigRecording = 64 << 20

// readRecording reads a recording for replay, step, export and push;
// the caller calls done when it has built what it shows from the spans.
//
// Nearly everything that reading and building a timeline allocate stays
// alive (the spans, the lanes), so the collections that would run meanwhile
// find almost no garbage: they only mark the growing heap again and again.
// For a big file the collector is paused until done, with a memory limit
// as a safety net: the heap so far plus twice the file's size plus 256 MiB
// (spans take about two thirds of their file's size). On a 1,000,000-span
// recording (1.3 GB) this takes `replay --summary` from about 3.5 s to
// 2.2 s on two cores, at the same peak memory (BenchmarkReplaySummary1M).
func readRecording(path string) (spans []traces.Span, done func(), err error) {
	done = func() {}
	if fi, err := os.Stat(path); err == nil && fi.Size() >= bigRecording {
		done = pauseGC(2 * fi.Size())
	}
	spans, err = traces.ReadFile(path)
	return spans, done, err
}

// pauseGC turns the garbage collector off until its result is called,
// unless the heap grows by more than budget bytes (plus 256 MiB), or past a
// lower memory limit the user set (GOMEMLIMIT).
func pauseGC(budget int64) (restore func()) {
	sample := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	metrics.Read(sample)
	limit := int64(sample[0].Value.Uint64()) + budget + 256<<20
	oldLimit := debug.SetMemoryLimit(-1) // -1 reads it
	oldPercent := debug.SetGCPercent(-1)
	debug.SetMemoryLimit(min(limit, oldLimit))
	return func() {
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(oldLimit)
	}
}
