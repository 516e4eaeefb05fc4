package kubelet

import (
	"context"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/containerruntime"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// harness is one node's goroutine.Runtime on a simulated clock at speed 1,
// with its spans kept in memory. Inside a testing/synctest bubble the clock
// is the bubble's virtual one and moves only with Sleep; outside, functions
// that start no goroutine and read the clock only can still use it.
type harness struct {
	t   *testing.T
	clk *clock.Scaled
	reg *goroutine.Registry
	rt  *goroutine.Runtime
	tp  *sdktrace.TracerProvider
	exp *tracetest.InMemoryExporter
	ctx context.Context
}

func newHarness(t *testing.T, opts ...goroutine.RuntimeOption) *harness {
	t.Helper()
	clk, err := clock.NewScaled(1)
	if err != nil {
		t.Fatal(err)
	}
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	reg := goroutine.NewRegistry(clk)
	rt := goroutine.NewRuntime("node-1", tp.Tracer("t"), clk, reg, opts...)
	return &harness{t: t, clk: clk, reg: reg, rt: rt, tp: tp, exp: exp, ctx: rt.Context(context.Background())}
}

// stop stops every goroutine the runtime started and the tracer provider.
func (h *harness) stop() {
	h.t.Helper()
	if left := h.reg.Stop(10 * time.Second); len(left) != 0 {
		h.t.Errorf("goroutines left after stop: %v", left)
	}
	if err := h.tp.Shutdown(context.Background()); err != nil {
		h.t.Errorf("tracer provider shutdown: %v", err)
	}
}

// runtime is a container runtime of node-1 on the harness's clock.
func (h *harness) runtime(capacity int64, images ...string) *containerruntime.Runtime {
	return containerruntime.New(containerruntime.Options{Node: "node-1", Seed: 1, Clock: h.clk, Capacity: capacity, Images: images})
}

// kubelet is a kubelet of node-1 that has not started (NewMainKubelet only).
func (h *harness) kubelet(r *containerruntime.Runtime) *Kubelet {
	return newKubelet(Options{Node: "node-1", Runtime: r, PodCIDR: "10.244.1.0/24"}, h.rt)
}

// span runs fn inside a span named name and returns that span once ended,
// for functions that annotate the span of the iteration they run in.
func (h *harness) span(name string, fn func(ctx context.Context)) tracetest.SpanStub {
	h.t.Helper()
	ctx, sp := goroutine.Start(h.ctx, name)
	fn(ctx)
	sp.End()
	for _, s := range h.exp.GetSpans() {
		if s.SpanContext.SpanID() == sp.SpanContext().SpanID() {
			return s
		}
	}
	h.t.Fatalf("span %s was not exported", name)
	return tracetest.SpanStub{}
}

// spansNamed returns the exported spans with a name.
func (h *harness) spansNamed(name string) tracetest.SpanStubs {
	var out tracetest.SpanStubs
	for _, s := range h.exp.GetSpans() {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

// attr returns a span attribute's value, or nil.
func attr(s tracetest.SpanStub, key string) any {
	for _, kv := range s.Attributes {
		if kv.Key == attribute.Key(key) {
			return kv.Value.AsInterface()
		}
	}
	return nil
}
