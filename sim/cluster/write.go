package cluster

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"time"

	"go.opentelemetry.io/otel/trace"
	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/scheme"
	k8stesting "k8s.io/client-go/testing"
)

// serve is the apiserver in front of the storage. Writes get what a real
// apiserver gives them (metadata, resource versions, admission, finalizers,
// subresource semantics) and are fanned out to the watches; reads go to
// the storage, with the list's resourceVersion taken from this apiserver's
// own counter.
func (c *Cluster) serve(action k8stesting.Action) (bool, runtime.Object, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.forgetRequests()
	if r, ok := action.(request); ok {
		action, c.cause = r.Action, r.cause
		defer func() { c.cause = trace.SpanContext{} }()
	}
	switch a := action.(type) {
	case k8stesting.CreateActionImpl:
		return c.create(a)
	case k8stesting.UpdateActionImpl:
		obj, err := c.update(a.GetResource(), a.GetNamespace(), a.GetSubresource(), a.GetObject())
		return true, obj, err
	case k8stesting.DeleteActionImpl:
		return true, nil, c.delete(a.GetResource(), a.GetNamespace(), a.GetName(), a.DeleteOptions)
	case k8stesting.DeleteCollectionActionImpl:
		return true, nil, c.deleteCollection(a)
	case k8stesting.PatchActionImpl:
		obj, err := c.patch(a)
		return true, obj, err
	case k8stesting.GetActionImpl:
		if a.GetSubresource() == "scale" {
			obj, err := c.getScale(a.GetResource(), a.GetNamespace(), a.GetName())
			return true, obj, err
		}
		return c.object(a)
	case k8stesting.ListActionImpl:
		_, list, err := c.object(a)
		if err == nil {
			err = filterList(list, a.GetListRestrictions().Fields)
		}
		if err == nil {
			if lm, lerr := meta.ListAccessor(list); lerr == nil {
				lm.SetResourceVersion(strconv.FormatInt(c.currentRV(a.GetResource()), 10))
			}
		}
		return true, list, err
	}
	return false, nil, nil
}

func (c *Cluster) create(a k8stesting.CreateActionImpl) (bool, runtime.Object, error) {
	gvr, ns := a.GetResource(), a.GetNamespace()
	switch a.GetSubresource() {
	case "":
	case "binding":
		obj, err := c.bind(ns, a.GetObject())
		return true, obj, err
	case "finalize": // the fake sends Namespaces().Finalize as a create
		obj, err := c.update(gvr, ns, "finalize", a.GetObject())
		return true, obj, err
	default:
		return false, nil, nil
	}
	obj := a.GetObject().DeepCopyObject()
	m, err := meta.Accessor(obj)
	if err != nil {
		return true, nil, err
	}
	gk := c.kindOf(gvr, obj).GroupKind()
	if ns != "" {
		if err := c.admitNamespace(gvr.GroupResource(), ns, m.GetName()); err != nil {
			return true, nil, err
		}
	}
	if m.GetName() == "" {
		if m.GetGenerateName() == "" {
			return true, nil, apierrors.NewInvalid(gk, "", field.ErrorList{
				field.Required(field.NewPath("metadata", "name"), "name or generateName is required")})
		}
		m.SetName(c.generateName(gvr, ns, m.GetGenerateName()))
	}
	if m.GetUID() == "" {
		m.SetUID(c.newUID(gvr, ns, m.GetName()))
	}
	m.SetCreationTimestamp(c.now())
	m.SetDeletionTimestamp(nil)
	m.SetGeneration(1)
	setDefaults(obj)
	ret, err := c.write(k8stesting.NewCreateAction(gvr, ns, obj), gvr, obj, watch.Added)
	return true, ret, err
}

