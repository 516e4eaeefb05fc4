package goroutine

import (
	"context"
	rtrace "runtime/trace"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/catalog"
)

// Iterate starts the next iteration span of the goroutine ctx runs in, for
// goroutines whose iterations are events (a pop, a notification, a watch
// event) rather than timer ticks. End the span when the iteration is done.
func Iterate(ctx context.Context, name string, opts ...trace.SpanStartOption) (context.Context, Span) {
	s := scopeOf(ctx)
	if s.g == nil {
		panic("goroutine: Iterate outside a simulated goroutine")
	}
	n := s.g.iterations.Add(1)
	return s.g.startIteration(ctx, name, n, s.rt.clock.Now(), 0, opts...)
}

func (g *G) startIteration(ctx context.Context, name string, n int64, at time.Time, skipped int64, opts ...trace.SpanStartOption) (context.Context, Span) {
	g.rt.registry.noticeInterrupt()
	attrs := make([]attribute.KeyValue, 0, 3+len(g.attrs))
	attrs = append(attrs, attribute.Int64(catalog.AttrIteration, n), attribute.String(catalog.AttrGoroutineName, g.key.Name))
	if skipped > 0 {
		attrs = append(attrs, attribute.Int64(catalog.AttrSkipped, skipped))
	}
	attrs = append(attrs, g.attrs...)
	// The attributes are set on the started span, not passed as an option:
	// an option is copied once more into the start config before the SDK
	// copies it into the span (220 MB of the 4.7 GB a 100-node run
	// allocated). The sampler (AlwaysSample) and the processors' OnStart
	// do not read them.
	ctx, sp := g.rt.tracer.Start(ctx, name, append(opts, trace.WithTimestamp(at))...)
	sp.SetAttributes(attrs...)
	if s, _ := ctx.Value(scopeKey{}).(*scope); s == nil || s.g != g || s.lazy != nil {
		// Below the iteration there is nothing lazy left to record.
		ctx = context.WithValue(ctx, scopeKey{}, &scope{rt: g.rt, g: g})
	}
	return ctx, Span{Span: sp, clock: g.rt.clock}
}

// heartbeatEvery is how often an idle iteration of a sampled loop is
// recorded anyway: every 10th iteration, and no more often than every 10
// simulated seconds, so a 1s loop beats every 10th iteration and a 100ms
// loop every 100th.
func heartbeatEvery(period time.Duration) int64 {
	return max(10, int64((10*time.Second+period-1)/period))
}

// iterate runs one loop iteration. Unsampled (sample == 0), it is a span
// around fn. Sampled (fast loops), the span is only recorded when fn does
// something visible (starts a span, adds an event), or as a heartbeat for
// the first iterations and every sample-th; the others are counted in the
// next recorded iteration's kubeloom.skipped_iterations.
func (g *G) iterate(ctx context.Context, sample int64, fn func(ctx context.Context)) {
	n := g.iterations.Add(1)
	g.iterateAs(ctx, g.iterName, n, n, &g.skipped, sample, fn)
}

// iterateAs runs iteration n (the kth of its name) named name, sampled as
// iterate describes; skipped counts the idle iterations of that name not
// recorded since the last recorded one.
func (g *G) iterateAs(ctx context.Context, name string, n, k int64, skipped *int64, sample int64, fn func(ctx context.Context)) {
	run := fn
	if rtrace.IsEnabled() {
		run = func(ctx context.Context) { rtrace.WithRegion(ctx, name, func() { fn(ctx) }) }
	}
	if sample == 0 || k <= 3 || k%sample == 0 {
		ctx, sp := g.startIteration(ctx, name, n, g.rt.clock.Now(), take(skipped))
		run(ctx)
		sp.End()
		return
	}
	// One allocation for the pending iteration and the scope that finds
	// it: a 100ms loop of each of a thousand kubelets comes here ten
	// times a second, mostly to find nothing to record.
	l := &lazyIteration{g: g, name: name, n: n, at: g.rt.clock.Now(), skipped: skipped}
	l.scope = scope{rt: g.rt, g: g, lazy: l}
	run(context.WithValue(ctx, scopeKey{}, &l.scope))
	if sp, ok := l.recorded(); ok {
		sp.End()
		return
	}
	*skipped++
}

// take returns the count of skipped iterations to record and resets it.
func take(skipped *int64) int64 {
	s := *skipped
	*skipped = 0
	return s
}

// Tick runs fn as the next iteration of the goroutine ctx runs in, named
// name, for goroutines that select over several tickers (the kubelet's
// syncLoop: a sync tick every 1s, housekeeping every 2s). Each name is
// sampled as a loop with that period would be: idle ticks of a period of
// 1s or less are folded into the next recorded one.
func Tick(ctx context.Context, name string, period time.Duration, fn func(ctx context.Context)) {
	s := scopeOf(ctx)
	g := s.g
	if g == nil {
		panic("goroutine: Tick outside a simulated goroutine")
	}
	if g.ticks == nil {
		g.ticks = map[string]*tickState{}
	}
	ts := g.ticks[name]
	if ts == nil {
		ts = &tickState{}
		g.ticks[name] = ts
	}
	ts.n++
	var sample int64
	if !g.rt.allIterations && period > 0 && period <= time.Second {
		sample = heartbeatEvery(period)
	}
	g.iterateAs(ctx, name, g.iterations.Add(1), ts.n, &ts.skipped, sample, fn)
}

// tickState counts the ticks of one name of a goroutine; only that
// goroutine touches it.
type tickState struct{ n, skipped int64 }

// lazyIteration is an iteration whose span is started only when needed.
// The iteration may hand its context to a helper goroutine (client-go's
// reflector lists on one), so materializing is guarded.
type lazyIteration struct {
	g       *G
	name    string
	skipped *int64 // the loop's count of skipped iterations, taken when the span is started (under mu)
	n       int64
	at      time.Time
	scope   scope // the iteration's, pointing back at it
	mu      sync.Mutex
	ctx     context.Context
	span    Span
}

func (l *lazyIteration) materialize(ctx context.Context) context.Context {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ctx == nil {
		l.ctx, l.span = l.g.startIteration(ctx, l.name, l.n, l.at, take(l.skipped))
	}
	return l.ctx
}

// recorded returns the iteration's span if it was materialized.
func (l *lazyIteration) recorded() (Span, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.span, l.ctx != nil
}
