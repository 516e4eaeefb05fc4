package cluster

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// Cluster is a fake apiserver. Its Client is what components use.
type Cluster struct {
	Client *fake.Clientset

	mu      sync.Mutex
	rv      map[schema.GroupVersionResource]int64
	watches map[schema.GroupVersionResource][]breakable
}

// breakable is the fake tracker's watcher (watch.RaceFreeFakeWatcher).
type breakable interface {
	watch.Interface
	Error(runtime.Object)
	IsStopped() bool
}

// New returns an empty cluster.
func New() *Cluster {
	c := &Cluster{
		Client:  fake.NewClientset(),
		rv:      map[schema.GroupVersionResource]int64{},
		watches: map[schema.GroupVersionResource][]breakable{},
	}
	react := k8stesting.ObjectReaction(c.Client.Tracker())
	c.Client.PrependReactor("create", "*", c.versioned(react))
	c.Client.PrependReactor("update", "*", c.versioned(react))
	c.Client.PrependWatchReactor("*", c.watch)
	return c
}

// versioned stores a copy of the object with a resourceVersion, as the real
// apiserver does. The fake tracker numbers versions per resource internally
// (starting at 2) but leaves objects without one; informers need them to tell
// a real update from a re-list (sharedIndexInformer.OnUpdate compares them).
// The numbering here mirrors the tracker's, so that a watch resumed from an
// object's version starts where the tracker expects.
func (c *Cluster) versioned(react k8stesting.ReactionFunc) k8stesting.ReactionFunc {
	return func(action k8stesting.Action) (bool, runtime.Object, error) {
		if action.GetSubresource() != "" {
			return false, nil, nil
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		gvr := action.GetResource()
		next := c.rv[gvr] + 1
		if next == 1 {
			next = 2 // the tracker starts at 1 for an empty resource and bumps before storing
		}
		switch a := action.(type) {
		case k8stesting.CreateActionImpl:
			obj, err := withVersion(a.Object, next)
			if err != nil {
				return true, nil, err
			}
			a.Object = obj
			action = a
		case k8stesting.UpdateActionImpl:
			obj, err := withVersion(a.Object, next)
			if err != nil {
				return true, nil, err
			}
			a.Object = obj
			action = a
		default:
			return false, nil, nil
		}
		handled, ret, err := react(action)
		if err == nil {
			c.rv[gvr] = next
		}
		return handled, ret, err
	}
}

func withVersion(obj runtime.Object, rv int64) (runtime.Object, error) {
	obj = obj.DeepCopyObject()
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, fmt.Errorf("failed to read the object's metadata: %w", err)
	}
	m.SetResourceVersion(strconv.FormatInt(rv, 10))
	return obj, nil
}

// watch opens a tracker watch and remembers it so that BreakWatches can end it.
func (c *Cluster) watch(action k8stesting.Action) (bool, watch.Interface, error) {
	var opts metav1.ListOptions
	if wa, ok := action.(k8stesting.WatchActionImpl); ok {
		opts = wa.ListOptions
	}
	gvr := action.GetResource()
	w, err := c.Client.Tracker().Watch(gvr, action.GetNamespace(), opts)
	if err != nil {
		return true, nil, err
	}
	b, ok := w.(breakable)
	if !ok {
		w.Stop()
		return true, nil, fmt.Errorf("cluster: the fake tracker returned a %T watch, which cannot be broken", w)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.watches[gvr] = append(alive(c.watches[gvr]), b)
	return true, b, nil
}

func alive(ws []breakable) []breakable {
	out := ws[:0]
	for _, w := range ws {
		if !w.IsStopped() {
			out = append(out, w)
		}
	}
	return out
}

// BreakWatches ends every open watch of a resource the way a restarted
// apiserver (or a compacted etcd) does: with a watch error event "410 Gone:
// too old resource version", after which the stream closes. A reflector
// then re-lists; a watch that merely closed would only be re-opened.
// It returns how many watches it broke.
func (c *Cluster) BreakWatches(gvr schema.GroupVersionResource) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	ws := alive(c.watches[gvr])
	current := c.rv[gvr]
	for _, w := range ws {
		gone := apierrors.NewResourceExpired(fmt.Sprintf("too old resource version: %d (%d)", current, current+1))
		w.Error(&gone.ErrStatus)
		w.Stop()
	}
	c.watches[gvr] = nil
	return len(ws)
}

// OpenWatches is the number of open watches of a resource.
func (c *Cluster) OpenWatches(gvr schema.GroupVersionResource) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.watches[gvr] = alive(c.watches[gvr])
	return len(c.watches[gvr])
}

// Create stores a new object of the resource.
func (c *Cluster) Create(ctx context.Context, gvr schema.GroupVersionResource, obj runtime.Object) (runtime.Object, error) {
	ns := namespaceOf(obj)
	return c.Client.Invokes(k8stesting.NewCreateAction(gvr, ns, obj), obj)
}

// Update replaces a stored object.
func (c *Cluster) Update(ctx context.Context, gvr schema.GroupVersionResource, obj runtime.Object) (runtime.Object, error) {
	ns := namespaceOf(obj)
	return c.Client.Invokes(k8stesting.NewUpdateAction(gvr, ns, obj), obj)
}

// Delete removes an object.
func (c *Cluster) Delete(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) error {
	_, err := c.Client.Invokes(k8stesting.NewDeleteAction(gvr, namespace, name), nil)
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

// Watch opens a watch of a resource.
func (c *Cluster) Watch(ctx context.Context, gvr schema.GroupVersionResource, namespace string, opts metav1.ListOptions) (watch.Interface, error) {
	return c.Client.InvokesWatch(k8stesting.NewWatchActionWithOptions(gvr, namespace, opts))
}

func namespaceOf(obj runtime.Object) string {
	if m, err := meta.Accessor(obj); err == nil {
		return m.GetNamespace()
	}
	return ""
}
