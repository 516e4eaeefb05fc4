package goroutine

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/clock"
)

type harness struct {
	rt  *Runtime
	reg *Registry
	clk *clock.Scaled
	tp  *sdktrace.TracerProvider
	exp *tracetest.InMemoryExporter
	ctx context.Context
}

// newHarness must be called inside a synctest bubble.
func newHarness(t *testing.T, speed float64, opts ...RuntimeOption) *harness {
	t.Helper()
	clk, err := clock.NewScaled(speed)
	if err != nil {
		t.Fatal(err)
	}
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	reg := NewRegistry(clk)
	rt := NewRuntime("test-0", tp.Tracer("test"), clk, reg, opts...)
	return &harness{rt: rt, reg: reg, clk: clk, tp: tp, exp: exp, ctx: rt.Context(context.Background())}
}

func (h *harness) stop(t *testing.T) tracetest.SpanStubs {
	t.Helper()
	if left := h.reg.Stop(time.Second); len(left) != 0 {
		t.Errorf("leftovers: %v", left)
	}
	spans := h.exp.GetSpans() // before Shutdown, which empties the exporter
	if err := h.tp.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	return spans
}

func attr(s tracetest.SpanStub, key string) any {
	for _, kv := range s.Attributes {
		if string(kv.Key) == key {
			return kv.Value.AsInterface()
		}
	}
	return nil
}

func named(spans tracetest.SpanStubs, name string) []tracetest.SpanStub {
	var out []tracetest.SpanStub
	for _, s := range spans {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

func TestUntilIterationsAndLifetime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, 1)
		start := h.clk.Now()
		h.rt.Until(h.ctx, "reflector/list-watch", 10*time.Second, func(ctx context.Context) {}, WithIterationName("ListAndWatch"))
		h.clk.Sleep(35 * time.Second)
		spans := h.stop(t)

		life := named(spans, "reflector/list-watch")
		if len(life) != 1 {
			t.Fatalf("lifetime spans = %d, want 1", len(life))
		}
		l := life[0]
		for key, want := range map[string]any{
			catalog.AttrGoroutineName:   "reflector/list-watch",
			catalog.AttrGoroutineKind:   "until",
			catalog.AttrGoroutinePeriod: 10.0,
			catalog.AttrCodeFile:        "pkg/client/cache/reflector.go",
		} {
			if got := attr(l, key); got != want {
				t.Errorf("lifetime %s = %v, want %v", key, got, want)
			}
		}
		its := named(spans, "ListAndWatch")
		if len(its) != 4 {
			t.Fatalf("iterations = %d, want 4 (at 0s, 10s, 20s, 30s)", len(its))
		}
		for i, it := range its {
			if got := attr(it, catalog.AttrIteration); got != int64(i+1) {
				t.Errorf("iteration %d has iteration=%v", i, got)
			}
			if it.Parent.SpanID() != l.SpanContext.SpanID() {
				t.Errorf("iteration %d is not a child of the lifetime span", i)
			}
			if at := it.StartTime.Sub(start); at != time.Duration(i)*10*time.Second {
				t.Errorf("iteration %d starts at %v, want %v", i, at, time.Duration(i)*10*time.Second)
			}
		}
	})
}

// WithPeriod puts the period on the lifetime span alone, as Until's own
// period is: a goroutine looping on its own timer (here a Main loop of
// period 0 around a longer wait, v1.5's renew) still runs as it loops.
func TestWithPeriodIsTheLifetimeSpansOnly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, 1)
		ctx, cancel := context.WithCancel(h.ctx)
		start := h.clk.Now()
		var at []time.Duration
		h.rt.Main(ctx, "cm/leader-renew", 0, 0, func(ctx context.Context) {
			at = append(at, h.clk.Since(start))
			if len(at) == 3 {
				cancel()
				return
			}
			h.clk.Sleep(2 * time.Second)
		}, WithIterationName("renew"), WithAttributes(attribute.String("k", "v")), WithPeriod(2*time.Second))
		spans := h.stop(t)
		if want := []time.Duration{0, 2 * time.Second, 4 * time.Second}; !slices.Equal(at, want) {
			t.Errorf("iterations at %v, want %v: WithPeriod changes no loop", at, want)
		}
		life := named(spans, "cm/leader-renew")
		if len(life) != 1 {
			t.Fatalf("lifetime spans = %d, want 1", len(life))
		}
		if got := attr(life[0], catalog.AttrGoroutinePeriod); got != 2.0 {
			t.Errorf("lifetime %s = %v, want 2", catalog.AttrGoroutinePeriod, got)
		}
		its := named(spans, "renew")
		if len(its) != 3 {
			t.Fatalf("iterations = %d, want 3", len(its))
		}
		for i, it := range its {
			if got := attr(it, catalog.AttrGoroutinePeriod); got != nil {
				t.Errorf("iteration %d has %s=%v, want none: the lane has it", i+1, catalog.AttrGoroutinePeriod, got)
			}
			if got := attr(it, "k"); got != "v" {
				t.Errorf("iteration %d has k=%v, want v: WithAttributes is every span's", i+1, got)
			}
		}
	})
}

