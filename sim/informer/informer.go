package informer

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/cache"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// Era selects the queue and the reflector's retry behaviour.
type Era string

const (
	// Classic is what the article shows (v1.5): a DeltaFIFO, and a reflector
	// that re-lists 1s after ListAndWatch returns.
	Classic Era = "classic"
	// Modern is client-go today: a RealFIFO, and an exponential backoff
	// (800ms doubling to 30s, jittered) between ListAndWatch calls.
	Modern Era = "modern"
)

// Source is the apiserver the informer lists and watches (sim/cluster).
type Source interface {
	List(ctx context.Context, gvr schema.GroupVersionResource, kind schema.GroupVersionKind, namespace string, opts metav1.ListOptions) (runtime.Object, error)
	Watch(ctx context.Context, gvr schema.GroupVersionResource, namespace string, opts metav1.ListOptions) (watch.Interface, error)
}

// Config describes one informer.
type Config struct {
	Name      string // informer.name, e.g. "pods"
	Resource  schema.GroupVersionResource
	Kind      schema.GroupVersionKind // the object kind, e.g. v1 Pod
	Namespace string                  // "" = all namespaces
	Era       Era
	// Reflector is the classic reflector's version (default v1.5); v1.4
	// leaks a resync goroutine per ListAndWatch call (reflector.go).
	Reflector Reflector
	Resync    time.Duration // 0 = never
	Source    Source
	// Mode is how the informer delivers what it sees (default Shared).
	Mode Mode
	// FieldSelector is the ListWatch's field selector ("spec.nodeName=node-1").
	FieldSelector string
	// ReflectorName is the catalog name of the reflector's goroutine
	// (default "reflector/list-watch"); a component names its own bare
	// reflectors ("kubelet/source-apiserver").
	ReflectorName string
	// Send makes a bare reflector's store an UndeltaStore
	// (cache.NewUndeltaStore(send, …)): after every change it is called
	// with the whole content of the store, on the reflector's goroutine.
	Send func(ctx context.Context, objs []any)
}

// Mode is the kind of informer, as Kubernetes builds them.
type Mode int

const (
	// Shared is a shared index informer (sharedIndexInformer): its process
	// loop hands notifications to one listener pair (listener-pop and
	// listener-run goroutines) per handler.
	Shared Mode = iota
	// Private is a controller's own informer (cache.NewInformer /
	// NewIndexerInformer): no listener goroutines; the process loop, whose
	// goroutine is informer/private, calls the handlers itself.
	Private
	// ReflectorOnly is a bare reflector into a store (cache.NewReflector(…).Run):
	// the reflector writes the indexer directly; no process loop, no handlers.
	ReflectorOnly
)

// Informer is one instrumented shared index informer.
type Informer struct {
	cfg     Config
	attrs   []attribute.KeyValue
	indexer cache.Indexer
	queue   *tracedQueue
	lw      cache.ListerWatcher
	proc    *processor // Shared: the listeners
	direct  []Handler  // Private: the handlers the process loop calls itself
	causes  causes

	// deltaMu is client-go's blockDeltas: HandleDeltas and a late
	// AddHandler (which replays the cache) exclude each other.
	deltaMu sync.Mutex
	// storeObservers see every change HandleDeltas makes to the indexer,
	// as it makes it (under deltaMu): see ObserveStore.
	storeObservers []func(old, obj any)

	// call is the reflector's current ListAndWatch iteration; queue
	// operations (called by client-go without a context) record their spans
	// under its context.
	call    atomic.Pointer[listAndWatchCall]
	started atomic.Bool
	// leaked counts the pre-1.5 reflector's resync goroutines left behind
	// by their calls and still running (leak.go).
	leaked atomic.Int64
}

// Leaked is how many resync goroutines the pre-1.5 reflector has left
// behind and are still running: 0 with v1.5's.
func (inf *Informer) Leaked() int { return int(inf.leaked.Load()) }

// New assembles an informer; nothing runs until Run.
func New(cfg Config) (*Informer, error) {
	if cfg.Source == nil {
		return nil, errors.New("informer: a Source is required")
	}
	if cfg.Name == "" {
		cfg.Name = cfg.Resource.Resource
	}
	if cfg.Era == "" {
		cfg.Era = Classic
	}
	if cfg.ReflectorName == "" {
		cfg.ReflectorName = "reflector/list-watch"
	}
	if cfg.Mode < Shared || cfg.Mode > ReflectorOnly {
		return nil, fmt.Errorf("informer %s: unknown mode %d", cfg.Name, cfg.Mode)
	}
	if cfg.Era != Classic && cfg.Era != Modern {
		return nil, fmt.Errorf("informer %s: unknown era %q: expected classic or modern", cfg.Name, cfg.Era)
	}
	if err := cfg.checkReflector(); err != nil {
		return nil, err
	}
	if _, err := scheme.Scheme.New(cfg.Kind); err != nil {
		return nil, fmt.Errorf("informer %s: %w", cfg.Name, err)
	}
	inf := &Informer{
		cfg: cfg,
		attrs: []attribute.KeyValue{
			attribute.String(catalog.AttrInformer, cfg.Name),
			attribute.String(catalog.AttrResource, cfg.Resource.Resource),
		},
		indexer: cache.NewIndexer(cache.DeletionHandlingMetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}),
		causes:  newCauses(),
	}
	if cfg.Reflector != ReflectorV15 {
		// Every lane of the informer says which reflector it runs; the
		// default's lanes stay as they were.
		inf.attrs = append(inf.attrs, attribute.String(catalog.AttrReflector, string(cfg.Reflector)))
	}
	inf.queue = newTracedQueue(inf)
	inf.lw = inf.listWatch()
	inf.proc = &processor{inf: inf}
	return inf, nil
}

