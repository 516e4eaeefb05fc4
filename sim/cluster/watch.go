package cluster

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"go.opentelemetry.io/otel/trace"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	k8stesting "k8s.io/client-go/testing"
)

// watch opens a watch. Objects newer than the requested resourceVersion
// are sent first, as the fake does (an empty version sends them all); then
// every write of the resource in the watched namespace. Unlike the fake's
// watches, these never overflow: each holds an unbounded queue, drained by
// its own goroutine into the result channel (the apiserver's side of the
// HTTP stream).
func (c *Cluster) watch(action k8stesting.Action) (bool, watch.Interface, error) {
	var opts metav1.ListOptions
	if wa, ok := action.(k8stesting.WatchActionImpl); ok {
		opts = wa.ListOptions
	}
	gvr, ns := action.GetResource(), action.GetNamespace()
	from := int64(0)
	if opts.ResourceVersion != "" {
		rv, err := strconv.ParseInt(opts.ResourceVersion, 10, 64)
		if err != nil {
			return true, nil, apierrors.NewBadRequest(fmt.Sprintf("invalid resourceVersion %q: expected an integer", opts.ResourceVersion))
		}
		from = rv
	}
	sel := fields.Everything()
	if opts.FieldSelector != "" {
		var err error
		if sel, err = fields.ParseSelector(opts.FieldSelector); err != nil {
			return true, nil, apierrors.NewBadRequest(fmt.Sprintf("invalid field selector %q: %v", opts.FieldSelector, err))
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	w := newWatcher(ns, sel)
	if kind, ok := c.kinds[gvr]; ok {
		_, list, err := c.object(k8stesting.NewListAction(gvr, kind, ns, metav1.ListOptions{}))
		if err != nil {
			return true, nil, err
		}
		items, _ := meta.ExtractList(list)
		for _, it := range items {
			m, _ := meta.Accessor(it)
			// Every object the selector matches now counts as seen, also
			// those older than the watch's version (the watcher listed
			// them): its next change is a MODIFIED, not an ADDED.
			matches := w.sel.Empty() || w.sel.Matches(selectableFields(it))
			if matches && !w.sel.Empty() {
				w.matched[objectKey(m)] = true
			}
			if rv, _ := strconv.ParseInt(m.GetResourceVersion(), 10, 64); rv > from && matches {
				w.push(watch.Event{Type: watch.Added, Object: it}, trace.SpanContext{})
			}
		}
	}
	c.watchSet(gvr).add(w)
	return true, w, nil
}

// notify sends an event to every watch of the resource that sees the
// namespace and may select the object (watchSet.recipients), with the
// cause of the request being served. The caller holds c.mu.
func (c *Cluster) notify(gvr schema.GroupVersionResource, ns string, t watch.EventType, obj runtime.Object) {
	s := c.watchSet(gvr) // also with no watch open: it follows each object's trigger value
	var fs fields.Set    // the object's selectable fields, once per event
	s.recipients(obj, t == watch.Deleted, func(w *watcher) {
		if w.ns != "" && w.ns != ns {
			return
		}
		if fs == nil && !w.sel.Empty() {
			fs = selectableFields(obj)
		}
		w.send(t, obj, fs, c.cause)
	})
}

// watchSet is the resource's set of watches, made at its first watch or
// write.
func (c *Cluster) watchSet(gvr schema.GroupVersionResource) *watchSet {
	s := c.watches[gvr]
	if s == nil {
		s = newWatchSet(gvr)
		c.watches[gvr] = s
	}
	return s
}

func alive(ws []*watcher) []*watcher {
	out := ws[:0]
	for _, w := range ws {
		if !w.stopped() {
			out = append(out, w)
		}
	}
	return out
}

// BreakWatches ends every open watch of a resource the way a restarted
// apiserver (or a compacted etcd) does: with a watch error event "410 Gone:
// too old resource version", after which the stream closes. A reflector
// then re-lists; a watch that merely closed would only be re-opened.
// It returns how many watches it broke. The error events name ctx's cause,
// if it has one (see WithCause).
func (c *Cluster) BreakWatches(ctx context.Context, gvr schema.GroupVersionResource) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.watches[gvr]
	if s == nil {
		return 0
	}
	s.prune()
	current := c.currentRV(gvr)
	cause := causeOf(ctx)
	s.each(func(w *watcher) {
		gone := apierrors.NewResourceExpired(fmt.Sprintf("too old resource version: %d (%d)", current, current+1))
		w.push(watch.Event{Type: watch.Error, Object: &gone.ErrStatus}, cause)
		w.end()
	})
	n := s.len()
	s.clear()
	return n
}

// BreakAllWatches ends every open watch of every resource with 410 Gone, as
// an apiserver that restarts does: its new watch cache starts at the
// current resource version, so a watch resumed from an older one is "too
// old" (in 1.5, storage/cacher.go: newWatchCache starts empty and
// watchCache.GetAllEventsSinceThreadUnsafe answers 410 for any version
// before its oldest). It returns how many watches broke, by resource name
// (pods, nodes, …), only resources that had an open watch.
func (c *Cluster) BreakAllWatches(ctx context.Context) map[string]int {
	c.mu.Lock()
	gvrs := make([]schema.GroupVersionResource, 0, len(c.watches))
	for gvr := range c.watches {
		gvrs = append(gvrs, gvr)
	}
	c.mu.Unlock()
	// Resource by resource in a fixed order, not the map's: the watches
	// end, and their reflectors re-list, in the same order every run.
	slices.SortFunc(gvrs, func(a, b schema.GroupVersionResource) int {
		return cmp.Or(strings.Compare(a.Group, b.Group), strings.Compare(a.Version, b.Version), strings.Compare(a.Resource, b.Resource))
	})
	broken := map[string]int{}
	for _, gvr := range gvrs {
		if n := c.BreakWatches(ctx, gvr); n > 0 {
			broken[gvr.Resource] += n
		}
	}
	return broken
}

// OpenWatches is the number of open watches of a resource.
func (c *Cluster) OpenWatches(gvr schema.GroupVersionResource) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.watches[gvr]
	if s == nil {
		return 0
	}
	s.prune()
	return s.len()
}