func TestScaledTimestampsShowSimulatedPeriods(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, 60)
		realStart := time.Now()
		h.rt.Until(h.ctx, "reflector/list-watch", time.Minute, func(ctx context.Context) {})
		h.clk.Sleep(150 * time.Second)
		if real := time.Since(realStart); real != 2500*time.Millisecond {
			t.Errorf("150 simulated seconds at speed 60 took %v of (virtual) real time, want 2.5s", real)
		}
		its := named(h.stop(t), "list-watch")
		if len(its) != 3 {
			t.Fatalf("iterations = %d, want 3", len(its))
		}
		gap := its[1].StartTime.Sub(its[0].StartTime)
		if d := gap - time.Minute; d < -time.Millisecond || d > time.Millisecond {
			t.Errorf("iterations are %v apart in the trace, want 1m", gap)
		}
	})
}

func TestSamplingKeepsBusyAndHeartbeatIterations(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, 1)
		n := 0
		h.rt.Until(h.ctx, "informer/run", time.Second, func(ctx context.Context) {
			n++
			if n == 7 {
				_, sp := Start(ctx, "work")
				sp.End()
			}
		})
		h.clk.Sleep(20*time.Second + time.Millisecond) // iterations 1..21
		spans := h.stop(t)
		var got []int64
		for _, s := range named(spans, "run") {
			got = append(got, attr(s, catalog.AttrIteration).(int64))
		}
		want := []int64{1, 2, 3, 7, 10, 20}
		if len(got) != len(want) {
			t.Fatalf("recorded iterations %v, want %v", got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("recorded iterations %v, want %v", got, want)
			}
		}
		work := named(spans, "work")
		it7 := named(spans, "run")[3]
		if len(work) != 1 || work[0].Parent.SpanID() != it7.SpanContext.SpanID() {
			t.Errorf("the busy iteration's span is not the parent of its work")
		}
		if it7.StartTime.After(work[0].StartTime) {
			t.Errorf("a lazily recorded iteration must keep its own start time")
		}
		if got := attr(it7, catalog.AttrSkipped); got != int64(3) {
			t.Errorf("iteration 7 skipped = %v, want 3 (4, 5, 6)", got)
		}
	})
}

func TestAllIterationsRecordsEverything(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, 1, WithAllIterations(true))
		h.rt.Until(h.ctx, "informer/run", time.Second, func(ctx context.Context) {})
		h.clk.Sleep(20*time.Second + time.Millisecond)
		if n := len(named(h.stop(t), "run")); n != 21 {
			t.Errorf("iterations = %d, want 21", n)
		}
	})
}

func TestStopNamesLeftovers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, 1)
		release := make(chan struct{})
		h.rt.Go(h.ctx, "watch/stream-receive", func(ctx context.Context) { <-release }) // ignores ctx
		h.rt.Go(h.ctx, "informer/listener-pop", func(ctx context.Context) { <-ctx.Done() })
		left := h.reg.Stop(5 * time.Second)
		if len(left) != 1 || left[0].Name != "watch/stream-receive" || left[0].Instance != "test-0" || left[0].N != 1 {
			t.Errorf("leftovers = %v, want one watch/stream-receive", left)
		}
		close(release)
		synctest.Wait()
		if live := h.reg.Live(); len(live) != 0 {
			t.Errorf("still live after release: %v", live)
		}
		counts := h.reg.Counts()
		if len(counts) != 2 || counts[0].Started != 1 || counts[0].Stopped != 1 {
			t.Errorf("counts = %v", counts)
		}
		h.tp.Shutdown(context.Background())
	})
}

func TestPprofLabelsAndGoroutineContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, 1)
		got := make(chan string, 1)
		h.rt.Go(h.ctx, "informer/listener-run", func(ctx context.Context) {
			v, _ := pprof.Label(ctx, catalog.AttrGoroutineName)
			got <- v
			_, sp := Iterate(ctx, "OnAdd")
			sp.End()
		})
		if v := <-got; v != "informer/listener-run" {
			t.Errorf("pprof label goroutine.name = %q", v)
		}
		spans := h.stop(t)
		if it := named(spans, "OnAdd"); len(it) != 1 || attr(it[0], catalog.AttrIteration) != int64(1) {
			t.Errorf("Iterate did not record iteration 1: %v", it)
		}
	})
}

func TestJitterIsSeeded(t *testing.T) {
	starts := func(seed int64) []time.Duration {
		var out []time.Duration
		synctest.Test(t, func(t *testing.T) {
			h := newHarness(t, 1, WithSeed(seed))
			t0 := h.clk.Now()
			h.rt.JitterUntil(h.ctx, "reflector/list-watch", 2*time.Second, 1.2, true, func(ctx context.Context) {})
			h.clk.Sleep(30 * time.Second)
			for _, s := range named(h.stop(t), "list-watch") {
				out = append(out, s.StartTime.Sub(t0))
			}
		})
		return out
	}
	a, b, c := starts(1), starts(1), starts(2)
	if len(a) < 5 {
		t.Fatalf("too few iterations: %v", a)
	}
	for i := 1; i < len(a); i++ {
		if gap := a[i] - a[i-1]; gap < 2*time.Second || gap > 2*time.Second+2400*time.Millisecond {
			t.Errorf("gap %v outside wait.JitterUntil's [2s, 4.4s]", gap)
		}
	}
	if strings.Join(durs(a), ",") != strings.Join(durs(b), ",") {
		t.Errorf("same seed, different jitter: %v vs %v", a, b)
	}
	if strings.Join(durs(a), ",") == strings.Join(durs(c), ",") {
		t.Errorf("different seeds, same jitter: %v", a)
	}
}

// TestSeedKeyTellsGoroutinesApart holds WithSeedKey to its promise: two
// goroutines of one name and instance with different keys draw different
// jitter, a key draws the same in every run of a seed and otherwise with
// another seed, and no key (or an empty one) draws what the name alone
// always drew.
func TestSeedKeyTellsGoroutinesApart(t *testing.T) {
	// starts runs one goroutine of the name per key ("-": no option) and
	// returns each one's iteration starts, by key.
	starts := func(seed int64, keys ...string) map[string]string {
		out := map[string]string{}
		synctest.Test(t, func(t *testing.T) {
			h := newHarness(t, 1, WithSeed(seed))
			t0 := h.clk.Now()
			for _, k := range keys {
				opts := []Option{WithIterationName("it " + k)}
				if k != "-" {
					opts = append(opts, WithSeedKey(k))
				}
				h.rt.JitterUntil(h.ctx, "kubelet/volume-stat-calculator", 2*time.Second, 1.0, true, func(ctx context.Context) {}, opts...)
			}
			h.clk.Sleep(30 * time.Second)
			spans := h.stop(t)
			for _, k := range keys {
				var at []time.Duration
				for _, s := range named(spans, "it "+k) {
					at = append(at, s.StartTime.Sub(t0))
				}
				if len(at) < 5 {
					t.Errorf("seed %d, key %q: too few iterations: %v", seed, k, at)
				}
				out[k] = strings.Join(durs(at), ",")
			}
		})
		return out
	}
	a, b, c := starts(1, "pod-a", "pod-b", "-", ""), starts(1, "pod-a", "pod-b", "-", ""), starts(2, "pod-a", "pod-b")
	if a["pod-a"] == a["pod-b"] {
		t.Errorf("two keys, one seed, same jitter: %s", a["pod-a"])
	}
	for _, k := range []string{"pod-a", "pod-b"} {
		if a[k] != b[k] {
			t.Errorf("key %s, same seed, different jitter: %s vs %s", k, a[k], b[k])
		}
		if a[k] == c[k] {
			t.Errorf("key %s, different seeds, same jitter: %s", k, a[k])
		}
		if a[k] == a["-"] {
			t.Errorf("key %s draws what the name alone draws: %s", k, a[k])
		}
	}
	if a[""] != a["-"] {
		t.Errorf("an empty key changed the jitter: %s vs the name alone's %s", a[""], a["-"])
	}
	// The name alone draws from seeded("seed/instance/name"), as it did
	// before keys: the first wait of that source, after an iteration at 0.
	first := 2*time.Second + time.Duration(seeded("1/test-0/kubelet/volume-stat-calculator").Float64()*float64(2*time.Second))
	if got := strings.Split(a["-"], ","); len(got) < 2 || got[1] != first.String() {
		t.Errorf("the name alone's iterations start at %v, want the second at %s", got, first)
	}
}

