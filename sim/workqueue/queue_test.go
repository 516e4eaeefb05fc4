package workqueue

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.uber.org/goleak"

	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestWorkersSyncKeysLinkedToWhatEnqueuedThem(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk, _ := clock.NewScaled(1)
		exp := tracetest.NewInMemoryExporter()
		tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
		reg := goroutine.NewRegistry(clk)
		ctx, cancel := context.WithCancel(goroutine.NewRuntime("cm-0", tp.Tracer("t"), clk, reg).Context(context.Background()))
		q := New(ctx, "endpoint")
		var mu sync.Mutex // two workers sync
		synced := map[string]int{}
		failOnce := true
		q.Workers(ctx, "controller/endpoint/worker", 2, "syncService", func(ctx context.Context, key string) error {
			mu.Lock()
			defer mu.Unlock()
			synced[key]++
			switch {
			case key == "default/flaky" && failOnce:
				failOnce = false
				return errors.New("conflict")
			case key == "default/later" && synced[key] == 1:
				return RetryAfter{After: 5 * time.Second, Reason: "content remaining"}
			}
			return nil
		})
		hctx, handler := goroutine.Start(ctx, "OnAdd")
		for _, k := range []string{"default/web", "default/flaky", "default/later"} {
			q.Add(hctx, k)
		}
		handler.End()
		clk.Sleep(10 * time.Second)
		cancel()
		reg.Stop(time.Second)
		spans := exp.GetSpans()
		tp.Shutdown(context.Background())
		if synced["default/web"] != 1 || synced["default/flaky"] != 2 || synced["default/later"] != 2 {
			t.Errorf("syncs = %v, want web once, flaky retried, later retried after 5s", synced)
		}
		var syncs, linked, workers int
		for _, s := range spans {
			switch s.Name {
			case "syncService":
				syncs++
				for _, l := range s.Links {
					if l.SpanContext.SpanID() == handler.SpanContext().SpanID() {
						linked++
					}
				}
			case "controller/endpoint/worker":
				workers++
			}
		}
		// A retry (after an error, or asked for with RetryAfter) is
		// linked to the sync that failed or asked.
		later := 0
		for _, s := range spans {
			if s.Name == "syncService" && len(s.Links) == 1 && s.Links[0].SpanContext.SpanID() != handler.SpanContext().SpanID() {
				later++
			}
		}
		if later != 2 {
			t.Errorf("%d syncs linked to an earlier sync, want 2 (flaky's and later's retries)", later)
		}
		if syncs != 5 || linked != 3 || workers != 2 {
			t.Errorf("%d sync spans, %d linked to the handler, %d workers; want 5, 3 (the first sync of each key), 2", syncs, linked, workers)
		}
	})
}
