//go:build unix

package traces

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

const batchSize = 512 // the BatchSpanProcessor's default export batch

var benchResource = resource.NewSchemaless(
	attribute.String("service.name", "kubelet"),
	attribute.String("service.instance.id", "node-1"),
	attribute.String("kubeloom.scenario", "kubelet-startup"),
)

// typicalSpans returns n finished spans shaped like kubeloom's: 10
// attributes (strings, ints, a float, a bool), 1 link with 2 attributes and
// 1 event.
func typicalSpans(b *testing.B, n int) []sdktrace.ReadOnlySpan {
	b.Helper()
	ctx := context.Background()
	sr := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr), sdktrace.WithResource(benchResource))
	tr := tp.Tracer("github.com/kubeloom/kubeloom/sim", trace.WithInstrumentationVersion("0.1.0"))
	_, cause := tr.Start(ctx, "informer/listener-pop")
	cause.End()
	t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	for i := range n {
		start := t0.Add(time.Duration(i) * 1234567 * time.Nanosecond)
		_, s := tr.Start(ctx, "Containers/GarbageCollect",
			trace.WithTimestamp(start),
			trace.WithAttributes(
				attribute.String("goroutine.name", "kubelet/container-gc"),
				attribute.String("goroutine.kind", "until"),
				attribute.Float64("goroutine.period_s", 60),
				attribute.String("code.function.name", "k8s.io/kubernetes/pkg/kubelet.(*Kubelet).StartGarbageCollection"),
				attribute.String("code.file.path", "pkg/kubelet/kubelet.go"),
				attribute.String("kubeloom.article", "kubelet-goroutines.zh.txt#3"),
				attribute.Int("iteration", i),
				attribute.String("k8s.node.name", "node-1"),
				attribute.Bool("kubeloom.sampled", i%2 == 0),
				attribute.Int("kubeloom.skipped_iterations", 3),
			),
			trace.WithLinks(trace.Link{SpanContext: cause.SpanContext(), Attributes: []attribute.KeyValue{
				attribute.String("kubeloom.link", "cause"),
				attribute.String("k8s.object.key", "default/web-0"),
			}}),
		)
		s.AddEvent("became leader", trace.WithTimestamp(start.Add(time.Millisecond)))
		s.End(trace.WithTimestamp(start.Add(3 * time.Millisecond)))
	}
	if err := tp.Shutdown(ctx); err != nil {
		b.Fatal(err)
	}
	return sr.Ended()[1:]
}

// exportAll exports b.N spans in batches of batchSize.
func exportAll(b *testing.B, exp sdktrace.SpanExporter, spans []sdktrace.ReadOnlySpan) {
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; n += len(spans) {
		if err := exp.ExportSpans(ctx, spans[:min(len(spans), b.N-n)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRecorderEncode: one op is one typical span encoded and written to
// io.Discard, in batches of 512.
func BenchmarkRecorderEncode(b *testing.B) {
	spans := typicalSpans(b, batchSize)
	rec := NewRecorder(io.Discard)
	exportAll(b, rec, spans)
	b.StopTimer()
	bytesPerSpan(b, spans)
}

// BenchmarkRecorderVsStdouttrace: the same with the stdouttrace exporter.
// (A span's whole cost, made and recorded, side by side with the SDK's
// floor and stdouttrace's, is sim/tracing's BenchmarkSpanCost.)
func BenchmarkRecorderVsStdouttrace(b *testing.B) {
	spans := typicalSpans(b, batchSize)
	exp, err := stdouttrace.New(stdouttrace.WithWriter(io.Discard))
	if err != nil {
		b.Fatal(err)
	}
	exportAll(b, exp, spans)
}

// BenchmarkRecorderEncodeToFile: encoding and writing to a real file, one
// write(2) per export batch (or per MiB), for batch sizes from the BSP's
// default to tiny ones: the cost of writing each batch out at once.
func BenchmarkRecorderEncodeToFile(b *testing.B) {
	for _, size := range []int{512, 64, 8} {
		b.Run("batch="+strconv.Itoa(size), func(b *testing.B) {
			spans := typicalSpans(b, size)
			f := createFile(b)
			rec := NewRecorder(f)
			exportAll(b, rec, spans)
			b.StopTimer()
			if err := rec.Shutdown(context.Background()); err != nil {
				b.Fatal(err)
			}
			closeFile(b, f)
		})
	}
}

func bytesPerSpan(b *testing.B, spans []sdktrace.ReadOnlySpan) {
	var w countingWriter
	rec := NewRecorder(&w)
	if err := rec.ExportSpans(context.Background(), spans); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(w)/float64(len(spans)), "bytes/span")
}

type countingWriter int64

func (w *countingWriter) Write(p []byte) (int, error) {
	*w += countingWriter(len(p))
	return len(p), nil
}

func createFile(b *testing.B) *os.File {
	f, err := os.Create(filepath.Join(b.TempDir(), "bench.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	return f
}

func closeFile(b *testing.B, f *os.File) {
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
}

// cpuTime is the CPU time (user+system) the process has used so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRead: reading a recording back, per span: 512 typical spans a
// Read, so on one goroutine (a chunk). cpu-ns/op is the process's CPU time
// an op, steadier than ns/op on a loaded machine.
func BenchmarkRead(b *testing.B) {
	spans := typicalSpans(b, batchSize)
	var w writeLog
	rec := NewRecorder(&w)
	if err := rec.ExportSpans(context.Background(), spans); err != nil {
		b.Fatal(err)
	}
	// The Recorder writes a batch in pieces of at most writeThreshold:
	// all of them are the recording.
	data := bytes.Join(w.writes, nil)
	if n := bytes.Count(data, []byte{'\n'}); n != len(spans) {
		b.Fatalf("%d lines for %d spans", n, len(spans))
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime(b)
	for n := 0; n < b.N; n += len(spans) {
		k := min(len(spans), b.N-n)
		lines := data
		if k < len(spans) {
			end := 0
			for range k {
				end += bytes.IndexByte(data[end:], '\n') + 1
			}
			lines = data[:end]
		}
		if _, err := Read(bytes.NewReader(lines), "bench.jsonl"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cpuTime(b)-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}
