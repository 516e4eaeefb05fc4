package goroutine

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"testing/synctest"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/clock"
)

// polled is what one Poll did: when its checks ran, what it returned, its
// poller's ticks and how long the poller lived.
type polled struct {
	checks []time.Duration
	err    error
	ticks  int
	lived  time.Duration
}

// poll runs one Poll(2s, 10s) in a bubble, with a condition that holds
// from its n-th check on (0: never).
func poll(t *testing.T, n int) polled {
	var checks []time.Duration
	var err error
	var ticks int
	var lived time.Duration
	synctest.Test(t, func(t *testing.T) {
		exp := tracetest.NewInMemoryExporter()
		tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
		clk := clock.NewVirtual(time.Unix(0, 0))
		reg := NewRegistry(clk)
		rt := NewRuntime("test-0", tp.Tracer("test"), clk, reg)
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
	return polled{checks, err, ticks, lived}
}

func TestPollChecksAtEachTickNotAtOnce(t *testing.T) {
	p := poll(t, 2)
	checks, err, ticks, lived := p.checks, p.err, p.ticks, p.lived
	if err != nil || len(checks) != 2 || checks[0] != 2*time.Second || checks[1] != 4*time.Second {
		t.Errorf("checks at %v, err %v; want at 2s and 4s (no immediate check), nil", checks, err)
	}
	if ticks != 2 || lived != 4*time.Second {
		t.Errorf("the poller ticked %d times and lived %s; want 2 and 4s: it ends when Poll returns", ticks, lived)
	}
}

func TestPollTimesOutAfterFiveChecksInTenSeconds(t *testing.T) {
	p := poll(t, 0)
	checks, err, ticks, lived := p.checks, p.err, p.ticks, p.lived
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

// run runs f in a bubble with a runtime that records every iteration,
// until 30s of simulated time have passed after it returned, and returns
// the recorded spans.
func run(t *testing.T, f func(ctx context.Context)) tracetest.SpanStubs {
	return runSampling(t, true, f)
}

// runSampling is run with a runtime that records every iteration (all) or
// samples fast loops, as kubeloom run does by default.
func runSampling(t *testing.T, all bool, f func(ctx context.Context)) tracetest.SpanStubs {
	var spans tracetest.SpanStubs
	synctest.Test(t, func(t *testing.T) {
		exp := tracetest.NewInMemoryExporter()
		tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp), sdktrace.WithSampler(sdktrace.AlwaysSample()))
		clk := clock.NewVirtual(time.Unix(0, 0))
		reg := NewRegistry(clk)
		rt := NewRuntime("test-0", tp.Tracer("test"), clk, reg, WithAllIterations(all))
		ctx, stop := context.WithCancel(rt.Context(context.Background()))
		f(ctx)
		time.Sleep(30 * time.Second)
		stop()
		synctest.Wait()
		if left := reg.Stop(time.Second); len(left) != 0 {
			t.Errorf("leftovers: %v", left)
		}
		spans = exp.GetSpans()
		clk.Stop()
		_ = tp.Shutdown(context.Background())
	})
	return spans
}

func lifetimes(spans tracetest.SpanStubs, name string) (n int, longest time.Duration) {
	for _, s := range spans {
		if s.Name == name {
			n++
			longest = max(longest, s.EndTime.Sub(s.StartTime))
		}
	}
	return n, longest
}

// PollUntil's poller has the caller's stop for done: it ticks on after the
// condition held, until stop (v1.5's leak, kubernetes#70277).
func TestPollUntilPollerOutlivesTheCall(t *testing.T) {
	returned := time.Duration(0)
	spans := run(t, func(ctx context.Context) {
		start := time.Now()
		checks := 0
		if err := PollUntil(ctx, "informer/cache-sync-poller", 100*time.Millisecond, func(context.Context) bool { checks++; return checks == 3 }); err != nil {
			t.Errorf("PollUntil: %v", err)
		}
		returned = time.Since(start)
	})
	if returned != 300*time.Millisecond {
		t.Errorf("PollUntil returned after %s, want 300ms (the third tick)", returned)
	}
	n, lived := lifetimes(spans, "informer/cache-sync-poller")
	if n != 1 || lived < 30*time.Second {
		t.Errorf("%d pollers, living %s; want one that lives on after the call until stop (30s later)", n, lived)
	}
}

// A poller is one goroutine: its ticks are the runtime's waits, not a clock
// ticker's, which would add a goroutine relaying them, and its timeout is a
// timer, which starts none before it fires.
func TestPollerIsOneGoroutine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := clock.NewVirtual(time.Unix(0, 0))
		reg := NewRegistry(clk)
		rt := NewRuntime("test-0", sdktrace.NewTracerProvider().Tracer("test"), clk, reg)
		ctx := rt.Context(context.Background())
		before := runtime.NumGoroutine()
		during := 0
		checks := 0
		if err := Poll(ctx, "cm/leader-poll-ticker", 2*time.Second, 10*time.Second, func(context.Context) bool {
			checks++
			during = max(during, runtime.NumGoroutine()-before)
			return checks == 3
		}); err != nil {
			t.Errorf("Poll: %v", err)
		}
		if during != 1 {
			t.Errorf("the poll ran %d goroutines beside the caller, want 1: the poller", during)
		}
		synctest.Wait()
		if left := reg.Stop(time.Second); len(left) != 0 {
			t.Errorf("the poller outlived its Poll: %v", left)
		}
		clk.Stop()
	})
}

