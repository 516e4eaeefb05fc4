package controllers

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.uber.org/goleak"

	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/cluster"
	"github.com/kubeloom/kubeloom/sim/events"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// harness runs controllers against a fake cluster inside a synctest
// bubble, on a simulated clock at speed 1: time moves only when every
// goroutine waits.
type harness struct {
	t       *testing.T
	ctx     context.Context
	cancel  context.CancelFunc
	clk     *clock.Scaled
	reg     *goroutine.Registry
	tp      *sdktrace.TracerProvider
	exp     *tracetest.InMemoryExporter
	c       *cluster.Cluster
	cc      *Context
	mu      sync.Mutex
	plines  []*events.Pipeline
	started bool
	stopped bool
	spans   tracetest.SpanStubs
}

// newHarness must be called inside synctest.Test.
func newHarness(t *testing.T, era informer.Era) *harness { return startHarness(t, era, true) }

// startHarness is newHarness; eventsToAPI says whether the controllers'
// event pipelines write their events to the fake apiserver, as they do in
// a run (StartRecordingToSink).
func startHarness(t *testing.T, era informer.Era, eventsToAPI bool) *harness {
	t.Helper()
	clk, err := clock.NewScaled(1)
	if err != nil {
		t.Fatal(err)
	}
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	reg := goroutine.NewRegistry(clk)
	rt := goroutine.NewRuntime("cm-0", tp.Tracer("test"), clk, reg)
	ctx, cancel := context.WithCancel(rt.Context(context.Background()))
	h := &harness{t: t, ctx: ctx, cancel: cancel, clk: clk, reg: reg, tp: tp, exp: exp,
		c: cluster.New(cluster.WithClock(clk), cluster.WithSeed(1))}
	h.cc = &Context{
		Config: NewConfig(), Era: era, Client: h.c.Client, API: h.c,
		Informers:  informer.NewFactory(h.c, era, 12*time.Hour),
		APIEnabled: func(string) bool { return true },
		NewEvents: func(ctx context.Context, component string, logging, sink bool) *events.Pipeline {
			o := events.Options{Prefix: "cm", Component: component, Logging: logging}
			if sink && eventsToAPI {
				o.Sink = h.c.Client.CoreV1()
			}
			p := events.Start(ctx, o)
			h.mu.Lock()
			h.plines = append(h.plines, p)
			h.mu.Unlock()
			return p
		},
		Rand: rand.New(rand.NewPCG(1, 2)),
	}
	// Run's own pipeline, whose recorder StartControllers is given.
	h.cc.Events = h.cc.NewEvents(ctx, "controller-manager", true, true)
	t.Cleanup(func() { h.stop() }) // also after a t.Fatal: inside the bubble, nothing may be left running
	return h
}

// start starts the controllers with these IDs, then the shared informers,
// as StartControllers does; it returns why each did not start.
func (h *harness) start(ids ...string) map[string]string {
	h.t.Helper()
	why := map[string]string{}
	for _, d := range All() {
		for _, id := range ids {
			if d.ID == id {
				why[id] = d.Start(h.ctx, h.cc)
			}
		}
	}
	h.cc.Informers.Start(h.ctx)
	h.started = true
	return why
}

// after lets d of simulated time pass.
func (h *harness) after(d time.Duration) { h.clk.Sleep(d) }

// stop stops everything and returns the spans.
func (h *harness) stop() tracetest.SpanStubs {
	h.t.Helper()
	if h.stopped {
		return h.spans
	}
	h.stopped = true
	h.cancel()
	h.mu.Lock()
	for _, p := range h.plines {
		p.Shutdown()
	}
	h.mu.Unlock()
	if left := h.reg.Stop(10 * time.Second); len(left) != 0 {
		h.t.Errorf("leftover goroutines: %v", left)
	}
	h.spans = h.exp.GetSpans()
	h.tp.Shutdown(context.Background())
	return h.spans
}

// named returns the spans with a name.
func named(spans tracetest.SpanStubs, name string) tracetest.SpanStubs {
	var out tracetest.SpanStubs
	for _, s := range spans {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}
