package timeline

import (
	"fmt"
	"testing"

	"github.com/kubeloom/kubeloom/traces"
)

// BenchmarkBuild and BenchmarkOutline arrange randomRecording's spans: 10k
// (one goroutine: below the size worth another) and 100k (on every CPU,
// with the sharded index and the keyed sort). They measure Build's own
// work, not reading a file (cmd/kubeloom's BenchmarkReplaySummary1M
// measures the whole command).
//
//	go test ./traces/timeline -run '^$' -bench 'Build|Outline' -benchmem
func BenchmarkBuild(b *testing.B) { benchBuild(b, Build) }

func BenchmarkOutline(b *testing.B) { benchBuild(b, Outline) }

func benchBuild(b *testing.B, build func([]traces.Span) *Timeline) {
	for _, n := range []int{10_000, 100_000} {
		spans := randomRecording(1, n)
		b.Run(fmt.Sprintf("spans=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				build(spans)
			}
		})
	}
}