// watcher is one open watch.
type watcher struct {
	ns  string
	sel fields.Selector
	// matched are the keys of objects this watch has shown as matching
	// sel: an object that stops matching is sent as deleted, one that
	// starts matching as added, as the apiserver's filtered watches do.
	matched map[string]bool
	result  chan watch.Event
	wake    chan struct{} // a new event, or the end
	done    chan struct{} // closed by Stop

	mu     sync.Mutex
	queue  []watch.Event
	causes map[runtime.Object]trace.SpanContext // by event object: the spans that made queued or delivered events, until Cause takes them
	ending bool                                 // no more events: close after the queue drains
	once   sync.Once
}

func newWatcher(ns string, sel fields.Selector) *watcher {
	w := &watcher{ns: ns, sel: sel, matched: map[string]bool{}, result: make(chan watch.Event), wake: make(chan struct{}, 1), done: make(chan struct{})}
	go w.pump()
	return w
}

// send queues an event of obj as the watch's field selector shows it
// (fs: obj's selectable fields, nil if the selector is empty), made by
// the span cause (if valid). Only the apiserver's lock holder calls it.
func (w *watcher) send(t watch.EventType, obj runtime.Object, fs fields.Set, cause trace.SpanContext) {
	if !w.sel.Empty() {
		key := ""
		if m, err := meta.Accessor(obj); err == nil {
			key = objectKey(m)
		}
		was := w.matched[key]
		switch now := w.sel.Matches(fs); {
		case t == watch.Deleted:
			delete(w.matched, key)
			if !was && !now {
				return
			}
		case now && !was:
			w.matched[key] = true
			t = watch.Added
		case !now && was:
			delete(w.matched, key)
			t = watch.Deleted
		case !now:
			return
		}
	}
	w.push(watch.Event{Type: t, Object: obj.DeepCopyObject()}, cause)
}

func (w *watcher) push(ev watch.Event, cause trace.SpanContext) {
	w.mu.Lock()
	w.queue = append(w.queue, ev)
	if cause.IsValid() {
		if w.causes == nil {
			w.causes = map[runtime.Object]trace.SpanContext{}
		}
		w.causes[ev.Object] = cause // each event has an object of its own (a copy)
	}
	w.mu.Unlock()
	w.signal()
}

// Cause returns the span whose request made ev, an event this watch
// delivered, if the request had one (see WithCause); invalid otherwise.
// It answers once per event.
func (w *watcher) Cause(ev watch.Event) trace.SpanContext {
	w.mu.Lock()
	defer w.mu.Unlock()
	sc := w.causes[ev.Object]
	delete(w.causes, ev.Object)
	return sc
}

// end closes the stream once the queued events are delivered.
func (w *watcher) end() {
	w.mu.Lock()
	w.ending = true
	w.mu.Unlock()
	w.signal()
}

func (w *watcher) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *watcher) pump() {
	defer close(w.result)
	for {
		w.mu.Lock()
		if len(w.queue) == 0 {
			ending := w.ending
			w.mu.Unlock()
			if ending {
				return
			}
			select {
			case <-w.wake:
				continue
			case <-w.done:
				return
			}
		}
		ev := w.queue[0]
		w.queue[0] = watch.Event{}
		w.queue = w.queue[1:]
		w.mu.Unlock()
		select {
		case w.result <- ev:
		case <-w.done:
			return
		}
	}
}

func (w *watcher) stopped() bool {
	select {
	case <-w.done:
		return true
	default:
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ending
}

// Stop ends the watch (watch.Interface).
func (w *watcher) Stop() { w.once.Do(func() { close(w.done) }) }

// ResultChan is the stream of events (watch.Interface).
func (w *watcher) ResultChan() <-chan watch.Event { return w.result }

func objectKey(m metav1.Object) string { return m.GetNamespace() + "/" + m.GetName() }
