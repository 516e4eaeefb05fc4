package goroutine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime/pprof"
	rtrace "runtime/trace"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	k8sclock "k8s.io/utils/clock"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/clock"
)

// G is one running simulated goroutine.
type G struct {
	key        Key
	entry      catalog.Entry
	rt         *Runtime
	lifetime   trace.Span
	iterations atomic.Int64
	iterName   string
	attrs      []attribute.KeyValue
	skipped    int64                 // idle iterations not recorded since the last recorded one; loop goroutine only
	ticks      map[string]*tickState // Tick's counters, by name; the goroutine only
}

// Name is the goroutine's catalog name.
func (g *G) Name() string { return g.key.Name }

// Option configures one goroutine.
type Option func(*options)

type options struct {
	attrs    []attribute.KeyValue
	life     []attribute.KeyValue // the lifetime span's only
	period   time.Duration
	iterName string
	seedKey  string
	links    []trace.Link
	setup    func(ctx context.Context)
	kind     string
}

// WithAttributes adds attributes (informer, handler, node, ...) to the
// lifetime span and to every iteration span.
func WithAttributes(kv ...attribute.KeyValue) Option {
	return func(o *options) { o.attrs = append(o.attrs, kv...) }
}

// WithPeriod records period as the goroutine's loop period
// (goroutine.period_s) on its lifetime span, where the views read it, for a
// goroutine that loops on a ticker or timer of its own (a poller, glog's
// flush daemon, a resync timer) or whose period is not its loop's (v1.5's
// renew: wait.Until(…, 0) around a 2s poll). Only the attribute: the loop
// itself is unchanged. It takes the place of the loop period that Until and
// its kin record.
func WithPeriod(period time.Duration) Option {
	return func(o *options) { o.period = period }
}

// lifetimeAttributes adds attributes to the lifetime span alone, not to
// the iteration spans (a poll's wait.timeout_s).
func lifetimeAttributes(kv ...attribute.KeyValue) Option {
	return func(o *options) { o.life = append(o.life, kv...) }
}

// WithIterationName names the iteration spans (default: the last part of
// the catalog name). Use Kubernetes' own trace names where it has them.
func WithIterationName(name string) Option {
	return func(o *options) { o.iterName = name }
}

// WithSeedKey tells apart the random sources of goroutines of one name in
// one instance, which would otherwise draw the same jitter: each
// goroutine's source is seeded from the runtime's seed (WithSeed), its
// instance and name, and key (a pod's UID for one per pod), so a run is
// the same every time, another seed draws otherwise, and the goroutines
// of one name spread out as real ones, each drawing from math/rand, do.
func WithSeedKey(key string) Option {
	return func(o *options) { o.seedKey = key }
}

// WithLinks links the lifetime span to the spans that caused the goroutine.
func WithLinks(l ...trace.Link) Option {
	return func(o *options) { o.links = append(o.links, l...) }
}

// WithSetup runs setup once on the new goroutine before its loop starts,
// for goroutines that start others before looping (sharedIndexInformer.Run
// starts the listeners and the reflector, then loops on processLoop).
func WithSetup(setup func(ctx context.Context)) Option {
	return func(o *options) { o.setup = setup }
}

// WithKind records a Go goroutine as the loop Kubernetes writes it as:
// wait.Forever(f, 0) around a blocking select (the kubelet's status
// manager) is a goroutine whose iterations are the select's events, so fn
// marks them with Iterate, but it is recorded with kind "forever".
func WithKind(kind string) Option {
	return func(o *options) { o.kind = kind }
}

// Go starts fn as a plain goroutine (`go f()` in Kubernetes). fn's context
// ends when the simulation stops; fn marks its own iterations with Iterate.
func (r *Runtime) Go(ctx context.Context, name string, fn func(ctx context.Context), opts ...Option) {
	kind := collect(opts).kind
	if kind == "" {
		kind = catalog.KindGo
	}
	r.start(ctx, name, kind, 0, true, opts, fn)
}

// Until runs fn every period, the period starting after fn returns
// (wait.Until: JitterUntil with jitter 0 and sliding=true), until the
// simulation stops. Each call of fn is an iteration span.
func (r *Runtime) Until(ctx context.Context, name string, period time.Duration, fn func(ctx context.Context), opts ...Option) {
	r.loop(ctx, name, catalog.KindUntil, period, func(*rand.Rand) time.Duration { return period }, true, opts, fn)
}

