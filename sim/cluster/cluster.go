package cluster

import (
	"context"
	"sync"

	"go.opentelemetry.io/otel/trace"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/kubernetes/scheme"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/utils/clock"
)

// Cluster is a fake apiserver. Its Client is what components use.
type Cluster struct {
	Client *fake.Clientset

	clock  clock.PassiveClock
	object k8stesting.ReactionFunc // the storage: client-go's ObjectReaction on a tracker

	// mu guards the apiserver's state. Requests are served one at a time,
	// as etcd orders writes: resource versions are handed out and watch
	// events delivered in one order.
	mu       sync.Mutex
	rv       map[schema.GroupVersionResource]int64
	watches  map[schema.GroupVersionResource]*watchSet
	kinds    map[schema.GroupVersionResource]schema.GroupVersionKind
	seed     uint64            // of generated names and UIDs
	draws    map[string]int    // how many names or UIDs each key has drawn
	requests int               // served, for forgetRequests
	cause    trace.SpanContext // the span that made the request being served, if it said (see request)
}

// Option configures a Cluster.
type Option func(*Cluster)

// WithClock sets the clock of creation and deletion timestamps (default:
// the real clock). Pass the simulation clock, so that objects carry
// simulated times.
func WithClock(c clock.PassiveClock) Option { return func(cl *Cluster) { cl.clock = c } }

// WithSeed seeds generated names (generateName) and UIDs, so that a run is
// reproducible (default 1).
func WithSeed(seed int64) Option {
	return func(cl *Cluster) { cl.seed = uint64(seed) }
}

// New returns a cluster that holds the namespaces every apiserver starts
// with: default, kube-system and kube-public.
func New(opts ...Option) *Cluster {
	c := &Cluster{
		// The clientset's own tracker is never asked (the reactors below
		// answer every request): NewClientset would build it field-managed,
		// parsing client-go's OpenAPI models first, 80% of the CPU of a
		// short run (about 80 ms per process), for nothing.
		Client:  fake.NewSimpleClientset(),
		clock:   clock.RealClock{},
		rv:      map[schema.GroupVersionResource]int64{},
		watches: map[schema.GroupVersionResource]*watchSet{},
		draws:   map[string]int{},
	}
	WithSeed(1)(c)
	for _, o := range opts {
		o(c)
	}
	// A plain tracker: the clientset's own, field-managed one builds a REST
	// mapper of the whole scheme on every write (about 2ms each).
	c.object = k8stesting.ObjectReaction(k8stesting.NewObjectTracker(scheme.Scheme, scheme.Codecs.UniversalDecoder()))
	c.Client.PrependReactor("*", "*", c.serve)
	c.Client.PrependWatchReactor("*", c.watch)
	c.Client.Resources = served()
	for _, ns := range []string{metav1.NamespaceDefault, metav1.NamespaceSystem, metav1.NamespacePublic} {
		if _, err := c.Create(context.Background(), namespacesResource(), newNamespace(ns)); err != nil {
			panic("cluster: failed to create namespace " + ns + ": " + err.Error())
		}
	}
	return c
}

// Create stores a new object of the resource. The watch events of the
// write name ctx's cause, if it has one, as theirs (see WithCause).
func (c *Cluster) Create(ctx context.Context, gvr schema.GroupVersionResource, obj runtime.Object) (runtime.Object, error) {
	ns := namespaceOf(obj)
	return c.Client.Invokes(caused(ctx, k8stesting.NewCreateAction(gvr, ns, obj)), obj)
}

// Update replaces a stored object; its watch events name ctx's cause.
func (c *Cluster) Update(ctx context.Context, gvr schema.GroupVersionResource, obj runtime.Object) (runtime.Object, error) {
	ns := namespaceOf(obj)
	return c.Client.Invokes(caused(ctx, k8stesting.NewUpdateAction(gvr, ns, obj)), obj)
}