// update applies an update to the stored object the way the apiserver's
// generic registry does: an update naming a resourceVersion must name the
// current one (optimistic concurrency); system metadata cannot be changed;
// the main resource ignores status and the status subresource ignores
// everything else; a spec change bumps the generation; and a deleting
// object whose last finalizer is removed is deleted.
func (c *Cluster) update(gvr schema.GroupVersionResource, ns, sub string, upd runtime.Object) (runtime.Object, error) {
	m, err := meta.Accessor(upd)
	if err != nil {
		return nil, err
	}
	old, err := c.get(gvr, ns, m.GetName())
	if err != nil {
		return nil, err
	}
	om, _ := meta.Accessor(old)
	if rv := m.GetResourceVersion(); rv != "" && rv != om.GetResourceVersion() {
		return nil, apierrors.NewConflict(gvr.GroupResource(), m.GetName(),
			errors.New("the object has been modified; please apply your changes to the latest version and try again"))
	}
	merged, err := merge(old, upd, sub)
	if err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("%s %s/%s: %v", gvr.Resource, ns, m.GetName(), err))
	}
	mm, _ := meta.Accessor(merged)
	// Removing the last finalizer of an object being deleted removes it; a
	// graceful pod's other updates (its status) leave it be: it goes with
	// the kubelet's delete with grace period 0.
	if mm.GetDeletionTimestamp() != nil && hasFinalizers(old) && !hasFinalizers(merged) {
		return merged, c.remove(gvr, ns, merged)
	}
	// An update that changes nothing is no write: etcd keeps the version
	// and no watch hears of it (the storage layer compares the bytes).
	mm.SetResourceVersion(om.GetResourceVersion())
	if apiequality.Semantic.DeepEqual(old, merged) {
		if sub == "scale" {
			return c.getScale(gvr, ns, mm.GetName())
		}
		return old, nil
	}
	stored, err := c.write(k8stesting.NewUpdateAction(gvr, ns, merged), gvr, merged, watch.Modified)
	if err != nil || sub != "scale" {
		return stored, err
	}
	return c.getScale(gvr, ns, mm.GetName())
}

// delete deletes an object, or starts its deletion: an object with
// finalizers (a namespace with spec.finalizers, a pod bound to a node that
// still has a grace period) gets a deletionTimestamp and stays until they
// are done. The orphan propagation policy adds the "orphan" finalizer, for
// the garbage collector.
func (c *Cluster) delete(gvr schema.GroupVersionResource, ns, name string, opts metav1.DeleteOptions) error {
	old, err := c.get(gvr, ns, name)
	if err != nil {
		return err
	}
	obj := old.DeepCopyObject()
	m, _ := meta.Accessor(obj)
	if p := opts.Preconditions; p != nil {
		if p.UID != nil && *p.UID != m.GetUID() || p.ResourceVersion != nil && *p.ResourceVersion != m.GetResourceVersion() {
			return apierrors.NewConflict(gvr.GroupResource(), name, errors.New("the object does not match the delete preconditions"))
		}
	}
	grace := gracePeriod(obj, opts)
	if m.GetDeletionTimestamp() != nil {
		// Already being deleted: it goes when its finalizers are done, or
		// (a graceful pod) when deleted again with grace period 0.
		if hasFinalizers(obj) || grace > 0 {
			return nil
		}
		return c.remove(gvr, ns, obj)
	}
	if orphan(opts) {
		m.SetFinalizers(appendOnce(m.GetFinalizers(), metav1.FinalizerOrphanDependents))
	}
	if grace == 0 && !hasFinalizers(obj) {
		return c.remove(gvr, ns, obj)
	}
	now := c.now()
	if grace > 0 {
		now = metav1.NewTime(now.Add(secondsDuration(grace)))
		m.SetDeletionGracePeriodSeconds(&grace)
	}
	m.SetDeletionTimestamp(&now)
	startTermination(obj)
	_, err = c.write(k8stesting.NewUpdateAction(gvr, ns, obj), gvr, obj, watch.Modified)
	return err
}

