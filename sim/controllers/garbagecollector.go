package controllers

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
)

// ignoredByGC reports whether the garbage collector watches no objects of
// a resource (v1.5's ignoredResources, where kubeloom serves them).
func ignoredByGC(resource string) bool { return resource == "events" }

// GarbageCollector (pkg/controller/garbagecollector, v1.5): one "monitor" —
// a private informer that never resyncs — per deletable resource the
// apiserver serves; a propagator that turns their events into a graph of
// owners and dependents (ownerReferences); and --concurrent-gc-syncs (20)
// workers that delete an object once none of its owners exists, plus as
// many orphan finalizers that strip the owner references of an owner
// deleted with the orphan policy.
func startGarbageCollector(ctx context.Context, c *Context) string {
	if !c.Config.EnableGarbageCollector {
		return "--enable-garbage-collector is false"
	}
	lists, err := c.Resources()
	if err != nil {
		return "Failed to get supported resources from server: " + err.Error()
	}
	gc := &garbageCollector{c: c, kinds: map[schema.GroupKind]schema.GroupVersionResource{}, namespaced: map[schema.GroupVersionResource]bool{}, nodes: map[types.UID]*gcNode{}, absent: map[types.UID]bool{},
		events:  workqueue.NewTyped[*gcEvent](),
		dirty:   workqueue.NewTyped[*gcNode](),
		orphans: workqueue.NewTyped[*gcNode](),
	}
	for _, list := range lists {
		gv, _ := schema.ParseGroupVersion(list.GroupVersion)
		for _, r := range list.APIResources {
			gvr := gv.WithResource(r.Name)
			gc.kinds[gv.WithKind(r.Kind).GroupKind()] = gvr
			gc.namespaced[gvr] = r.Namespaced
			if !slices.Contains(r.Verbs, "delete") || ignoredByGC(r.Name) {
				continue
			}
			inf, err := informer.New(informer.Config{Name: "gc-" + r.Name, Resource: gvr, Kind: gv.WithKind(r.Kind), Era: c.Era, Source: c.API, Mode: informer.Private})
			if err != nil {
				continue // a kind the simulation cannot decode is not monitored
			}
			gvk := gv.WithKind(r.Kind)
			push := func(t gcEventType) func(ctx context.Context, obj any) {
				return func(ctx context.Context, obj any) {
					if m, err := meta.Accessor(untomb(obj)); err == nil {
						gc.events.Add(&gcEvent{typ: t, obj: m, gvk: gvk, cause: trace.SpanContextFromContext(ctx)})
					}
				}
			}
			update := push(gcUpdate)
			inf.AddHandler(ctx, informer.Funcs{HandlerName: "garbage-collector", Add: push(gcAdd), Delete: push(gcDelete),
				Update: func(ctx context.Context, _, cur any) { update(ctx, cur) }})
			gc.monitors = append(gc.monitors, inf)
		}
	}
	workers := int(c.Config.ConcurrentGCSyncs)
	rt := goroutine.RuntimeFrom(ctx)
	rt.Go(ctx, "controller/garbagecollector/run", func(ctx context.Context) {
		for _, q := range []interface{ ShutDown() }{gc.events, gc.dirty, gc.orphans} {
			context.AfterFunc(ctx, q.ShutDown)
		}
		for _, m := range gc.monitors {
			m.Run(ctx) // go monitor.controller.Run(stopCh)
		}
		if !gc.waitForMonitors(ctx) {
			return
		}
		rt.Until(ctx, "controller/garbagecollector/propagator", 0, gc.processEvent, goroutine.WithIterationName("processEvent"))
		for i := range workers {
			rt.Until(ctx, "controller/garbagecollector/worker", 0, gc.worker, goroutine.WithIterationName("worker"),
				goroutine.WithAttributes(attribute.Int(catalog.AttrWorker, i+1)))
			rt.Until(ctx, "controller/garbagecollector/orphan-finalizer", 0, gc.orphanFinalizer, goroutine.WithIterationName("orphanFinalizer"),
				goroutine.WithAttributes(attribute.Int(catalog.AttrWorker, i+1)))
		}
		<-ctx.Done()
	}, goroutine.WithAttributes(attribute.Int("gc.monitors", len(gc.monitors))))
	return ""
}

