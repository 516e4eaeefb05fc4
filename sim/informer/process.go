package informer

import (
	"context"
	"errors"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/tools/cache"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// processLoop is controller.processLoop: Pop until the queue closes.
func (inf *Informer) processLoop(ctx context.Context) {
	for {
		_, err := inf.queue.q.Pop(func(obj any, isInInitialList bool) error {
			return inf.handleDeltas(ctx, obj.(cache.Deltas), isInInitialList)
		})
		if errors.Is(err, cache.ErrFIFOClosed) {
			return
		}
	}
}

// handleDeltas is sharedIndexInformer.HandleDeltas (processDeltas in
// client-go today): apply each delta to the indexer and distribute a
// notification to the listeners.
func (inf *Informer) handleDeltas(ctx context.Context, deltas cache.Deltas, isInInitialList bool) error {
	newest := deltas.Newest()
	if newest == nil {
		return nil
	}
	key := keyOf(newest.Object)
	n := len(deltas)
	if inf.queue.popAll {
		n = -1
	}
	var links []trace.Link
	for _, sc := range inf.causes.pop(key, n) {
		links = append(links, goroutine.Cause(sc, key))
	}
	ctx, pop := goroutine.Start(ctx, "Pop", trace.WithLinks(links...), trace.WithAttributes(
		attribute.String(catalog.AttrObjectKey, key), attribute.Int("deltas", len(deltas)),
		attribute.Bool("isInInitialList", isInInitialList)))
	defer pop.End()
	ctx, sp := goroutine.Start(ctx, "HandleDeltas", trace.WithAttributes(attribute.String(catalog.AttrObjectKey, key)))
	defer sp.End()

	inf.deltaMu.Lock()
	defer inf.deltaMu.Unlock()
	cause := pop.SpanContext() // the Pop span carries the links to the queue operations
	for _, d := range deltas {
		obj := d.Object
		switch d.Type {
		case cache.Sync, cache.Replaced, cache.Added, cache.Updated:
			if old, exists, err := inf.indexer.Get(obj); err == nil && exists {
				if err := inf.indexer.Update(obj); err != nil {
					return err
				}
				inf.storeChanged(old, obj)
				// An unchanged resourceVersion is a resync (a Sync delta, or a
				// re-list that found the object as it was). v1.5 distributes
				// it to every listener like any update; since 1.6
				// (sharedIndexInformer.OnUpdate) only to listeners due for a
				// resync, so with resync 0 a re-list is silent.
				isSync := sameVersion(old, obj)
				inf.deliver(ctx, notification{kind: update, oldObj: old, newObj: obj, key: key, cause: cause, resync: isSync},
					isSync && inf.cfg.Era == Modern)
			} else {
				if err := inf.indexer.Add(obj); err != nil {
					return err
				}
				inf.storeChanged(nil, obj)
				inf.deliver(ctx, notification{kind: add, newObj: obj, key: key, cause: cause, isInInitialList: isInInitialList}, false)
			}
		case cache.Deleted:
			old, exists, _ := inf.indexer.Get(obj)
			if err := inf.indexer.Delete(obj); err != nil {
				return err
			}
			if exists {
				inf.storeChanged(old, nil)
			}
			inf.deliver(ctx, notification{kind: del, oldObj: obj, key: key, cause: cause}, false)
		}
	}
	return nil
}

func sameVersion(a, b any) bool {
	ma, err1 := meta.Accessor(a)
	mb, err2 := meta.Accessor(b)
	return err1 == nil && err2 == nil && ma.GetResourceVersion() == mb.GetResourceVersion()
}

// deliver hands a notification to the handlers: through the listeners of a
// shared informer; directly, on the process loop's goroutine, for a
// private one (controller.go's Process func calls h.OnAdd and friends).
func (inf *Informer) deliver(ctx context.Context, n notification, onlyDue bool) {
	if inf.cfg.Mode == Shared {
		inf.proc.distribute(ctx, n, onlyDue)
		return
	}
	for _, h := range inf.direct {
		callHandler(ctx, h, n, goroutine.Start, attribute.String(catalog.AttrHandler, h.Name()))
	}
}