func (c *Cluster) deleteCollection(a k8stesting.DeleteCollectionActionImpl) error {
	gvr, ns := a.GetResource(), a.GetNamespace()
	kind, ok := c.kinds[gvr]
	if !ok {
		return nil // nothing was ever stored
	}
	_, list, err := c.object(k8stesting.NewListAction(gvr, kind, ns, a.ListOptions))
	if err != nil {
		return err
	}
	sel := a.GetListRestrictions().Labels
	if sel == nil {
		sel = labels.Everything()
	}
	items, _ := meta.ExtractList(list)
	for _, it := range items {
		m, _ := meta.Accessor(it)
		if !sel.Matches(labels.Set(m.GetLabels())) {
			continue
		}
		if err := c.delete(gvr, m.GetNamespace(), m.GetName(), a.DeleteOptions); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	return nil
}

// patch applies a JSON, merge or strategic merge patch (server-side apply
// is taken as a strategic merge, as the fake does) and stores the result as
// an update.
func (c *Cluster) patch(a k8stesting.PatchActionImpl) (runtime.Object, error) {
	gvr, ns := a.GetResource(), a.GetNamespace()
	old, err := c.get(gvr, ns, a.GetName())
	if err != nil {
		return nil, err
	}
	js, err := json.Marshal(old)
	if err != nil {
		return nil, err
	}
	var patched []byte
	switch a.GetPatchType() {
	case types.JSONPatchType:
		p, perr := jsonpatch.DecodePatch(a.GetPatch())
		if perr != nil {
			return nil, apierrors.NewBadRequest(perr.Error())
		}
		patched, err = p.Apply(js)
	case types.MergePatchType:
		patched, err = jsonpatch.MergePatch(js, a.GetPatch())
	default:
		patched, err = strategicpatch.StrategicMergePatch(js, a.GetPatch(), old)
	}
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	obj := reflect.New(reflect.TypeOf(old).Elem()).Interface().(runtime.Object)
	if err := json.Unmarshal(patched, obj); err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	return c.update(gvr, ns, a.GetSubresource(), obj)
}

// forgetRequests drops the requests the fake clientset records for tests
// to inspect (Fake.Actions): a simulation never reads them, and they would
// hold a copy of every request of a run. ClearActions takes the lock that
// Invokes holds while it calls serve, so it runs on a goroutine of its
// own, right after this request. The caller holds c.mu.
func (c *Cluster) forgetRequests() {
	const every = 1024
	if c.requests++; c.requests%every == 0 {
		go c.Client.ClearActions()
	}
}

// write stores obj through the fake with the next resourceVersion and
// tells the watches. The caller holds c.mu.
func (c *Cluster) write(action k8stesting.Action, gvr schema.GroupVersionResource, obj runtime.Object, ev watch.EventType) (runtime.Object, error) {
	next := c.currentRV(gvr) + 1
	m, _ := meta.Accessor(obj)
	m.SetResourceVersion(strconv.FormatInt(next, 10))
	_, ret, err := c.object(action)
	if err != nil {
		return nil, err
	}
	c.rv[gvr] = next
	c.notify(gvr, m.GetNamespace(), ev, ret)
	return ret, nil
}

// remove deletes obj from the fake; the watches see it with a new
// resourceVersion, as the apiserver sends a deleted object.
func (c *Cluster) remove(gvr schema.GroupVersionResource, ns string, obj runtime.Object) error {
	m, _ := meta.Accessor(obj)
	if _, _, err := c.object(k8stesting.NewDeleteAction(gvr, ns, m.GetName())); err != nil {
		return err
	}
	next := c.currentRV(gvr) + 1
	c.rv[gvr] = next
	obj = obj.DeepCopyObject()
	m, _ = meta.Accessor(obj)
	m.SetResourceVersion(strconv.FormatInt(next, 10))
	c.notify(gvr, ns, watch.Deleted, obj)
	return nil
}

func (c *Cluster) get(gvr schema.GroupVersionResource, ns, name string) (runtime.Object, error) {
	_, obj, err := c.object(k8stesting.NewGetAction(gvr, ns, name))
	return obj, err
}

// now is the time the apiserver stamps on objects. It keeps whole seconds,
// as a real one's storage does (metav1.Time.ProtoTime drops the
// nanoseconds that JSON could not carry), so that an object read back
// equals the one written.
func (c *Cluster) now() metav1.Time {
	return metav1.NewTime(c.clock.Now().Truncate(time.Second))
}

// currentRV is the resourceVersion of gvr's latest write (1 before any, as
// the fake counts).
func (c *Cluster) currentRV(gvr schema.GroupVersionResource) int64 {
	if rv, ok := c.rv[gvr]; ok {
		return rv
	}
	return 1
}

// kindOf remembers which kind a resource stores, for lists the apiserver
// makes itself (watch replay, deletecollection).
func (c *Cluster) kindOf(gvr schema.GroupVersionResource, obj runtime.Object) schema.GroupVersionKind {
	if k, ok := c.kinds[gvr]; ok {
		return k
	}
	kinds, _, err := scheme.Scheme.ObjectKinds(obj)
	if err != nil || len(kinds) == 0 {
		return schema.GroupVersionKind{Group: gvr.Group, Version: gvr.Version}
	}
	if c.kinds == nil {
		c.kinds = map[schema.GroupVersionResource]schema.GroupVersionKind{}
	}
	c.kinds[gvr] = kinds[0]
	return kinds[0]
}

func orphan(opts metav1.DeleteOptions) bool {
	if opts.PropagationPolicy != nil {
		return *opts.PropagationPolicy == metav1.DeletePropagationOrphan
	}
	//lint:ignore SA1019 the apiserver still honours OrphanDependents, and v1.5's namespace controller sends it
	return opts.OrphanDependents != nil && *opts.OrphanDependents
}

func appendOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}
