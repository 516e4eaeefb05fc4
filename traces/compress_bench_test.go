//go:build unix

package traces

import (
	"bytes"
	"context"
	"os"
	"runtime"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// benchRecording is the text the compression benchmarks work on: the plain
// recording KUBELOOM_BENCH_RECORDING names (such as a 100-node run), else
// 20,000 typical spans, each with its own IDs and times.
func benchRecording(b *testing.B) (text []byte, spans int) {
	b.Helper()
	if path := os.Getenv("KUBELOOM_BENCH_RECORDING"); path != "" {
		text, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		return text, bytes.Count(text, []byte{'\n'})
	}
	var w writeLog
	rec := NewRecorder(&w)
	if err := rec.ExportSpans(context.Background(), typicalSpans(b, 20000)); err != nil {
		b.Fatal(err)
	}
	return bytes.Join(w.writes, nil), 20000
}

// recordedBatches cuts text as a run's collector hands it to the Recorder:
// batches of 1024 lines.
func recordedBatches(text []byte) [][]byte {
	var batches [][]byte
	for len(text) > 0 {
		end := len(text)
		if n := nthLineEnd(text, 1024); n > 0 {
			end = n
		}
		batches = append(batches, text[:end])
		text = text[end:]
	}
	return batches
}

// compressAsRecorded compresses batches as the Recorder writes them to a
// CompressedWriter: each batch in writes of at most writeThreshold, then
// flushed.
func compressAsRecorded(b *testing.B, batches [][]byte, level zstd.EncoderLevel, w *bytes.Buffer) {
	cw := newCompressedWriter(w, level)
	for _, batch := range batches {
		for len(batch) > 0 {
			n := min(len(batch), writeThreshold)
			if _, err := cw.Write(batch[:n]); err != nil {
				b.Fatal(err)
			}
			batch = batch[n:]
		}
		if err := cw.Flush(); err != nil {
			b.Fatal(err)
		}
	}
	if err := cw.Close(); err != nil {
		b.Fatal(err)
	}
}

// nthLineEnd is the offset just past the nth line of text, or 0 if it has
// fewer.
func nthLineEnd(text []byte, n int) int {
	end := 0
	for range n {
		i := bytes.IndexByte(text[end:], '\n')
		if i < 0 {
			return 0
		}
		end += i + 1
	}
	return end
}

// BenchmarkCompress: one op compresses the whole recording as a run writes
// it, at kubeloom's level and the ones either side; cpu-ns/span is the
// process CPU (the encoder works on another goroutine), bytes/span the
// compressed size.
func BenchmarkCompress(b *testing.B) {
	text, spans := benchRecording(b)
	batches := recordedBatches(text)
	for _, level := range []zstd.EncoderLevel{zstd.SpeedFastest, zstd.SpeedDefault, zstd.SpeedBetterCompression} {
		b.Run(level.String(), func(b *testing.B) {
			var out bytes.Buffer
			out.Grow(len(text) / 4)
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			runtime.GC()
			b.ResetTimer()
			cpu0 := cpuTime(b)
			for range b.N {
				out.Reset()
				compressAsRecorded(b, batches, level, &out)
			}
			cpu := cpuTime(b) - cpu0
			b.StopTimer()
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*spans), "cpu-ns/span")
			b.ReportMetric(float64(out.Len())/float64(spans), "bytes/span")
			b.ReportMetric(float64(len(text))/float64(out.Len()), "ratio")
		})
	}
}

// BenchmarkReadCompressed: reading the same spans plain and compressed (at
// kubeloom's level). MB/s is of the plain text in both.
func BenchmarkReadCompressed(b *testing.B) {
	text, spans := benchRecording(b)
	var compressed bytes.Buffer
	compressAsRecorded(b, recordedBatches(text), compressionLevel, &compressed)
	for _, input := range []struct {
		name string
		data []byte
	}{{"plain", text}, {"zstd", compressed.Bytes()}} {
		b.Run(input.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			runtime.GC()
			b.ResetTimer()
			cpu0 := cpuTime(b)
			for range b.N {
				got, err := Read(bytes.NewReader(input.data), "bench.jsonl")
				if err != nil || len(got) != spans {
					b.Fatalf("%d spans, error %v; want %d", len(got), err, spans)
				}
			}
			cpu := cpuTime(b) - cpu0
			b.StopTimer()
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*spans), "cpu-ns/span")
		})
	}
}