func durs(ds []time.Duration) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.String())
	}
	return out
}

func TestUnknownNamePanics(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, 1)
		defer func() {
			if r := recover(); r == nil || !strings.Contains(r.(string), "not in the catalog") {
				t.Errorf("recover() = %v", r)
			}
			h.stop(t)
		}()
		h.rt.Go(h.ctx, "no/such-goroutine", func(context.Context) {})
	})
}

func TestHeartbeatOfAFastLoopIsTimeBased(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, 1)
		h.rt.Until(h.ctx, "controller/node/pod-evictor", 100*time.Millisecond, func(ctx context.Context) {})
		h.clk.Sleep(25*time.Second + time.Millisecond) // iterations 1..251
		var got []int64
		for _, s := range named(h.stop(t), "pod-evictor") {
			got = append(got, attr(s, catalog.AttrIteration).(int64))
		}
		// The first three, then one every 10 simulated seconds (every 100th).
		if want := []int64{1, 2, 3, 100, 200}; fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("recorded iterations %v, want %v", got, want)
		}
	})
}

func TestMainRunsOnTheCallersGoroutine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, 1)
		ctx, cancel := context.WithCancel(h.ctx)
		n := 0
		h.rt.Main(ctx, "cm/leader-acquire", 2*time.Second, 0, func(ctx context.Context) {
			n++
			if n == 3 {
				cancel() // as acquire does once it leads
			}
		})
		// Main returned: it ran here, three times, 2s apart.
		if n != 3 || h.clk.Elapsed() < 4*time.Second || h.clk.Elapsed() > 4*time.Second+time.Millisecond {
			t.Errorf("n = %d after %s", n, h.clk.Elapsed())
		}
		spans := h.stop(t)
		life := named(spans, "cm/leader-acquire")
		if len(life) != 1 || attr(life[0], catalog.AttrGoroutineKind) != "main" {
			t.Fatalf("lifetime spans = %v", life)
		}
		if its := named(spans, "leader-acquire"); len(its) != 3 {
			t.Errorf("iterations = %d, want 3", len(its))
		}
	})
}

func TestAdoptRecordsAGoroutineFromOutside(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, 1)
		a := h.rt.Adopt(h.ctx, "cm/event-sink-watcher", catalog.KindGo)
		done := make(chan struct{})
		go func() { // client-go's goroutine, calling back into kubeloom
			defer close(done)
			_, sp := a.Iterate("recordToSink")
			sp.End()
		}()
		<-done
		if live := h.reg.Live(); len(live) != 1 || live[0].Name != "cm/event-sink-watcher" {
			t.Errorf("live = %v", live)
		}
		a.End()
		a.End() // once is enough
		spans := h.stop(t)
		if len(named(spans, "cm/event-sink-watcher")) != 1 || len(named(spans, "recordToSink")) != 1 {
			t.Errorf("spans = %v", spans)
		}
	})
}

func TestOutliveKeepsSpansButNotTheStartersLife(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, 1)
		life, stop := context.WithCancel(h.ctx)
		h.rt.Go(h.ctx, "controller/node/run", func(ctx context.Context) {
			h.rt.Until(Outlive(ctx, life), "controller/node/monitor", 5*time.Second, func(context.Context) {})
		}) // returns at once, as v1.5's wrapper does
		h.clk.Sleep(12 * time.Second)
		if live := h.reg.Live(); len(live) != 1 || live[0].Name != "controller/node/monitor" {
			t.Errorf("live = %v, want the loop to outlive its starter", live)
		}
		stop()
		spans := h.stop(t)
		run, mon := named(spans, "controller/node/run"), named(spans, "controller/node/monitor")
		if len(run) != 1 || len(mon) != 1 || mon[0].Parent.SpanID() != run[0].SpanContext.SpanID() {
			t.Errorf("the loop's span is not a child of its starter's")
		}
	})
}