// Forever is wait.Forever: Until with a stop that only the end of the
// simulation gives.
func (r *Runtime) Forever(ctx context.Context, name string, period time.Duration, fn func(ctx context.Context), opts ...Option) {
	r.loop(ctx, name, catalog.KindForever, period, func(*rand.Rand) time.Duration { return period }, true, opts, fn)
}

// JitterUntil is wait.JitterUntil: each wait is period × (1 + rand × jitter);
// with sliding=false the period includes fn's own run time.
func (r *Runtime) JitterUntil(ctx context.Context, name string, period time.Duration, jitter float64, sliding bool, fn func(ctx context.Context), opts ...Option) {
	wait := func(rng *rand.Rand) time.Duration {
		if jitter <= 0 {
			return period
		}
		return period + time.Duration(rng.Float64()*jitter*float64(period))
	}
	r.loop(ctx, name, catalog.KindJitterUntil, period, wait, sliding, opts, fn)
}

// BackoffUntil is wait.BackoffUntil as client-go's reflector uses it today:
// the wait after each call comes from delay (an exponential backoff),
// which draws its jitter from the goroutine's seeded source. It is recorded
// as a jitter-until loop, which is what it replaced.
func (r *Runtime) BackoffUntil(ctx context.Context, name string, delay func(*rand.Rand) time.Duration, fn func(ctx context.Context), opts ...Option) {
	r.loop(ctx, name, catalog.KindJitterUntil, 0, delay, true, opts, fn)
}

// Main is wait.JitterUntil run on the calling goroutine, as Kubernetes runs
// leader election's acquire and renew loops on main: fn runs every
// period × (1 + rand × jitter), the period starting after fn returns. It is
// recorded as its own lane of kind "main" and returns when ctx ends (a loop
// that should end earlier cancels its own context, as client-go's acquire
// does once it leads).
func (r *Runtime) Main(ctx context.Context, name string, period time.Duration, jitter float64, fn func(ctx context.Context), opts ...Option) {
	wait := func(rng *rand.Rand) time.Duration {
		return period + time.Duration(rng.Float64()*jitter*float64(period))
	}
	r.run(ctx, name, catalog.KindMain, period, wait, true, false, opts, fn)
}

func (r *Runtime) loop(ctx context.Context, name, kind string, period time.Duration, wait func(*rand.Rand) time.Duration, sliding bool, opts []Option, fn func(ctx context.Context)) {
	r.run(ctx, name, kind, period, wait, sliding, true, opts, fn)
}

// run is the loop of every periodic primitive; spawn says whether it gets
// a goroutine of its own or runs on the caller's.
func (r *Runtime) run(parent context.Context, name, kind string, period time.Duration, wait func(*rand.Rand) time.Duration, sliding, spawn bool, opts []Option, fn func(ctx context.Context)) {
	// stopped checks the parent's context too: Go closes a context's Done
	// before it cancels the children, and in between the parent's
	// AfterFuncs may already have run (shutting down the workqueue a
	// period-0 worker loops on, which would then spin until its own
	// context ends). Kubernetes' loops share one stop channel and have no
	// such window.
	stopped := func(ctx context.Context) bool { return ctx.Err() != nil || parent.Err() != nil }
	r.start(parent, name, kind, period, spawn, opts, func(ctx context.Context) {
		g := scopeOf(ctx).g
		o := collect(opts)
		seed := fmt.Sprintf("%d/%s/%s", r.seed, r.instance, name)
		if o.seedKey != "" {
			seed += "/" + o.seedKey
		}
		rng := seeded(seed)
		if o.setup != nil {
			o.setup(ctx)
		}
		var sample int64 // 0: record every iteration
		if !r.allIterations && period > 0 && period <= time.Second {
			sample = heartbeatEvery(period)
		}
		// One timer for all the loop's waits, as wait.JitterUntil's; each
		// wait leaves it fired or stopped.
		var timer k8sclock.Timer
		for !stopped(ctx) {
			began := r.clock.Now()
			g.iterate(ctx, sample, fn)
			d := wait(rng)
			if !sliding {
				d -= r.clock.Since(began)
			}
			if d <= 0 {
				// Back-to-back calls (period 0) still give other goroutines a turn.
				if stopped(ctx) {
					return
				}
				continue
			}
			if !r.wait(ctx, d, &timer) {
				return
			}
		}
	})
}

// wait waits d of simulated time between two iterations, or until ctx
// ends; it reports whether d passed. t is the loop's timer, kept from one
// wait to the next (nil before the first).
func (r *Runtime) wait(ctx context.Context, d time.Duration, t *k8sclock.Timer) bool {
	if w, ok := r.clock.(waiter); ok {
		return w.Wait(ctx.Done(), d, t)
	}
	timer := clock.ReuseTimer(r.clock, t, d)
	select {
	case <-ctx.Done():
		timer.Stop()
		return false
	case <-timer.C():
		return true
	}
}

