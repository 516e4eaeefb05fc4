package goroutine

import (
	"context"
	"errors"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/clock"
)

// Runtime starts goroutines and spans for one instance (cm-0, node-1, ...):
// its tracer carries the instance's resource, its clock is the simulation's.
type Runtime struct {
	tracer        trace.Tracer
	clock         clock.Clock
	registry      *Registry
	instance      string
	allIterations bool
	seed          int64
}

// RuntimeOption configures a Runtime.
type RuntimeOption func(*Runtime)

// WithAllIterations records every iteration of fast loops instead of
// sampling idle ones (the --all-iterations flag). Default: sampled.
func WithAllIterations(all bool) RuntimeOption {
	return func(r *Runtime) { r.allIterations = all }
}

// WithSeed seeds the random jitter of every loop (the scenario's seed).
// Each goroutine draws from its own source, seeded from the seed, instance,
// name and its WithSeedKey if any, so a run is reproducible whatever the
// goroutine order.
func WithSeed(seed int64) RuntimeOption {
	return func(r *Runtime) { r.seed = seed }
}

// NewRuntime returns the Runtime of one instance.
func NewRuntime(instance string, tracer trace.Tracer, clk clock.Clock, reg *Registry, opts ...RuntimeOption) *Runtime {
	r := &Runtime{tracer: tracer, clock: clk, registry: reg, instance: instance}
	for _, o := range opts {
		o(r)
	}
	return r
}

// Clock is the simulation clock.
func (r *Runtime) Clock() clock.Clock { return r.clock }

// Instance is the instance this Runtime traces.
func (r *Runtime) Instance() string { return r.instance }

// Context returns ctx carrying the Runtime, so that Start and the goroutine
// primitives find their tracer and clock in it.
func (r *Runtime) Context(ctx context.Context) context.Context {
	return context.WithValue(ctx, scopeKey{}, &scope{rt: r})
}

// scope is what a context knows about the code running with it: the Runtime,
// and, inside a simulated goroutine, that goroutine and its pending
// (not yet recorded) iteration.
type scope struct {
	rt   *Runtime
	g    *G
	lazy *lazyIteration
}

type scopeKey struct{}

func scopeOf(ctx context.Context) *scope {
	s, _ := ctx.Value(scopeKey{}).(*scope)
	if s == nil {
		panic("goroutine: context carries no Runtime (use Runtime.Context)")
	}
	return s
}

// RuntimeFrom returns the Runtime a context carries.
func RuntimeFrom(ctx context.Context) *Runtime { return scopeOf(ctx).rt }

// Span is an OpenTelemetry span whose End and AddEvent are stamped with the
// simulation clock, so traces show simulated time whatever the speed.
type Span struct {
	trace.Span
	clock clock.Clock
}

// End ends the span at the current simulated time.
func (s Span) End(opts ...trace.SpanEndOption) {
	s.Span.End(append(opts, trace.WithTimestamp(s.clock.Now()))...)
}

// RecordError records an error as an exception event at the current
// simulated time and sets the span's status to Error. An error made by
// CausedBy (or wrapping one) also links the span to the span that caused
// it.
func (s Span) RecordError(err error, opts ...trace.EventOption) {
	if err == nil {
		return
	}
	var c *causedError
	if errors.As(err, &c) {
		s.Span.AddLink(c.link)
	}
	s.Span.RecordError(err, append(opts, trace.WithTimestamp(s.clock.Now()))...)
	s.Span.SetStatus(codes.Error, err.Error())
}

// AddEvent adds an event at the current simulated time.
func (s Span) AddEvent(name string, attrs ...attribute.KeyValue) {
	s.Span.AddEvent(name, trace.WithTimestamp(s.clock.Now()), trace.WithAttributes(attrs...))
}

// Start starts a span named name as a child of ctx's span, at the current
// simulated time. Inside a sampled loop iteration it first records the
// iteration, since an iteration with work in it is never dropped.
func Start(ctx context.Context, name string, opts ...trace.SpanStartOption) (context.Context, Span) {
	s := scopeOf(ctx)
	s.rt.registry.noticeInterrupt()
	if s.lazy != nil {
		ctx = s.lazy.materialize(ctx)
	}
	opts = append(opts, trace.WithTimestamp(s.rt.clock.Now()))
	ctx, sp := s.rt.tracer.Start(ctx, name, opts...)
	return ctx, Span{Span: sp, clock: s.rt.clock}
}

// SpanFrom returns ctx's current span with the simulation clock.
func SpanFrom(ctx context.Context) Span {
	s := scopeOf(ctx)
	if s.lazy != nil {
		ctx = s.lazy.materialize(ctx)
	}
	return Span{Span: trace.SpanFromContext(ctx), clock: s.rt.clock}
}

// Cause is a span link marking the linked span as the cause of the new
// span (kubeloom.link=cause) for the object with the given key.
func Cause(sc trace.SpanContext, key string) trace.Link {
	return trace.Link{SpanContext: sc, Attributes: []attribute.KeyValue{linkCause(), attribute.String(attrObjectKey, key)}}
}

// CausedBy returns err marked as caused by the span sc, for the object
// with the given key: a span that records it (or an error wrapping it)
// with RecordError names sc as its cause. Errors are how some effects
// reach the code that reacts: a process killed by a scenario action ends
// with the cancel cause the action gave it, a server whose port an action
// took fails to listen. err is returned as is when sc is not valid.
func CausedBy(err error, sc trace.SpanContext, key string) error {
	if err == nil || !sc.IsValid() {
		return err
	}
	return &causedError{err: err, link: Cause(sc, key)}
}

// causedError is an error with the span that caused it; it reads and
// unwraps as the error it marks, so errors.Is still finds that one.
type causedError struct {
	err  error
	link trace.Link
}

func (e *causedError) Error() string { return e.err.Error() }
func (e *causedError) Unwrap() error { return e.err }

// Live returns this instance's goroutine families alive now, by name.
func (r *Runtime) Live() map[string]int { return r.registry.liveOf(r.instance) }

// Outlive returns a context with ctx's span and goroutine but life's
// cancellation, for goroutines that outlive the goroutine that starts them
// (v1.5's node controller starts its loops from a goroutine that then
// returns): their spans still hang under the starter's.
func Outlive(ctx, life context.Context) context.Context {
	return outlived{Context: life, values: ctx}
}

type outlived struct {
	context.Context
	values context.Context
}

func (o outlived) Value(key any) any { return o.values.Value(key) }