// A poller's ticks are the iterations of its lane, named "tick" and
// sampled as a loop of the interval: a 100ms poller records its first
// three ticks and every 100th (heartbeatEvery), the others counted in the
// next recorded one; a tick the caller took is marked delivered.
func TestPollerTicksAreSampledIterations(t *testing.T) {
	spans := runSampling(t, false, func(ctx context.Context) {
		checks := 0
		if err := PollUntil(ctx, "informer/cache-sync-poller", 100*time.Millisecond, func(context.Context) bool { checks++; return checks == 2 }); err != nil {
			t.Errorf("PollUntil: %v", err)
		}
	})
	ticks := named(spans, "tick")
	want := []struct {
		iteration, skipped int64
		delivered          bool
	}{{1, 0, true}, {2, 0, true}, {3, 0, false}, {100, 96, false}, {200, 99, false}, {300, 99, false}}
	if len(ticks) < len(want) {
		t.Fatalf("%d tick spans, want at least %d", len(ticks), len(want))
	}
	for i, w := range want {
		s := ticks[i]
		if it := attr(s, catalog.AttrIteration); it != w.iteration {
			t.Errorf("tick span %d is iteration %v, want %d", i+1, it, w.iteration)
		}
		if sk, _ := attr(s, catalog.AttrSkipped).(int64); sk != w.skipped {
			t.Errorf("tick %d: %d skipped, want %d", w.iteration, sk, w.skipped)
		}
		if d := attr(s, "delivered") == true; d != w.delivered {
			t.Errorf("tick %d: delivered %v, want %v", w.iteration, d, w.delivered)
		}
		if g := attr(s, catalog.AttrGoroutineName); g != "informer/cache-sync-poller" {
			t.Errorf("tick %d: goroutine.name %v", w.iteration, g)
		}
		if p := attr(s, catalog.AttrGoroutinePeriod); p != nil {
			t.Errorf("tick %d has %s=%v, want none: the poller's lifetime span has it", w.iteration, catalog.AttrGoroutinePeriod, p)
		}
		if s.StartTime.Sub(ticks[0].StartTime) != time.Duration(w.iteration-1)*100*time.Millisecond {
			t.Errorf("tick %d at %s after the first, want %dms", w.iteration, s.StartTime.Sub(ticks[0].StartTime), (w.iteration-1)*100)
		}
	}
}