// waiter is a clock that waits without a timer goroutine (clock.Scaled).
type waiter interface {
	Wait(done <-chan struct{}, d time.Duration, t *k8sclock.Timer) bool
}

func (r *Runtime) start(parent context.Context, name, kind string, period time.Duration, spawn bool, opts []Option, body func(ctx context.Context)) {
	ctx, _, end := r.begin(parent, name, kind, period, opts)
	labels := pprof.Labels(catalog.AttrGoroutineName, name, catalog.AttrServiceInstanceID, r.instance)
	run := func() {
		defer end()
		pprof.Do(ctx, labels, func(ctx context.Context) {
			rtrace.WithRegion(ctx, name, func() { body(ctx) })
		})
	}
	if spawn {
		go run()
	} else {
		run()
	}
}

// begin records the start of a goroutine: its lifetime span, its context
// (cancelled with its parent's, or with the simulation for top-level ones)
// and its place in the registry. end records its end.
func (r *Runtime) begin(parent context.Context, name, kind string, period time.Duration, opts []Option) (ctx context.Context, g *G, end func()) {
	entry, ok := catalog.Lookup(name)
	if !ok {
		panic(fmt.Sprintf("goroutine: %q is not in the catalog (sim/catalog)", name))
	}
	r.registry.noticeInterrupt()
	o := collect(opts)
	g = &G{key: Key{Instance: r.instance, Name: name}, entry: entry, rt: r, attrs: o.attrs, iterName: o.iterName}
	if g.iterName == "" {
		g.iterName = lastPart(name)
	}
	attrs := make([]attribute.KeyValue, 0, 8+len(o.attrs)+len(o.life))
	attrs = append(attrs,
		attribute.String(catalog.AttrGoroutineName, name),
		attribute.String(catalog.AttrGoroutineKind, kind),
	)
	if o.period > 0 {
		period = o.period
	}
	if period > 0 {
		attrs = append(attrs, attribute.Float64(catalog.AttrGoroutinePeriod, period.Seconds()))
	}
	attrs = append(attrs,
		attribute.String(catalog.AttrCodeFunction, entry.Function),
		attribute.String(catalog.AttrCodeFile, entry.File),
	)
	if entry.Article != "" {
		attrs = append(attrs, attribute.String(catalog.AttrArticle, entry.Article))
	}
	attrs = append(attrs, o.attrs...)
	attrs = append(attrs, o.life...)
	ctx, lifetime := r.tracer.Start(parent, name,
		trace.WithTimestamp(r.clock.Now()), trace.WithAttributes(attrs...), trace.WithLinks(o.links...))
	g.lifetime = lifetime

	// The goroutine stops when its parent's context ends or the simulation
	// stops. Only goroutines started outside any simulated goroutine hang
	// on the registry; the others are cancelled through their parent, so a
	// stop runs parent first, as Kubernetes' stop channels do: a reflector
	// sees its own stop before its watch's receive goroutine ends the stream
	// (otherwise it would take the end for a closed watch and re-open it).
	ctx, cancel := context.WithCancel(ctx)
	stopWithSim := func() bool { return false }
	if ps, _ := parent.Value(scopeKey{}).(*scope); ps == nil || ps.g == nil {
		stopWithSim = context.AfterFunc(r.registry.ctx, cancel)
	}
	ctx = context.WithValue(ctx, scopeKey{}, &scope{rt: r, g: g})

	r.registry.add(g)
	return ctx, g, func() {
		// Goroutines that end at one instant (a stop reaches them through
		// contexts, which cancel their children in map order) end in turns,
		// in the order of their spans.
		clock.TakeTurn(r.clock, r.instance+" end "+lifetime.SpanContext().SpanID().String())
		lifetime.End(trace.WithTimestamp(r.clock.Now()))
		stopWithSim()
		cancel()
		r.registry.remove(g)
	}
}

func collect(opts []Option) options {
	var o options
	for _, f := range opts {
		f(&o)
	}
	return o
}

func lastPart(name string) string {
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '/' {
			return name[i+1:]
		}
	}
	return name
}

// seeded returns a random source seeded from s (FNV-1a), so the jitter of a
// goroutine is the same in every run of a scenario.
func seeded(s string) *rand.Rand {
	var h uint64 = 14695981039346656037
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return rand.New(rand.NewPCG(h, h>>1|1))
}
