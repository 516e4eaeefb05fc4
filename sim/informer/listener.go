package informer

import (
	"context"
	"slices"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

type kind int

const (
	add kind = iota
	update
	del
)

func (k kind) call() string {
	switch k {
	case add:
		return "OnAdd"
	case update:
		return "OnUpdate"
	}
	return "OnDelete"
}

// notification is client-go's addNotification/updateNotification/
// deleteNotification, plus the span that caused it.
type notification struct {
	kind            kind
	oldObj, newObj  any
	key             string
	isInInitialList bool
	resync          bool              // an update with an unchanged resourceVersion
	cause           trace.SpanContext // HandleDeltas, then the listener's pop
}

// processor is sharedProcessor: the listeners of one informer.
type processor struct {
	inf *Informer

	mu        sync.RWMutex
	listeners []*listener
	ctx       context.Context // set by run; listeners added later start under it
	stopped   bool
}

// listener is processorListener: an unbounded buffer between the process
// loop (which must never block on a slow handler) and the handler.
type listener struct {
	handler Handler
	name    string // the informer's and the handler's, for its turns
	attrs   []attribute.KeyValue
	addCh   chan notification
	nextCh  chan notification
	pending buffer

	resyncPeriod time.Duration
	nextResync   time.Time
	resyncDue    bool // guarded by processor.mu (shouldResync holds the write lock)
}

// AddHandler registers a handler. Before Run it is one of the handlers
// sharedProcessor.run starts; after Run it is started at once and first
// given an add for every cached object (sharedIndexInformer.AddEventHandler).
//
// A private informer's handlers are fixed when it is built
// (cache.NewInformer takes them): add them before Run.
func (inf *Informer) AddHandler(ctx context.Context, h Handler) {
	switch inf.cfg.Mode {
	case Private:
		if inf.started.Load() {
			panic("informer: a private informer's handlers are given before Run (" + inf.cfg.Name + ")")
		}
		inf.direct = append(inf.direct, h)
		return
	case ReflectorOnly:
		panic("informer: a bare reflector has no handlers (" + inf.cfg.Name + ")")
	}
	p := inf.proc
	l := &listener{
		handler:      h,
		name:         inf.cfg.Name + " " + h.Name(),
		attrs:        append(append([]attribute.KeyValue{}, inf.attrs...), attribute.String(catalog.AttrHandler, h.Name())),
		addCh:        make(chan notification),
		nextCh:       make(chan notification),
		resyncPeriod: inf.cfg.Resync,
	}
	p.mu.Lock()
	started := p.ctx != nil
	if !started {
		p.listeners = append(p.listeners, l)
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()

	// blockDeltas: no delta is handled while the cache is replayed.
	inf.deltaMu.Lock()
	defer inf.deltaMu.Unlock()
	ctx, sp := goroutine.Start(ctx, "AddEventHandler", trace.WithAttributes(l.attrs...))
	defer sp.End()
	// Held while replaying, so that stop cannot close addCh under us; the
	// new pop goroutine reads addCh without any lock.
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	p.listeners = append(p.listeners, l)
	l.nextResync = goroutine.RuntimeFrom(ctx).Clock().Now().Add(l.resyncPeriod)
	l.start(ctx, true)
	// In key order, not the indexer's map order, so that a run repeats.
	keys := inf.indexer.ListKeys()
	slices.Sort(keys)
	for _, key := range keys {
		obj, ok, _ := inf.indexer.GetByKey(key)
		if !ok {
			continue
		}
		l.addCh <- notification{kind: add, newObj: obj, key: key, isInInitialList: true, cause: sp.SpanContext()}
	}
}

// run is sharedProcessor.run: start every listener's run and pop goroutines,
// and close their channels when the informer stops.
func (p *processor) run(ctx context.Context) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ctx = ctx
	now := goroutine.RuntimeFrom(ctx).Clock().Now()
	for _, l := range p.listeners {
		l.nextResync = now.Add(l.resyncPeriod)
		l.start(ctx, false)
	}
	context.AfterFunc(ctx, p.stop)
}

func (p *processor) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopped = true
	for _, l := range p.listeners {
		close(l.addCh)
	}
}

// distribute hands a notification to every listener (or, when onlyDue, to
// the listeners due for a resync). addCh is always being read by pop, so this
// never waits for a handler.
func (p *processor) distribute(ctx context.Context, n notification, onlyDue bool) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.stopped {
		return
	}
	sent := 0
	for _, l := range p.listeners {
		if onlyDue && !l.resyncDue {
			continue
		}
		l.addCh <- n
		sent++
	}
	goroutine.SpanFrom(ctx).AddEvent("distribute",
		attribute.String("notification", n.kind.call()), attribute.Bool(catalog.AttrResync, n.resync), attribute.Int("listeners", sent))
}

// shouldResync marks the listeners whose resync period has come and
// reports how many there are (sharedProcessor.shouldResync).
func (p *processor) shouldResync(now time.Time) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	due := 0
	for _, l := range p.listeners {
		l.resyncDue = false
		if l.resyncPeriod > 0 && !now.Before(l.nextResync) {
			l.resyncDue = true
			l.nextResync = now.Add(l.resyncPeriod)
			due++
		}
	}
	return due
}

