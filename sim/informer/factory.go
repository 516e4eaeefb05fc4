package informer

import (
	"context"
	"fmt"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// Factory is the SharedInformerFactory of pkg/controller/informers (v1.5):
// one shared informer per resource, created on first request, all with the
// factory's resync period, started together by Start.
type Factory struct {
	source Source
	era    Era
	resync time.Duration

	mu        sync.Mutex
	informers map[string]*Informer
	order     []*Informer // request order, which Start follows
	started   int         // order[:started] have been started
}

// NewFactory returns an empty factory (informers.NewSharedInformerFactory(client, resync)).
func NewFactory(source Source, era Era, resync time.Duration) *Factory {
	return &Factory{source: source, era: era, resync: resync, informers: map[string]*Informer{}}
}

// Informer returns the shared informer of a resource LookupResource knows ("pods"),
// creating it on first use, as podInformer.Informer() does.
func (f *Factory) Informer(resource string) *Informer {
	f.mu.Lock()
	defer f.mu.Unlock()
	if inf, ok := f.informers[resource]; ok {
		return inf
	}
	r, ok := LookupResource(resource)
	if !ok {
		panic(fmt.Sprintf("informer: the factory knows no resource %q", resource))
	}
	inf, err := New(Config{Name: resource, Resource: r.GVR, Kind: r.GVK, Era: f.era, Resync: f.resync, Source: f.source})
	if err != nil {
		panic(err) // the table above is fixed and valid
	}
	f.informers[resource] = inf
	f.order = append(f.order, inf)
	return inf
}

// Start runs every informer not yet started (sharedInformerFactory.Start:
// `go informer.Run(stopCh)` each). v1.5 ranges over a map, so its order is
// random; kubeloom starts them in the order they were first requested, so
// that runs are reproducible.
func (f *Factory) Start(ctx context.Context) {
	f.mu.Lock()
	todo := f.order[f.started:]
	f.started = len(f.order)
	f.mu.Unlock()
	sp := goroutine.SpanFrom(ctx)
	for _, inf := range todo {
		inf.Run(ctx)
	}
	sp.AddEvent("informers started", attribute.Int("informers", len(todo)))
}

// WaitForCacheSync is cache.WaitForCacheSync: it waits until every synced
// func reports true or ctx ends, and reports whether the caches synced.
// The wait is a span of the caller, which checks the caches; the poller
// goroutine behind it is the informer/cache-sync-poller lane.
//
//   - Classic (v1.5): wait.PollUntil(syncedPollPeriod=100ms, …, stopCh).
//     The first check is 100ms in, and the poller's done is stopCh, so it
//     ticks on, unheard, after the caches synced, until the controller
//     stops — for the life of the process (the leak of kubernetes#70277).
//   - Modern: wait.PollImmediateUntil: a check at once, and a poller only
//     if that fails, which stops when the call returns.
func WaitForCacheSync(ctx context.Context, era Era, what string, synced ...func() bool) bool {
	ctx, sp := goroutine.Start(ctx, "WaitForCacheSync", trace.WithAttributes(attribute.String("informer.caches", what)))
	defer sp.End()
	checks := 0
	all := func(context.Context) bool {
		checks++
		for _, s := range synced {
			if !s() {
				return false
			}
		}
		return true
	}
	opt := goroutine.WithAttributes(attribute.String("informer.caches", what))
	var err error
	if era == Modern {
		err = goroutine.PollImmediateUntil(ctx, "informer/cache-sync-poller", syncedPollPeriod, all, opt)
	} else {
		err = goroutine.PollUntil(ctx, "informer/cache-sync-poller", syncedPollPeriod, all, opt)
	}
	sp.SetAttributes(attribute.Bool("synced", err == nil), attribute.Int("checks", checks))
	return err == nil
}

// syncedPollPeriod is how often WaitForCacheSync checks the caches
// (pkg/client/cache/shared_informer.go).
const syncedPollPeriod = 100 * time.Millisecond