// Name is the informer's name.
func (inf *Informer) Name() string { return inf.cfg.Name }

// Era is the informer's era.
func (inf *Informer) Era() Era { return inf.cfg.Era }

// Indexer is the informer's cache. Objects in it must not be mutated.
func (inf *Informer) Indexer() cache.Indexer { return inf.indexer }

// ObserveStore calls fn with each change HandleDeltas makes to the
// informer's cache, right after it makes it and before the listeners hear
// of it: (nil, obj) for an add, (old, obj) for an update, (old, nil) for a
// delete. A controller keeps an incremental view of the cache with it,
// where client-go keeps one with an index (AddIndexers): the view never
// lags the cache the way a handler's would. fn must be quick and must not
// call back into the informer. Bare reflectors (ReflectorOnly) write their
// store without HandleDeltas and are not observed.
func (inf *Informer) ObserveStore(fn func(old, obj any)) {
	inf.deltaMu.Lock()
	defer inf.deltaMu.Unlock()
	inf.storeObservers = append(inf.storeObservers, fn)
}

// AddIndex adds an index to the informer's cache, unless it has one of
// that name already: controllers that share an informer may each ask for
// the same index (the replica set controller and the replication manager
// both index the shared pods). Like sharedIndexInformer.AddIndexers, it
// holds off HandleDeltas meanwhile.
func (inf *Informer) AddIndex(name string, fn cache.IndexFunc) error {
	inf.deltaMu.Lock()
	defer inf.deltaMu.Unlock()
	if _, ok := inf.indexer.GetIndexers()[name]; ok {
		return nil
	}
	return inf.indexer.AddIndexers(cache.Indexers{name: fn})
}

func (inf *Informer) storeChanged(old, obj any) {
	for _, fn := range inf.storeObservers {
		fn(old, obj)
	}
}

// HasSynced reports whether the initial list has been popped and handled
// (for a bare reflector: stored).
func (inf *Informer) HasSynced() bool { return inf.queue.q.HasSynced() }

// Run starts the informer and returns at once. A shared informer runs as
// sharedIndexInformer.Run does: the informer/run goroutine starts the
// listeners (sharedProcessor.run) and the reflector (controller.Run →
// Reflector.RunUntil), then loops on processLoop every 1s until ctx ends. A
// private informer is the same on informer/private, without listeners. A
// bare reflector is just reflector/list-watch.
func (inf *Informer) Run(ctx context.Context) {
	if !inf.started.CompareAndSwap(false, true) {
		panic("informer: Run called twice for " + inf.cfg.Name)
	}
	if inf.cfg.Mode == ReflectorOnly {
		inf.runReflector(ctx)
		return
	}
	name := "informer/run"
	if inf.cfg.Mode == Private {
		name = "informer/private"
	}
	rt := goroutine.RuntimeFrom(ctx)
	rt.Until(ctx, name, time.Second, inf.processLoop,
		goroutine.WithAttributes(inf.attrs...),
		goroutine.WithIterationName("processLoop"),
		goroutine.WithSetup(func(ctx context.Context) {
			// The FIFO closes when the informer stops, which ends Pop.
			context.AfterFunc(ctx, inf.queue.q.Close)
			if inf.cfg.Mode == Shared {
				inf.proc.run(ctx)
			}
			inf.runReflector(ctx)
		}))
}

// RunDummy is what a controller's `go podController.Run(stopCh)` does when
// podController is a shared informer's GetController(): a dummyController
// whose Run returns at once — the factory runs the real informer.
func (inf *Informer) RunDummy(ctx context.Context) {
	goroutine.RuntimeFrom(ctx).Go(ctx, "informer/dummy-controller-run", func(context.Context) {},
		goroutine.WithAttributes(inf.attrs...))
}

