package informer

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	"k8s.io/client-go/tools/cache"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// fifo is what DeltaFIFO and RealFIFO have in common here.
type fifo interface {
	cache.ReflectorStore
	Pop(cache.PopProcessFunc) (any, error)
	Close()
	HasSynced() bool
}

// tracedQueue is the reflector's store: the era's FIFO, with a span per
// operation ("DeltaFIFO.Add", "RealFIFO.Replace", ...) on the reflector's
// goroutine, each linked to the list or watch event that brought the object.
type tracedQueue struct {
	inf  *Informer
	q    fifo
	kind string // "DeltaFIFO" or "RealFIFO"
	// popAll: a DeltaFIFO pops every queued delta of a key at once; a
	// RealFIFO pops one delta at a time.
	popAll bool
}

var _ cache.ReflectorStore = (*tracedQueue)(nil)

// isStore: a bare reflector's store; nothing pops, so no cause is queued.
func (t *tracedQueue) isStore() bool { return t.inf.cfg.Mode == ReflectorOnly }

func newTracedQueue(inf *Informer) *tracedQueue {
	if inf.cfg.Mode == ReflectorOnly {
		kind := "Store"
		if inf.cfg.Send != nil {
			kind = "UndeltaStore"
		}
		return &tracedQueue{inf: inf, kind: kind, q: &storeQueue{Indexer: inf.indexer}}
	}
	if inf.cfg.Era == Classic {
		// v1.5: NewDeltaFIFO(MetaNamespaceKeyFunc, nil, s.indexer); a re-list
		// queues Sync deltas (EmitDeltaTypeReplaced came later).
		return &tracedQueue{inf: inf, kind: "DeltaFIFO", popAll: true, q: cache.NewDeltaFIFOWithOptions(cache.DeltaFIFOOptions{
			Name:         inf.cfg.Name,
			KeyFunction:  cache.MetaNamespaceKeyFunc,
			KnownObjects: sortedKeys{inf.indexer},
		})}
	}
	return &tracedQueue{inf: inf, kind: "RealFIFO", q: cache.NewRealFIFOWithOptions(cache.RealFIFOOptions{
		Name:         inf.cfg.Name,
		KeyFunction:  cache.MetaNamespaceKeyFunc,
		KnownObjects: sortedKeys{inf.indexer},
	})}
}

// sortedKeys is the indexer as a FIFO's KnownObjects, its keys listed in
// order: the FIFO queues a resync's Sync deltas, and the deletions a
// re-list finds, in ListKeys order, which the indexer gives in map order.
// Sorted, the handlers see them in the same order every run.
type sortedKeys struct{ cache.KeyListerGetter }

func (s sortedKeys) ListKeys() []string {
	keys := s.KeyListerGetter.ListKeys()
	slices.Sort(keys)
	return keys
}

func (t *tracedQueue) op(name string, obj any, do func() error) error {
	key := keyOf(obj)
	origin := t.inf.causes.takeOrigin(versionKey(obj))
	ctx, sp := goroutine.Start(t.inf.currentReflectorCtx(), t.kind+"."+name,
		trace.WithAttributes(attribute.String(catalog.AttrObjectKey, key)),
		trace.WithLinks(linkTo(origin, key)...))
	defer sp.End()
	// Remembered before the object is queued: the process loop may pop it at once.
	if !t.isStore() {
		t.inf.causes.queue(key, sp.SpanContext())
	}
	err := do()
	t.send(ctx)
	return err
}

// send is the UndeltaStore's push: the whole store after each change,
// inside the operation, as UndeltaStore.Add calls u.PushFunc(u.Store.List())
// (pkg/client/cache/undelta_store.go), so the send is a child of the
// operation's span and continues the object's way from its watch event.
func (t *tracedQueue) send(ctx context.Context) {
	if send := t.inf.cfg.Send; send != nil && t.isStore() {
		send(ctx, t.inf.indexer.List())
	}
}

func (t *tracedQueue) Add(obj any) error {
	return t.op("Add", obj, func() error { return t.q.Add(obj) })
}

func (t *tracedQueue) Update(obj any) error {
	return t.op("Update", obj, func() error { return t.q.Update(obj) })
}

func (t *tracedQueue) Delete(obj any) error {
	return t.op("Delete", obj, func() error { return t.q.Delete(obj) })
}

// Replace is the reflector's store.Replace after a List: every listed object
// is queued (Sync in v1.5, Replaced today) and known objects missing from the
// list are queued as deleted.
func (t *tracedQueue) Replace(list []any, rv string) error {
	origin := t.inf.causes.takeOrigin(listKey)
	ctx, sp := goroutine.Start(t.inf.currentReflectorCtx(), t.kind+".Replace",
		trace.WithAttributes(attribute.Int("k8s.list.items", len(list)), attribute.String("k8s.resource_version", rv)),
		trace.WithLinks(linkTo(origin, "")...))
	listed := make(map[string]bool, len(list))
	for _, obj := range list {
		key := keyOf(obj)
		listed[key] = true
		t.inf.causes.takeOrigin(versionKey(obj))
		if !t.isStore() {
			t.inf.causes.queue(key, sp.SpanContext())
		}
	}
	if !t.isStore() {
		for _, key := range t.inf.indexer.ListKeys() {
			if !listed[key] {
				t.inf.causes.queue(key, sp.SpanContext())
			}
		}
	}
	err := t.q.Replace(list, rv)
	t.send(ctx)
	sp.End()
	if err == nil {
		t.inf.listStored()
	}
	return err
}

// Resync is called by the traced resync timer, not by the reflector (whose
// own resync period is left at 0).
func (t *tracedQueue) Resync() error { return t.q.Resync() }

func (t *tracedQueue) resync(ctx context.Context) error {
	_, sp := goroutine.Start(ctx, t.kind+".Resync")
	defer sp.End()
	for _, key := range t.inf.indexer.ListKeys() {
		t.inf.causes.queue(key, sp.SpanContext())
	}
	err := t.q.Resync()
	sp.RecordError(err)
	return err
}

// storeQueue is a bare reflector's store: the indexer itself. Nothing pops
// from it; it has synced once the first list is stored.
type storeQueue struct {
	cache.Indexer
	synced atomic.Bool
}

func (s *storeQueue) Replace(list []any, rv string) error {
	err := s.Indexer.Replace(list, rv)
	s.synced.Store(true)
	return err
}

func (s *storeQueue) Pop(cache.PopProcessFunc) (any, error) {
	return nil, errors.New("informer: a bare reflector's store is never popped")
}

func (s *storeQueue) Close()          {}
func (s *storeQueue) HasSynced() bool { return s.synced.Load() }