// Delete removes an object (or starts its graceful deletion); its watch
// events name ctx's cause.
func (c *Cluster) Delete(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) error {
	_, err := c.Client.Invokes(caused(ctx, k8stesting.NewDeleteAction(gvr, namespace, name)), nil)
	return err
}

// Get returns a stored object.
func (c *Cluster) Get(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) (runtime.Object, error) {
	return c.Client.Invokes(k8stesting.NewGetAction(gvr, namespace, name), nil)
}

// List lists a resource; kind is the object kind (the list kind is kind+"List").
func (c *Cluster) List(ctx context.Context, gvr schema.GroupVersionResource, kind schema.GroupVersionKind, namespace string, opts metav1.ListOptions) (runtime.Object, error) {
	return c.Client.Invokes(k8stesting.NewListActionWithOptions(gvr, kind, namespace, opts), nil)
}

func namespaceOf(obj runtime.Object) string {
	if m, err := meta.Accessor(obj); err == nil {
		return m.GetNamespace()
	}
	return ""
}

// Watch opens a watch of a resource.
func (c *Cluster) Watch(ctx context.Context, gvr schema.GroupVersionResource, namespace string, opts metav1.ListOptions) (watch.Interface, error) {
	return c.Client.InvokesWatch(k8stesting.NewWatchActionWithOptions(gvr, namespace, opts))
}

// Patch patches an object (types.StrategicMergePatchType, MergePatchType, JSONPatchType).
func (c *Cluster) Patch(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string, pt types.PatchType, data []byte) (runtime.Object, error) {
	return c.Client.Invokes(caused(ctx, k8stesting.NewPatchAction(gvr, namespace, name, pt, data)), nil)
}

// DeleteWithOptions deletes an object with delete options (preconditions,
// propagation policy, grace period).
func (c *Cluster) DeleteWithOptions(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string, opts metav1.DeleteOptions) error {
	_, err := c.Client.Invokes(caused(ctx, k8stesting.NewDeleteActionWithOptions(gvr, namespace, name, opts)), nil)
	return err
}

// DeleteCollection deletes every object of a resource in a namespace.
func (c *Cluster) DeleteCollection(ctx context.Context, gvr schema.GroupVersionResource, namespace string, opts metav1.DeleteOptions, list metav1.ListOptions) error {
	_, err := c.Client.Invokes(caused(ctx, k8stesting.NewDeleteCollectionActionWithOptions(gvr, namespace, opts, list)), nil)
	return err
}

// WithCause returns ctx marked with the span sc as the cause of the
// writes made with it through the Cluster's methods: their watch events name
// sc (watcher.Cause), and the informers' receive spans link to it. The
// scenario's actions pass their own span, so that a student can follow an
// action to the informers, handlers and loops that react. It is kubeloom's
// doing: a real apiserver's watch events carry no trace context, and the
// fake clientset drops the context its typed clients are given, so the
// components' own writes name nothing.
func WithCause(ctx context.Context, sc trace.SpanContext) context.Context {
	return context.WithValue(ctx, causeKey{}, sc)
}

type causeKey struct{}

// request is a write with the span that caused it (see WithCause).
type request struct {
	k8stesting.Action
	cause trace.SpanContext
}

// DeepCopy keeps the cause: the fake copies every action it serves.
func (r request) DeepCopy() k8stesting.Action {
	return request{Action: r.Action.DeepCopy(), cause: r.cause}
}

// causeOf is the span ctx names as its cause (see WithCause), or an
// invalid one.
func causeOf(ctx context.Context) trace.SpanContext {
	sc, _ := ctx.Value(causeKey{}).(trace.SpanContext)
	return sc
}

// caused wraps a write made with ctx in a request when ctx has a cause.
func caused(ctx context.Context, a k8stesting.Action) k8stesting.Action {
	if sc := causeOf(ctx); sc.IsValid() {
		return request{Action: a, cause: sc}
	}
	return a
}
