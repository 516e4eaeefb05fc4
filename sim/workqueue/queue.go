package workqueue

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	k8sworkqueue "k8s.io/client-go/util/workqueue"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// Queue is a controller's workqueue:
// workqueue.NewNamedRateLimitingQueue(workqueue.DefaultControllerRateLimiter(), name),
// on the simulation clock, shut down when ctx ends. It remembers the span
// that added each key, so the sync of the key links back to it.
type Queue struct {
	name string
	q    k8sworkqueue.TypedRateLimitingInterface[string]

	mu     sync.Mutex
	causes map[string][]trace.SpanContext
}

// New returns the named queue of a controller; it shuts down when ctx ends.
func New(ctx context.Context, name string) *Queue {
	clk := goroutine.RuntimeFrom(ctx).Clock()
	q := &Queue{
		name: name,
		q: k8sworkqueue.NewTypedRateLimitingQueueWithConfig(k8sworkqueue.DefaultTypedControllerRateLimiter[string](),
			k8sworkqueue.TypedRateLimitingQueueConfig[string]{Name: name, Clock: clk}),
		causes: map[string][]trace.SpanContext{},
	}
	context.AfterFunc(ctx, q.q.ShutDown)
	return q
}

// Add enqueues a key; ctx's span is the cause of its next sync and gets an
// event saying so.
func (q *Queue) Add(ctx context.Context, key string) {
	q.remember(ctx, key, "workqueue.Add")
	q.q.Add(key)
}

// AddAfter enqueues a key once d (simulated) has passed.
func (q *Queue) AddAfter(ctx context.Context, key string, d time.Duration) {
	q.remember(ctx, key, "workqueue.AddAfter", attribute.Float64("delay_s", d.Seconds()))
	q.q.AddAfter(key, d)
}

func (q *Queue) remember(ctx context.Context, key, what string, extra ...attribute.KeyValue) {
	sp := goroutine.SpanFrom(ctx)
	sp.AddEvent(what, append([]attribute.KeyValue{attribute.String("workqueue.name", q.name), attribute.String(catalog.AttrObjectKey, key)}, extra...)...)
	if sc := sp.SpanContext(); sc.IsValid() {
		q.mu.Lock()
		if len(q.causes[key]) < 8 { // a hot key keeps its first causes; they are enough to follow
			q.causes[key] = append(q.causes[key], sc)
		}
		q.mu.Unlock()
	}
}

func (q *Queue) takeCauses(key string) []trace.Link {
	q.mu.Lock()
	defer q.mu.Unlock()
	scs := q.causes[key]
	delete(q.causes, key)
	links := make([]trace.Link, 0, len(scs))
	for _, sc := range scs {
		links = append(links, goroutine.Cause(sc, key))
	}
	return links
}

// Sync processes one key; a non-nil error requeues it with backoff.
type Sync func(ctx context.Context, key string) error

// ProcessNext is processNextWorkItem: take one key (waiting for one), sync
// it inside a span named syncName linked to whatever enqueued it, and
// Forget it or requeue it rate-limited. It returns false once the queue has
// shut down.
func (q *Queue) ProcessNext(ctx context.Context, syncName string, sync Sync) bool {
	key, quit := q.q.Get()
	if quit {
		return false
	}
	defer q.q.Done(key)
	// Workers woken at one instant (by one event, in several controllers)
	// sync in an order of their own, not the scheduler's: each sync writes
	// to the apiserver, and which of two writes of one object comes first
	// decides which one conflicts.
	rt := goroutine.RuntimeFrom(ctx)
	clock.TakeTurn(rt.Clock(), rt.Instance()+" "+q.name+" "+key)
	sctx, sp := goroutine.Start(ctx, syncName, trace.WithLinks(q.takeCauses(key)...),
		trace.WithAttributes(attribute.String(catalog.AttrObjectKey, key), attribute.String("workqueue.name", q.name)))
	defer sp.End()
	err := sync(sctx, key)
	var later RetryAfter
	if errors.As(err, &later) {
		sp.SetAttributes(attribute.String("requeue", later.Error()))
		q.q.Forget(key)
		q.AddAfter(sctx, key, later.After) // the retry is linked to this sync
		return true
	}
	if err != nil {
		sp.RecordError(err)
		sp.SetAttributes(attribute.String("error", err.Error()), attribute.Int("workqueue.requeues", q.q.NumRequeues(key)+1))
		q.remember(sctx, key, "workqueue.AddRateLimited") // the retry is linked to this sync
		q.q.AddRateLimited(key)
		return true
	}
	q.q.Forget(key)
	return true
}

// RetryAfter is a sync result that is not a failure: try the key again
// after a while (the namespace controller's contentRemainingError).
type RetryAfter struct {
	After  time.Duration
	Reason string
}

func (r RetryAfter) Error() string { return fmt.Sprintf("%s, retrying in %s", r.Reason, r.After) }

// Workers starts n workers named name, each `go wait.Until(worker,
// time.Second, stopCh)` where worker loops on ProcessNext until the queue
// shuts down — the shape of every v1.5 controller's Run.
func (q *Queue) Workers(ctx context.Context, name string, n int, syncName string, sync Sync, opts ...goroutine.Option) {
	rt := goroutine.RuntimeFrom(ctx)
	opts = append([]goroutine.Option{goroutine.WithIterationName("worker"), goroutine.WithAttributes(attribute.String("workqueue.name", q.name))}, opts...)
	for i := 0; i < n; i++ {
		rt.Until(ctx, name, time.Second, func(ctx context.Context) {
			for q.ProcessNext(ctx, syncName, sync) {
			}
		}, append(opts, goroutine.WithAttributes(attribute.Int(catalog.AttrWorker, i+1)))...)
	}
}
