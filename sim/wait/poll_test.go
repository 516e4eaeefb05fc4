package wait

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// poll runs one Poll(2s, 10s) in a bubble, with a condition that holds
// from its n-th check on (0: never), and returns when the checks ran, what
// Poll returned, and the poller's ticks.
func poll(t *testing.T, n int) (checks []time.Duration, err error, ticks int, lived time.Duration) {
	synctest.Test(t, func(t *testing.T) {
		exp := tracetest.NewInMemoryExporter()
		tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
		clk := clock.NewVirtual(time.Unix(0, 0))
		reg := goroutine.NewRegistry(clk)
		rt := goroutine.NewRuntime("test-0", tp.Tracer("test"), clk, reg)
		ctx := rt.Context(context.Background())
		start := clk.Now()
		err = Poll(ctx, "cm/leader-poll-ticker", 2*time.Second, 10*time.Second, func(context.Context) bool {
			checks = append(checks, clk.Since(start))
			return len(checks) == n
		})
		synctest.Wait()
		if left := reg.Stop(time.Second); len(left) != 0 {
			t.Errorf("the poller outlived its Poll: %v", left)
		}
		for _, s := range exp.GetSpans() {
			switch s.Name {
			case "tick":
				ticks++
			case "cm/leader-poll-ticker":
				lived = s.EndTime.Sub(s.StartTime)
			}
		}
		clk.Stop()
		_ = tp.Shutdown(context.Background())
	})
	return checks, err, ticks, lived
}

func TestPollChecksAtEachTickNotAtOnce(t *testing.T) {
	checks, err, ticks, lived := poll(t, 2)
	if err != nil || len(checks) != 2 || checks[0] != 2*time.Second || checks[1] != 4*time.Second {
		t.Errorf("checks at %v, err %v; want at 2s and 4s (no immediate check), nil", checks, err)
	}
	if ticks != 2 || lived != 4*time.Second {
		t.Errorf("the poller ticked %d times and lived %s; want 2 and 4s: it ends when Poll returns", ticks, lived)
	}
}

func TestPollTimesOutAfterFiveChecksInTenSeconds(t *testing.T) {
	checks, err, ticks, lived := poll(t, 0)
	want := []time.Duration{2 * time.Second, 4 * time.Second, 6 * time.Second, 8 * time.Second, 10 * time.Second}
	if !errors.Is(err, ErrWaitTimeout) || len(checks) != len(want) {
		t.Fatalf("checks at %v, err %v; want %v and ErrWaitTimeout", checks, err, want)
	}
	for i := range want {
		if checks[i] != want[i] {
			t.Errorf("check %d at %s, want %s", i+1, checks[i], want[i])
		}
	}
	if ticks != 4 || lived != 10*time.Second {
		t.Errorf("the poller ticked %d times and lived %s; want 4 ticks (the 10s timeout wins over the 10s tick) and 10s", ticks, lived)
	}
}
