package goroutine

import (
	"context"
	"sync"

	"go.opentelemetry.io/otel/trace"
)

// Adopted is a goroutine that client-go starts and runs itself (the event
// broadcaster's loop and its watchers): kubeloom cannot wrap it, so it
// records the goroutine's life from the outside. Its lifetime span starts
// at Adopt and ends at End; code that runs on it (a callback such as an
// event sink) marks iterations with Iterate.
type Adopted struct {
	g    *G
	ctx  context.Context
	once sync.Once
	end  func()
}

// Adopt starts recording a goroutine that client-go has just started.
// kind is how client-go runs it (catalog.KindGo for `go func(){ for range ch }`).
// Call End once the goroutine has returned.
func (r *Runtime) Adopt(ctx context.Context, name, kind string, opts ...Option) *Adopted {
	gctx, g, end := r.begin(ctx, name, kind, 0, opts)
	return &Adopted{g: g, ctx: gctx, end: end}
}

// Iterate starts the next iteration span of the adopted goroutine; it may be
// called from the goroutine itself or from code it calls.
func (a *Adopted) Iterate(name string, opts ...trace.SpanStartOption) (context.Context, Span) {
	n := a.g.iterations.Add(1)
	return a.g.startIteration(a.ctx, name, n, a.g.rt.clock.Now(), 0, opts...)
}

// End records that the goroutine has returned. Further calls do nothing.
func (a *Adopted) End() { a.once.Do(a.end) }