type gcEventType int

const (
	gcAdd gcEventType = iota
	gcUpdate
	gcDelete
)

type gcEvent struct {
	typ   gcEventType
	obj   metav1.Object
	gvk   schema.GroupVersionKind
	cause trace.SpanContext
}

// gcNode is an object in the dependency graph.
type gcNode struct {
	ref        metav1.OwnerReference // its own identity (apiVersion, kind, name, uid)
	namespace  string
	owners     []metav1.OwnerReference
	dependents map[*gcNode]bool
	virtual    bool // an owner named by a dependent, not seen by any monitor
}

type garbageCollector struct {
	c          *Context
	kinds      map[schema.GroupKind]schema.GroupVersionResource // from discovery
	namespaced map[schema.GroupVersionResource]bool             // from discovery
	monitors   []*informer.Informer
	events     workqueue.TypedInterface[*gcEvent]
	dirty      workqueue.TypedInterface[*gcNode]
	orphans    workqueue.TypedInterface[*gcNode]

	mu     sync.Mutex
	nodes  map[types.UID]*gcNode // uidToNode
	absent map[types.UID]bool    // absentOwnerCache
}

// waitForMonitors waits until every monitor has synced.
//
//   - Classic: v1.5's GarbageCollector.Run, on the Run goroutine:
//     wait.PollInfinite(10*time.Second, func() (bool, error) { … HasSynced … })
//     — a poller goroutine (controller/garbagecollector/monitor-sync-poller)
//     ticks every 10s and the condition is checked here at each tick, the
//     first 10s in, logging "Waiting for resource monitors to be synced..."
//     while one has not.
//   - Modern: cache.WaitForNamedCacheSync("garbage collector", …), today's
//     WaitForCacheSync (a check at once, then every 100ms).
func (gc *garbageCollector) waitForMonitors(ctx context.Context) bool {
	synced := func() bool {
		for _, m := range gc.monitors {
			if !m.HasSynced() {
				return false
			}
		}
		return true
	}
	if gc.c.Era == informer.Modern {
		return informer.WaitForCacheSync(ctx, gc.c.Era, "garbage collector", synced)
	}
	ctx, sp := goroutine.Start(ctx, "PollInfinite", trace.WithAttributes(attribute.String("condition", "all resource monitors synced")))
	defer sp.End()
	err := goroutine.PollInfinite(ctx, "controller/garbagecollector/monitor-sync-poller", 10*time.Second, func(ctx context.Context) bool {
		if synced() {
			goroutine.SpanFrom(ctx).AddEvent("Garbage Collector: All monitored resources synced. Proceeding to collect garbage")
			return true
		}
		goroutine.SpanFrom(ctx).AddEvent("Garbage Collector: Waiting for resource monitors to be synced...")
		return false
	})
	return err == nil
}

// processEvent keeps the graph: one monitor event per call.
func (gc *garbageCollector) processEvent(ctx context.Context) {
	ev, quit := gc.events.Get()
	if quit {
		return
	}
	defer gc.events.Done(ev)
	sp := goroutine.SpanFrom(ctx)
	key := ev.obj.GetNamespace() + "/" + ev.obj.GetName()
	if ev.cause.IsValid() {
		sp.AddLink(goroutine.Cause(ev.cause, key))
	}
	sp.SetAttributes(attribute.String(catalog.AttrObjectKey, key), attribute.String("k8s.kind", ev.gvk.Kind))
	gc.mu.Lock()
	defer gc.mu.Unlock()
	uid := ev.obj.GetUID()
	n, known := gc.nodes[uid]
	switch {
	case ev.typ == gcDelete:
		if !known {
			return
		}
		gc.unlink(n, n.owners)
		delete(gc.nodes, uid)
		if len(n.dependents) > 0 {
			gc.absent[uid] = true
			// In byRef order, not map order: so that a run repeats.
			deps := slices.SortedFunc(maps.Keys(n.dependents), func(a, b *gcNode) int { return byRef(a.ref, a.namespace, b.ref, b.namespace) })
			for _, d := range deps {
				gc.dirty.Add(d)
			}
			sp.AddEvent("owner deleted: dependents queued", attribute.Int("dependents", len(n.dependents)))
		}
	case !known || n.virtual:
		if !known {
			n = &gcNode{dependents: map[*gcNode]bool{}}
			gc.nodes[uid] = n
		}
		n.ref = metav1.OwnerReference{APIVersion: ev.gvk.GroupVersion().String(), Kind: ev.gvk.Kind, Name: ev.obj.GetName(), UID: uid}
		n.namespace, n.owners, n.virtual = ev.obj.GetNamespace(), ev.obj.GetOwnerReferences(), false
		gc.link(ctx, n, n.owners)
	default:
		added, removed := diffOwners(n.owners, ev.obj.GetOwnerReferences())
		gc.unlink(n, removed)
		gc.link(ctx, n, added)
		n.owners = ev.obj.GetOwnerReferences()
	}
	if ev.typ != gcDelete && ev.obj.GetDeletionTimestamp() != nil && slices.Contains(ev.obj.GetFinalizers(), metav1.FinalizerOrphanDependents) {
		gc.orphans.Add(n)
	}
}