// runReflector starts reflector/list-watch: wait.Until(ListAndWatch, 1s) in
// v1.5; wait.BackoffUntil with an exponential backoff today.
func (inf *Informer) runReflector(ctx context.Context) {
	rt := goroutine.RuntimeFrom(ctx)
	r := cache.NewReflectorWithOptions(inf.lw, inf.newObject(), inf.queue, cache.ReflectorOptions{
		Name:            inf.cfg.Name,
		TypeDescription: inf.cfg.Kind.String(),
		Clock:           rt.Clock(),
		// Resync is done by the traced reflector/resync-timer goroutine below.
	})
	listAndWatch := func(stop context.Context) {
		ctx, cancel := context.WithCancel(stop)
		defer cancel() // ends this call's resync timer, as ListAndWatch's cancelCh does
		inf.call.Store(&listAndWatchCall{ctx: ctx, stop: stop})
		if err := r.ListAndWatchWithContext(ctx); err != nil {
			sp := goroutine.SpanFrom(ctx)
			sp.RecordError(err)
			sp.SetAttributes(attribute.String("error", err.Error()))
		}
	}
	opts := []goroutine.Option{goroutine.WithAttributes(inf.attrs...), goroutine.WithIterationName("ListAndWatch")}
	if inf.cfg.Era == Classic {
		rt.Until(ctx, inf.cfg.ReflectorName, time.Second, listAndWatch, opts...)
		return
	}
	rt.BackoffUntil(ctx, inf.cfg.ReflectorName, reflectorBackoff(rt.Clock()), listAndWatch, opts...)
}

// listAndWatchCall is one call of ListAndWatch.
type listAndWatchCall struct {
	ctx context.Context // ends when the call returns: v1.5's cancelCh
	// stop is the reflector's stopCh, which outlives the call: all a
	// pre-1.5 resync goroutine selects on.
	stop   context.Context
	listed atomic.Bool // the LIST is stored and the resync goroutine started
}

// listStored is called once the LIST of the current ListAndWatch call is in
// the store. It starts that call's resync goroutine, as v1.5's ListAndWatch
// does right after syncWith and setLastSyncResourceVersion — whatever the
// resync period: with 0, resyncChan returns neverExitWatch and the goroutine
// only waits for stopCh or cancelCh (pkg/client/cache/reflector.go,
// ListAndWatch). client-go today does the same in watchWithResync →
// go r.startResync.
func (inf *Informer) listStored() {
	call := inf.call.Load()
	if call == nil || !call.listed.CompareAndSwap(false, true) {
		return // a later Replace of the same call (a WatchList's end) starts nothing
	}
	if inf.cfg.Reflector == ReflectorV14 {
		inf.startLeakyResyncTimer(call)
		return
	}
	inf.startResyncTimer(call.ctx)
}

// startResyncTimer is the resync goroutine of one ListAndWatch call
// (reflector.go: go func(){ for { select { case <-resyncCh: ... store.Resync() } } }).
func (inf *Informer) startResyncTimer(ctx context.Context) {
	rt := goroutine.RuntimeFrom(ctx)
	period := inf.cfg.Resync
	if period <= 0 {
		// resyncChan's neverExitWatch: nothing ever fires; the goroutine
		// lives until the call ends.
		rt.Go(ctx, "reflector/resync-timer", func(ctx context.Context) { <-ctx.Done() }, goroutine.WithAttributes(inf.attrs...))
		return
	}
	rt.Go(ctx, "reflector/resync-timer", func(ctx context.Context) {
		clk := rt.Clock()
		for {
			t := clk.NewTimer(period)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C():
			}
			ictx, sp := goroutine.Iterate(ctx, "Resync")
			// v1.5 has no per-listener resync: every resync goes to every
			// handler. Since 1.6 the processor says who is due (ShouldResync).
			due := inf.proc.shouldResync(clk.Now())
			sp.SetAttributes(attribute.Int("listeners.due", due))
			// A controller's own informer and a bare reflector resync every
			// period in both eras: they have no per-listener periods.
			if due > 0 || inf.cfg.Era == Classic || inf.cfg.Mode != Shared {
				_ = inf.queue.resync(ictx) // an error is recorded on its span
			}
			sp.End()
		}
	}, goroutine.WithAttributes(inf.attrs...), goroutine.WithPeriod(period))
}

func (inf *Informer) newObject() runtime.Object {
	obj, _ := scheme.Scheme.New(inf.cfg.Kind) // checked in New
	return obj
}

// currentReflectorCtx is the context for spans of queue operations.
func (inf *Informer) currentReflectorCtx() context.Context {
	if call := inf.call.Load(); call != nil {
		return call.ctx
	}
	panic("informer: queue used before the reflector started")
}

func keyOf(obj any) string {
	k, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return "<unknown>"
	}
	return k
}

func linkTo(sc trace.SpanContext, key string) []trace.Link {
	if !sc.IsValid() {
		return nil
	}
	return []trace.Link{goroutine.Cause(sc, key)}
}
