//go:build unix

package main

import (
	"io"
	"testing"
)

// BenchmarkDiff1M: `kubeloom diff A B` of two recordings of one million
// spans each (BenchmarkReplaySummary1M's, or KUBELOOM_BENCH_RECORDING's,
// read twice, in parallel), the whole command: issue 33 wants it within 5 s
// and 2 GB on 2 cores. It reports the CPU time and the peak resident set.
//
//	go test ./cmd/kubeloom -run '^$' -bench Diff1M -benchtime 1x
func BenchmarkDiff1M(b *testing.B) {
	path, n, size := benchRecording(b)
	report := measure(b, 2*size)
	for b.Loop() {
		o := &diffOptions{io: streams{out: io.Discard, err: io.Discard}, a: path, b: path, width: 120}
		if err := runDiff(o); err != nil {
			b.Fatalf("diff of a recording with itself: %v", err)
		}
	}
	report(2 * n)
}