// A goroutine that selects over two tickers samples each by its own
// period: idle 1s ticks are folded, every tick of a 2s arm is kept.
func TestTickSamplesEachNameByItsPeriod(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, 1)
		h.rt.Go(h.ctx, "informer/listener-run", func(ctx context.Context) {
			for i := 1; i <= 30; i++ {
				Tick(ctx, "syncCh", time.Second, func(ctx context.Context) {
					if i == 15 {
						_, sp := Start(ctx, "HandlePodSyncs")
						sp.End()
					}
				})
				if i%2 == 0 {
					Tick(ctx, "housekeepingCh", 2*time.Second, func(context.Context) {})
				}
			}
		})
		synctest.Wait()
		spans := h.stop(t)
		var sync []int64
		for _, s := range named(spans, "syncCh") {
			n, _ := attr(s, catalog.AttrSkipped).(int64)
			sync = append(sync, n)
		}
		// Ticks 1-3, the 10th (a heartbeat), the busy 15th, the 20th and 30th.
		if want := []int64{0, 0, 0, 6, 4, 4, 9}; fmt.Sprint(sync) != fmt.Sprint(want) {
			t.Errorf("recorded syncCh ticks skipped %v, want %v", sync, want)
		}
		if n := len(named(spans, "housekeepingCh")); n != 15 {
			t.Errorf("%d housekeeping ticks recorded, want all 15 (a 2s tick is not sampled)", n)
		}
	})
}

// An error made by CausedBy links the span that records it to its cause,
// also through wrapping, and still reads as the error it marks.
func TestRecordErrorLinksItsCause(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, 1)
		_, action := Start(h.ctx, "action/stopKubelet")
		action.End()
		stopped := errors.New("stopped by the scenario")
		err := fmt.Errorf("kubelet exits: %w", CausedBy(stopped, action.SpanContext(), "node-1"))
		_, main := Start(h.ctx, "main")
		main.RecordError(err)
		main.End()
		_, plain := Start(h.ctx, "run")
		plain.RecordError(stopped)
		plain.End()
		spans := h.stop(t)

		if !errors.Is(err, stopped) || err.Error() != "kubelet exits: stopped by the scenario" {
			t.Errorf("the caused error reads %q and is stopped: %v", err, errors.Is(err, stopped))
		}
		m := named(spans, "main")[0]
		if len(m.Links) != 1 || m.Links[0].SpanContext.SpanID() != action.SpanContext().SpanID() {
			t.Fatalf("main links %v, want one to the action", m.Links)
		}
		got := map[string]string{}
		for _, kv := range m.Links[0].Attributes {
			got[string(kv.Key)] = kv.Value.String()
		}
		if got[catalog.AttrLink] != catalog.LinkCause || got[catalog.AttrObjectKey] != "node-1" {
			t.Errorf("link attributes %v, want a cause link for node-1", got)
		}
		if l := named(spans, "run")[0].Links; len(l) != 0 {
			t.Errorf("a plain error linked %v", l)
		}
		if CausedBy(stopped, trace.SpanContext{}, "x") != stopped || CausedBy(nil, action.SpanContext(), "x") != nil {
			t.Error("CausedBy without a cause or an error changed its error")
		}
	})
}

// TestInterruptStopsWorkWithinAnInstant: Interrupt, called from outside
// the simulation, stops goroutines at the next span they start, not when
// simulated time next moves: one instant of virtual time can hold seconds
// of work, and Ctrl-C must not wait for it.
func TestInterruptStopsWorkWithinAnInstant(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, 1)
		interrupted := make(chan struct{})
		spans := 0
		h.rt.Go(h.ctx, "controller/replicaset/worker", func(ctx context.Context) {
			// A sync that starts a span per pod, in one instant, and looks
			// at its context as a controller's loop does.
			for ; spans < 1_000_000 && ctx.Err() == nil; spans++ {
				if spans == 1000 {
					close(interrupted) // the other goroutine interrupts now
					for !h.reg.interrupt.Load() {
						runtime.Gosched()
					}
				}
				_, sp := Start(ctx, "pods.Create")
				sp.End()
			}
		})
		<-interrupted
		go h.reg.Interrupt() // as from outside: it only sets a flag
		synctest.Wait()
		// A goroutine's context is cancelled from its own goroutine
		// (context.AfterFunc): a few more spans may start meanwhile.
		if spans > 2000 {
			t.Errorf("the loop went on for %d spans after Interrupt, want it stopped within a few", spans-1000)
		}
		h.stop(t)
	})
}