func (l *listener) start(ctx context.Context, late bool) {
	rt := goroutine.RuntimeFrom(ctx)
	attrs := l.attrs
	if late {
		attrs = append(append([]attribute.KeyValue{}, attrs...), attribute.Bool("informer.late_join", true))
	}
	rt.Go(ctx, "informer/listener-run", l.run, goroutine.WithAttributes(attrs...))
	rt.Go(ctx, "informer/listener-pop", l.pop, goroutine.WithAttributes(attrs...))
}

// pop is processorListener.pop: keep one notification ready for run, buffer
// the rest, never block the sender.
func (l *listener) pop(ctx context.Context) {
	defer close(l.nextCh)
	var nextCh chan<- notification // nil while there is nothing to hand over
	var head notification
	var headSpan goroutine.Span
	ready := func(n notification) {
		_, headSpan = goroutine.Iterate(ctx, "pop", trace.WithLinks(goroutine.Cause(n.cause, n.key)),
			trace.WithAttributes(attribute.String(catalog.AttrObjectKey, n.key),
				attribute.String("notification", n.kind.call()), attribute.Int("pending", l.pending.len())))
		n.cause = headSpan.SpanContext()
		head, nextCh = n, l.nextCh
	}
	handedOver := func() {
		headSpan.End()
		if n, ok := l.pending.pop(); ok {
			ready(n)
		} else {
			nextCh = nil
		}
	}
	for {
		// When run is waiting for the head and a notification is arriving
		// too, client-go's select picks one at random, and which it picks
		// decides whether the notification is buffered. kubeloom hands the
		// head over first, one of the two outcomes, so that a run repeats.
		if nextCh != nil {
			select {
			case nextCh <- head:
				handedOver()
				continue
			default:
			}
		}
		select {
		case nextCh <- head:
			handedOver()
		case n, ok := <-l.addCh:
			if !ok {
				if nextCh != nil {
					headSpan.End()
				}
				return
			}
			if nextCh == nil {
				ready(n)
			} else {
				// run has not taken the head yet: buffer the rest
				// (pendingNotifications.WriteOne), on the head's span, so
				// that a slow or stuck handler shows as a growing buffer.
				l.pending.push(n)
				headSpan.AddEvent("buffered", attribute.String(catalog.AttrObjectKey, n.key),
					attribute.String("notification", n.kind.call()), attribute.Int("pending", l.pending.len()))
			}
		}
	}
}

// run is processorListener.run: call the handler for each notification;
// each call is an iteration of the goroutine.
//
// Handlers called at one instant (one watch event reaches every informer
// of its resource) take turns in an order of their own, not the
// scheduler's: what a handler enqueues, and whether a worker has taken the
// key already, depends on which runs first.
func (l *listener) run(ctx context.Context) {
	rt := goroutine.RuntimeFrom(ctx)
	for n := range l.nextCh {
		clock.TakeTurn(rt.Clock(), rt.Instance()+" "+l.name+" "+n.key)
		callHandler(ctx, l.handler, n, goroutine.Iterate) // the goroutine's attributes name the handler
	}
}

// callHandler calls the handler for one notification inside a span named
// OnAdd, OnUpdate or OnDelete, linked to what caused it; start makes the
// span (an iteration of listener-run, or a child span of HandleDeltas for
// a private informer), extra adds attributes.
func callHandler(ctx context.Context, h Handler, n notification, start func(context.Context, string, ...trace.SpanStartOption) (context.Context, goroutine.Span), extra ...attribute.KeyValue) {
	attrs := append([]attribute.KeyValue{attribute.String(catalog.AttrObjectKey, n.key)}, extra...)
	switch n.kind {
	case add:
		attrs = append(attrs, attribute.Bool("isInInitialList", n.isInInitialList))
	case update:
		attrs = append(attrs, attribute.Bool(catalog.AttrResync, n.resync))
	}
	hctx, sp := start(ctx, n.kind.call(), trace.WithLinks(goroutine.Cause(n.cause, n.key)), trace.WithAttributes(attrs...))
	defer sp.End()
	switch n.kind {
	case add:
		h.OnAdd(hctx, n.newObj, n.isInInitialList)
	case update:
		h.OnUpdate(hctx, n.oldObj, n.newObj)
	case del:
		h.OnDelete(hctx, n.oldObj)
	}
}

// buffer is the unbounded FIFO of pending notifications (a growing ring
// buffer in client-go today, a slice in v1.5).
type buffer struct {
	items []notification
	head  int
}

func (b *buffer) len() int { return len(b.items) - b.head }

func (b *buffer) push(n notification) {
	if b.head > 0 && b.head == len(b.items) {
		b.items, b.head = b.items[:0], 0
	}
	b.items = append(b.items, n)
}

func (b *buffer) pop() (notification, bool) {
	if b.head == len(b.items) {
		return notification{}, false
	}
	n := b.items[b.head]
	b.items[b.head] = notification{}
	b.head++
	return n, true
}