// link adds n as a dependent of owners; an owner never seen becomes a
// virtual node, queued for a worker to check that it exists.
func (gc *garbageCollector) link(ctx context.Context, n *gcNode, owners []metav1.OwnerReference) {
	for _, o := range owners {
		on, ok := gc.nodes[o.UID]
		if !ok {
			on = &gcNode{ref: o, namespace: n.namespace, dependents: map[*gcNode]bool{}, virtual: true}
			gc.nodes[o.UID] = on
			gc.dirty.Add(on)
		}
		on.dependents[n] = true
	}
}

func (gc *garbageCollector) unlink(n *gcNode, owners []metav1.OwnerReference) {
	for _, o := range owners {
		if on, ok := gc.nodes[o.UID]; ok {
			delete(on.dependents, n)
		}
	}
}

func diffOwners(old, cur []metav1.OwnerReference) (added, removed []metav1.OwnerReference) {
	has := func(list []metav1.OwnerReference, uid types.UID) bool {
		for _, r := range list {
			if r.UID == uid {
				return true
			}
		}
		return false
	}
	for _, r := range cur {
		if !has(old, r.UID) {
			added = append(added, r)
		}
	}
	for _, r := range old {
		if !has(cur, r.UID) {
			removed = append(removed, r)
		}
	}
	return added, removed
}

// worker processes one dirty node per call (processItem).
func (gc *garbageCollector) worker(ctx context.Context) {
	n, quit := gc.dirty.Get()
	if quit {
		return
	}
	defer gc.dirty.Done(n)
	gc.processItem(ctx, n)
}

// processItem deletes the object if none of its owners exists any more.
func (gc *garbageCollector) processItem(ctx context.Context, n *gcNode) {
	gc.mu.Lock()
	ref, ns := n.ref, n.namespace // the propagator may fill in a virtual node meanwhile
	gc.mu.Unlock()
	ctx, sp := goroutine.Start(ctx, "processItem", trace.WithAttributes(attribute.String(catalog.AttrObjectKey, ns+"/"+ref.Name), attribute.String("k8s.kind", ref.Kind)))
	defer sp.End()
	obj, err := gc.get(ctx, ref, ns)
	if apierrors.IsNotFound(err) || err == nil && accessor(obj).GetUID() != ref.UID {
		// The object is gone: a virtual delete event tells the propagator.
		gc.events.Add(&gcEvent{typ: gcDelete, obj: &metav1.ObjectMeta{Name: ref.Name, Namespace: ns, UID: ref.UID},
			gvk: schema.FromAPIVersionAndKind(ref.APIVersion, ref.Kind), cause: sp.SpanContext()})
		return
	} else if err != nil {
		return
	}
	owners := accessor(obj).GetOwnerReferences()
	if len(owners) == 0 {
		return
	}
	for _, o := range owners {
		gc.mu.Lock()
		gone := gc.absent[o.UID]
		gc.mu.Unlock()
		if gone {
			continue
		}
		owner, err := gc.get(ctx, o, ns)
		if err == nil && accessor(owner).GetUID() == o.UID {
			return // an owner exists: keep the object
		}
		if err == nil || apierrors.IsNotFound(err) {
			gc.mu.Lock()
			gc.absent[o.UID] = true
			gc.mu.Unlock()
		}
	}
	sp.AddEvent("none of the object's owners exist any more, will garbage collect it")
	gvr, ok := gc.resource(ref)
	if !ok {
		return
	}
	uid := ref.UID
	do(ctx, gvr.Resource+".Delete", ns+"/"+ref.Name, func(ctx context.Context) error {
		return gc.c.API.DeleteWithOptions(ctx, gvr, ns, ref.Name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}})
	})
}