// A poll's interval and timeout are on its poller's lifetime span, with
// the "timeout" event; its ticks do not repeat them.
func TestPollRecordsIntervalAndTimeoutOnItsPoller(t *testing.T) {
	spans := run(t, func(ctx context.Context) {
		if err := Poll(ctx, "cm/leader-poll-ticker", 2*time.Second, 10*time.Second, func(context.Context) bool { return false }); !errors.Is(err, ErrWaitTimeout) {
			t.Errorf("Poll: %v, want ErrWaitTimeout", err)
		}
	})
	life := named(spans, "cm/leader-poll-ticker")
	if len(life) != 1 {
		t.Fatalf("%d pollers, want 1", len(life))
	}
	l := life[0]
	for key, want := range map[string]any{catalog.AttrGoroutinePeriod: 2.0, "wait.timeout_s": 10.0, catalog.AttrGoroutineKind: catalog.KindGo} {
		if got := attr(l, key); got != want {
			t.Errorf("poller %s = %v, want %v", key, got, want)
		}
	}
	if len(l.Events) != 1 || l.Events[0].Name != "timeout" || l.Events[0].Time.Sub(l.StartTime) != 10*time.Second {
		t.Errorf("poller events %+v, want one: timeout, 10s in", l.Events)
	}
	ticks := named(spans, "tick")
	if len(ticks) != 4 {
		t.Fatalf("%d ticks, want 4", len(ticks))
	}
	for _, s := range ticks {
		for _, key := range []string{catalog.AttrGoroutinePeriod, "wait.timeout_s"} {
			if got := attr(s, key); got != nil {
				t.Errorf("tick %v has %s=%v, want none", attr(s, catalog.AttrIteration), key, got)
			}
		}
		if s.Parent.SpanID() != l.SpanContext.SpanID() {
			t.Errorf("tick %v is not the poller's", attr(s, catalog.AttrIteration))
		}
	}
}

// Today's PollImmediateUntil checks at once and starts no poller when the
// condition already holds; otherwise its poller ends with the call.
func TestPollImmediateUntilStopsItsPoller(t *testing.T) {
	spans := run(t, func(ctx context.Context) {
		if err := PollImmediateUntil(ctx, "informer/cache-sync-poller", 100*time.Millisecond, func(context.Context) bool { return true }); err != nil {
			t.Errorf("PollImmediateUntil: %v", err)
		}
	})
	if n, _ := lifetimes(spans, "informer/cache-sync-poller"); n != 0 {
		t.Errorf("%d pollers for a condition that held at once, want none", n)
	}
	spans = run(t, func(ctx context.Context) {
		checks := 0
		if err := PollImmediateUntil(ctx, "informer/cache-sync-poller", 100*time.Millisecond, func(context.Context) bool { checks++; return checks == 3 }); err != nil {
			t.Errorf("PollImmediateUntil: %v", err)
		}
	})
	if n, lived := lifetimes(spans, "informer/cache-sync-poller"); n != 1 || lived != 200*time.Millisecond {
		t.Errorf("%d pollers living %s, want one for the two ticks it took (200ms)", n, lived)
	}
}

// Today's loop polls on the caller: at once, then every interval, and a
// tick at the deadline ends it without a check.
func TestPollUntilContextTimeoutPollsOnTheCaller(t *testing.T) {
	var checks []time.Duration
	var err error
	spans := run(t, func(ctx context.Context) {
		start := time.Now()
		err = PollUntilContextTimeout(ctx, 2*time.Second, 10*time.Second, true, func(context.Context) bool {
			checks = append(checks, time.Since(start))
			return false
		})
	})
	want := []time.Duration{0, 2 * time.Second, 4 * time.Second, 6 * time.Second, 8 * time.Second}
	if !errors.Is(err, context.DeadlineExceeded) || len(checks) != len(want) {
		t.Fatalf("checks at %v, err %v; want %v and the deadline's error", checks, err, want)
	}
	for i := range want {
		if checks[i] != want[i] {
			t.Errorf("check %d at %s, want %s", i+1, checks[i], want[i])
		}
	}
	if len(spans) != 0 {
		t.Errorf("%d spans: today's poll starts no goroutine", len(spans))
	}
}
