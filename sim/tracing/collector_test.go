package tracing

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// slowExporter counts spans and takes a while per batch.
type slowExporter struct {
	mu      sync.Mutex
	spans   int
	batches int
	delay   time.Duration
	stopped bool
}

func (e *slowExporter) ExportSpans(_ context.Context, spans []sdktrace.ReadOnlySpan) error {
	time.Sleep(e.delay) // virtual time inside the synctest bubble: a slow disk
	e.mu.Lock()
	defer e.mu.Unlock()
	e.spans += len(spans)
	e.batches++
	return nil
}

func (e *slowExporter) Shutdown(context.Context) error { e.stopped = true; return nil }

func TestCollectorNeverDrops(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		exp := &slowExporter{delay: 50 * time.Millisecond}
		c := newCollector(exp)
		c.maxQueued = 100 // far fewer than the spans below: producers must wait
		tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(c))
		tracer := tp.Tracer("t")
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				for range 2500 {
					_, sp := tracer.Start(context.Background(), "s")
					sp.End()
				}
			})
		}
		wg.Wait()
		if err := c.ForceFlush(context.Background()); err != nil {
			t.Fatal(err)
		}
		if exp.spans != 10000 {
			t.Errorf("exported %d spans after ForceFlush, want 10000", exp.spans)
		}
		if err := tp.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
		if !exp.stopped {
			t.Error("the exporter was not shut down")
		}
		if err := c.Shutdown(context.Background()); err != nil {
			t.Errorf("second Shutdown: %v", err)
		}
		_, sp := tracer.Start(context.Background(), "late")
		sp.End() // ignored, and must not block
		if exp.spans != 10000 {
			t.Errorf("a span ended after Shutdown was exported")
		}
	})
}

func TestCollectorExportsPartialBatchesOnItsInterval(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		exp := &slowExporter{}
		c := newCollector(exp)
		tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(c))
		_, sp := tp.Tracer("t").Start(context.Background(), "one")
		sp.End()
		time.Sleep(c.interval + time.Millisecond)
		synctest.Wait()
		exp.mu.Lock()
		n := exp.spans
		exp.mu.Unlock()
		if n != 1 {
			t.Errorf("after one interval %d spans are exported, want 1", n)
		}
		tp.Shutdown(context.Background())
	})
}
