package informer

import (
	"context"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// listWatch is the informer's ListWatch (NewPodInformer's cache.ListWatch in
// v1.5) with a span per call: "<resource>.List" and "<resource>.Watch".
func (inf *Informer) listWatch() cache.ListerWatcher {
	res := inf.cfg.Resource.Resource
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			inf.turn(ctx, "list")
			opts.FieldSelector = inf.cfg.FieldSelector
			ctx, sp := goroutine.Start(ctx, res+".List", trace.WithAttributes(append(inf.attrs,
				attribute.String("k8s.list.resource_version", opts.ResourceVersion))...))
			defer sp.End()
			list, err := inf.cfg.Source.List(ctx, inf.cfg.Resource, inf.cfg.Kind, inf.cfg.Namespace, opts)
			if err != nil {
				sp.RecordError(err)
				return nil, err
			}
			items, _ := meta.ExtractList(list)
			sp.SetAttributes(attribute.Int("k8s.list.items", len(items)))
			if lm, err := meta.ListAccessor(list); err == nil {
				sp.SetAttributes(attribute.String("k8s.resource_version", lm.GetResourceVersion()))
			}
			for _, it := range items {
				inf.causes.setOrigin(versionKey(it), sp.SpanContext())
			}
			inf.causes.setOrigin(listKey, sp.SpanContext())
			return list, nil
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			inf.turn(ctx, "watch")
			opts.FieldSelector = inf.cfg.FieldSelector
			ctx, sp := goroutine.Start(ctx, res+".Watch", trace.WithAttributes(append(inf.attrs,
				attribute.String("k8s.watch.resource_version", opts.ResourceVersion))...))
			w, err := inf.cfg.Source.Watch(ctx, inf.cfg.Resource, inf.cfg.Namespace, opts)
			if err != nil {
				sp.RecordError(err)
				sp.End()
				return nil, err
			}
			return inf.receive(ctx, sp, w), nil
		},
	}
	// The fake clientset cannot stream a WatchList (it never sends the
	// initial-events bookmark); tell the reflector to list and watch instead.
	return cache.ToListWatcherWithWatchListSemantics(lw, noWatchList{})
}

// turn makes a LIST or a WATCH wait for its turn (clock.TakeTurn): a
// reflector that lists at the instant an object is written sees it in the
// LIST or as a watch event depending on which goes first, which the
// scheduler would otherwise decide.
func (inf *Informer) turn(ctx context.Context, call string) {
	rt := goroutine.RuntimeFrom(ctx)
	clock.TakeTurn(rt.Clock(), rt.Instance()+" "+call+" "+inf.cfg.Name)
}

// listKey is the origin key of the latest list as a whole.
const listKey = "\x00list"

type noWatchList struct{}

func (noWatchList) IsWatchListSemanticsUnSupported() bool { return true }

func versionKey(obj any) string {
	rv := ""
	if m, err := meta.Accessor(obj); err == nil {
		rv = m.GetResourceVersion()
	}
	return keyOf(obj) + "@" + rv
}

// receive starts watch/stream-receive, the goroutine that decodes the watch
// stream in v1.5 (streamwatcher.go: go sw.receive()). Here it relays the fake
// apiserver's events, with a span per event and an event on the Watch span.
func (inf *Informer) receive(ctx context.Context, watchSpan goroutine.Span, src watch.Interface) watch.Interface {
	w := &relay{src: src, out: make(chan watch.Event), done: make(chan struct{})}
	goroutine.RuntimeFrom(ctx).Go(ctx, "watch/stream-receive", func(ctx context.Context) {
		defer watchSpan.End()
		defer close(w.out)
		defer src.Stop()
		for {
			var ev watch.Event
			var ok bool
			select {
			case ev, ok = <-src.ResultChan():
			case <-w.done:
				return
			case <-ctx.Done():
				return
			}
			if !ok {
				watchSpan.AddEvent("watch closed")
				return
			}
			var cause trace.SpanContext
			if cw, ok := src.(causedWatch); ok {
				cause = cw.Cause(ev)
			}
			inf.traceEvent(ctx, watchSpan, ev, cause)
			select {
			case w.out <- ev:
			case <-w.done:
				return
			case <-ctx.Done():
				return
			}
		}
	}, goroutine.WithAttributes(inf.attrs...))
	return w
}

// causedWatch is a watch that can say which span caused an event: the
// fake apiserver's can, for writes a scenario action made (cluster.WithCause).
type causedWatch interface {
	Cause(ev watch.Event) trace.SpanContext
}

// traceEvent records one watch event: an event on the Watch span and a
// receive iteration, linked to the span that caused the event if known.
func (inf *Informer) traceEvent(ctx context.Context, watchSpan goroutine.Span, ev watch.Event, cause trace.SpanContext) {
	key := inf.cfg.Resource.Resource // a watch error is about the resource
	attrs := []attribute.KeyValue{attribute.String(catalog.AttrEventType, string(ev.Type))}
	if ev.Type == watch.Error {
		msg := "watch error"
		if st, ok := ev.Object.(*metav1.Status); ok {
			msg = st.Message
			attrs = append(attrs, attribute.Int("http.response.status_code", int(st.Code)), attribute.String("k8s.status.reason", string(st.Reason)))
		}
		attrs = append(attrs, attribute.String("error.message", msg))
	} else {
		key = keyOf(ev.Object)
		attrs = append(attrs, attribute.String(catalog.AttrObjectKey, key))
		if m, err := meta.Accessor(ev.Object); err == nil {
			attrs = append(attrs, attribute.String("k8s.resource_version", m.GetResourceVersion()))
		}
	}
	watchSpan.AddEvent("watch event", attrs...)
	_, sp := goroutine.Iterate(ctx, "receive", trace.WithAttributes(attrs...), trace.WithLinks(linkTo(cause, key)...))
	if ev.Type != watch.Error {
		inf.causes.setOrigin(versionKey(ev.Object), sp.SpanContext())
	}
	sp.End()
}

// relay is the watch.Interface the reflector reads.
type relay struct {
	src  watch.Interface
	out  chan watch.Event
	done chan struct{}
	once sync.Once
}

func (w *relay) Stop()                          { w.once.Do(func() { close(w.done) }) }
func (w *relay) ResultChan() <-chan watch.Event { return w.out }