// orphanFinalizer handles one owner deleted with the orphan policy: it
// removes the owner from its dependents' ownerReferences, then its
// "orphan" finalizer, which lets the apiserver delete it.
func (gc *garbageCollector) orphanFinalizer(ctx context.Context) {
	n, quit := gc.orphans.Get()
	if quit {
		return
	}
	defer gc.orphans.Done(n)
	type dep struct {
		ref metav1.OwnerReference
		ns  string
	}
	gc.mu.Lock()
	owner := dep{n.ref, n.namespace}
	deps := make([]dep, 0, len(n.dependents))
	for d := range n.dependents {
		deps = append(deps, dep{d.ref, d.namespace})
	}
	gc.mu.Unlock()
	sort.Slice(deps, func(i, j int) bool { return byRef(deps[i].ref, deps[i].ns, deps[j].ref, deps[j].ns) < 0 })
	for _, d := range deps {
		gvr, ok := gc.resource(d.ref)
		if !ok {
			continue
		}
		patch := fmt.Sprintf(`{"metadata":{"ownerReferences":[{"$patch":"delete","uid":"%s"}],"uid":"%s"}}`, owner.ref.UID, d.ref.UID)
		if _, err := call(ctx, gvr.Resource+".Patch", d.ns+"/"+d.ref.Name, func(ctx context.Context) (runtime.Object, error) {
			return gc.c.API.Patch(ctx, gvr, d.ns, d.ref.Name, types.StrategicMergePatchType, []byte(patch))
		}); err != nil && !apierrors.IsNotFound(err) {
			return // the owner's next update brings it back
		}
	}
	gvr, ok := gc.resource(owner.ref)
	if !ok {
		return
	}
	obj, err := gc.get(ctx, owner.ref, owner.ns)
	if err != nil {
		return
	}
	obj = obj.DeepCopyObject()
	m := accessor(obj)
	var keep []string
	for _, f := range m.GetFinalizers() {
		if f != metav1.FinalizerOrphanDependents {
			keep = append(keep, f)
		}
	}
	m.SetFinalizers(keep)
	call(ctx, gvr.Resource+".Update", owner.ns+"/"+owner.ref.Name, func(ctx context.Context) (runtime.Object, error) {
		return gc.c.API.Update(ctx, gvr, obj)
	})
}

// byRef orders graph nodes by name, then namespace, kind and UID: a node's
// dependents are a set (a map, in v1.5 too), and the collector acts on them
// in this order, not the map's, so that a run repeats.
func byRef(a metav1.OwnerReference, aNamespace string, b metav1.OwnerReference, bNamespace string) int {
	return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(aNamespace, bNamespace),
		strings.Compare(a.Kind, b.Kind), strings.Compare(string(a.UID), string(b.UID)))
}

func (gc *garbageCollector) resource(ref metav1.OwnerReference) (schema.GroupVersionResource, bool) {
	gv, _ := schema.ParseGroupVersion(ref.APIVersion)
	gvr, ok := gc.kinds[gv.WithKind(ref.Kind).GroupKind()]
	return gvr, ok
}

// get reads an object by its reference through the apiserver; a
// cluster-scoped kind ignores the namespace.
func (gc *garbageCollector) get(ctx context.Context, ref metav1.OwnerReference, ns string) (runtime.Object, error) {
	gvr, ok := gc.resource(ref)
	if !ok {
		return nil, apierrors.NewNotFound(schema.GroupResource{Resource: ref.Kind}, ref.Name)
	}
	if !gc.namespaced[gvr] {
		ns = ""
	}
	return call(ctx, gvr.Resource+".Get", ns+"/"+ref.Name, func(ctx context.Context) (runtime.Object, error) {
		return gc.c.API.Get(ctx, gvr, ns, ref.Name)
	})
}
