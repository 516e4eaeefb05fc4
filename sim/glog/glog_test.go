package glog

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// TestFlushDaemonTicksEvery30s: Init records glog.init and starts the
// daemon under it, which flushes at 30s, 60s, 90s (a ticker: not at once)
// until the process ends.
func TestFlushDaemonTicksEvery30s(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		exp := tracetest.NewInMemoryExporter()
		tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
		clk := clock.NewVirtual(time.Unix(0, 0))
		reg := goroutine.NewRegistry(clk)
		rt := goroutine.NewRuntime("cm-0", tp.Tracer("test"), clk, reg)
		ctx, stop := context.WithCancel(rt.Context(context.Background()))
		start := clk.Now()
		Init(ctx, "cm/glog-flush-daemon")
		time.Sleep(100 * time.Second)
		stop()
		synctest.Wait()
		if left := reg.Stop(time.Second); len(left) != 0 {
			t.Errorf("the daemon outlived its process: %v", left)
		}
		var init, daemon sdktrace.ReadOnlySpan
		var flushes []time.Duration
		for _, s := range exp.GetSpans().Snapshots() {
			switch s.Name() {
			case "glog.init":
				init = s
			case "cm/glog-flush-daemon":
				daemon = s
			case "lockAndFlushAll":
				flushes = append(flushes, s.StartTime().Sub(start))
			}
		}
		if init == nil || daemon == nil || daemon.Parent().SpanID() != init.SpanContext().SpanID() {
			t.Fatalf("want the daemon started under glog.init")
		}
		want := []time.Duration{30 * time.Second, 60 * time.Second, 90 * time.Second}
		if len(flushes) != len(want) {
			t.Fatalf("flushes at %v, want %v", flushes, want)
		}
		for i := range want {
			if flushes[i] != want[i] {
				t.Errorf("flush %d at %s, want %s", i+1, flushes[i], want[i])
			}
		}
		clk.Stop()
		_ = tp.Shutdown(context.Background())
	})
}
