package cluster

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/utils/ptr"

	"github.com/kubeloom/kubeloom/sim/internal/uuid"
)

// namespacesResource and podsResource are the resources the apiserver's
// own checks read (namespace admission, pod binding).
func namespacesResource() schema.GroupVersionResource {
	return corev1.SchemeGroupVersion.WithResource("namespaces")
}

func podsResource() schema.GroupVersionResource {
	return corev1.SchemeGroupVersion.WithResource("pods")
}

func newNamespace(name string) *corev1.Namespace {
	return &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
}

// setDefaults fills in what the apiserver's registries set on create: a
// namespace gets the "kubernetes" finalizer (which the namespace controller
// removes once the namespace is empty) and phase Active; a pod starts
// Pending.
func setDefaults(obj runtime.Object) {
	switch o := obj.(type) {
	case *corev1.Namespace:
		if !slices.Contains(o.Spec.Finalizers, corev1.FinalizerKubernetes) {
			o.Spec.Finalizers = append(o.Spec.Finalizers, corev1.FinalizerKubernetes)
		}
		o.Status.Phase = corev1.NamespaceActive
	case *corev1.Pod:
		if o.Status.Phase == "" {
			o.Status.Phase = corev1.PodPending
		}
	case *batchv1.Job:
		// The job registry generates the selector (generateSelector):
		// the job's pods carry its UID and name.
		if o.Spec.Selector == nil && (o.Spec.ManualSelector == nil || !*o.Spec.ManualSelector) {
			uid := string(o.UID)
			o.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"controller-uid": uid}}
			if o.Spec.Template.Labels == nil {
				o.Spec.Template.Labels = map[string]string{}
			}
			o.Spec.Template.Labels["controller-uid"] = uid
			o.Spec.Template.Labels["job-name"] = o.Name
		}
	}
}

// startTermination is what deletion starts: a namespace becomes Terminating.
func startTermination(obj runtime.Object) {
	if ns, ok := obj.(*corev1.Namespace); ok {
		ns.Status.Phase = corev1.NamespaceTerminating
	}
}

// hasFinalizers reports whether something must still happen before the
// object may go: metadata finalizers, or a namespace's spec.finalizers.
func hasFinalizers(obj runtime.Object) bool {
	m, _ := meta.Accessor(obj)
	if len(m.GetFinalizers()) > 0 {
		return true
	}
	ns, ok := obj.(*corev1.Namespace)
	return ok && len(ns.Spec.Finalizers) > 0
}

// gracePeriod is the grace period of a deletion: the one asked for, else a
// bound pod's terminationGracePeriodSeconds (30s by default), which gives
// its kubelet time to stop the containers. Other objects go at once.
func gracePeriod(obj runtime.Object, opts metav1.DeleteOptions) int64 {
	pod, ok := obj.(*corev1.Pod)
	if !ok || pod.Spec.NodeName == "" {
		return 0
	}
	if opts.GracePeriodSeconds != nil {
		return max(0, *opts.GracePeriodSeconds)
	}
	if pod.Spec.TerminationGracePeriodSeconds != nil {
		return max(0, *pod.Spec.TerminationGracePeriodSeconds)
	}
	return corev1.DefaultTerminationGracePeriodSeconds
}

func secondsDuration(s int64) time.Duration { return time.Duration(s) * time.Second }

// admitNamespace is the NamespaceLifecycle admission plugin: nothing new
// may be created in a namespace that is being deleted.
func (c *Cluster) admitNamespace(gr schema.GroupResource, ns, name string) error {
	obj, err := c.get(namespacesResource(), "", ns)
	if err != nil {
		return nil // kubeloom does not require namespaces to exist
	}
	if m, _ := meta.Accessor(obj); m.GetDeletionTimestamp() != nil {
		return apierrors.NewForbidden(gr, name,
			fmt.Errorf("unable to create new content in namespace %s because it is being terminated", ns))
	}
	return nil
}

// merge computes the object an update stores, from the stored one and the
// one sent: system metadata (uid, creation and deletion times, generation)
// always comes from the stored object; the main resource keeps the stored
// status; the status (and CSR approval) subresource keeps everything but
// the status; a namespace's finalize subresource changes only
// spec.finalizers; the scale subresource changes only spec.replicas.
func merge(old, upd runtime.Object, sub string) (runtime.Object, error) {
	if sub == "scale" {
		return mergeScale(old, upd)
	}
	if reflect.TypeOf(old) != reflect.TypeOf(upd) {
		return nil, fmt.Errorf("expected a %T, got a %T", old, upd)
	}
	if sub == "status" {
		if obj, ok := mergeStatus(old, upd); ok {
			return obj, nil
		}
	}
	o, err := runtime.DefaultUnstructuredConverter.ToUnstructured(old)
	if err != nil {
		return nil, err
	}
	n, err := runtime.DefaultUnstructuredConverter.ToUnstructured(upd)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	switch sub {
	case "":
		out = n
		if st, ok := o["status"]; ok {
			out["status"] = st
		} else {
			delete(out, "status")
		}
		out["metadata"] = systemMetadata(o, n)
	case "status", "approval":
		out = o
		if st, ok := n["status"]; ok {
			out["status"] = st
		} else {
			delete(out, "status")
		}
	case "finalize":
		out = o
		spec, _ := out["spec"].(map[string]any)
		if spec == nil {
			spec = map[string]any{}
			out["spec"] = spec
		}
		nspec, _ := n["spec"].(map[string]any)
		if f, ok := nspec["finalizers"]; ok {
			spec["finalizers"] = f
		} else {
			delete(spec, "finalizers")
		}
	default:
		return nil, fmt.Errorf("the %s subresource is not simulated", sub)
	}
	if !reflect.DeepEqual(o["spec"], out["spec"]) {
		om, _ := meta.Accessor(old)
		md := out["metadata"].(map[string]any)
		md["generation"] = om.GetGeneration() + 1
	}
	obj := reflect.New(reflect.TypeOf(old).Elem()).Interface().(runtime.Object)
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(out, obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// mergeStatus is merge of the status subresource for the kinds whose
// status is written most: every kubelet's pods (the status manager) and
// its node (every 10s). It is the stored object with the sent status, as
// the round trip through unstructured maps computes it, without the maps
// (3.5 % of the CPU of a 100-node run went to them). Their
// times are stored as sent: the kubelet already keeps whole seconds, as
// the storage would.
func mergeStatus(old, upd runtime.Object) (runtime.Object, bool) {
	switch o := old.(type) {
	case *corev1.Pod:
		out := o.DeepCopy()
		upd.(*corev1.Pod).Status.DeepCopyInto(&out.Status)
		return out, true
	case *corev1.Node:
		out := o.DeepCopy()
		upd.(*corev1.Node).Status.DeepCopyInto(&out.Status)
		return out, true
	}
	return nil, false
}

// systemMetadata is the sent metadata with the fields only the apiserver
// sets put back.
func systemMetadata(old, upd map[string]any) map[string]any {
	om, _ := old["metadata"].(map[string]any)
	nm, _ := upd["metadata"].(map[string]any)
	if nm == nil {
		nm = map[string]any{}
	}
	for _, k := range []string{"uid", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "generation", "namespace", "name", "managedFields"} {
		if v, ok := om[k]; ok {
			nm[k] = v
		} else {
			delete(nm, k)
		}
	}
	return nm
}

// scaleOf is what the scale subresource of a workload shows: its
// spec.replicas field (nil means 1), its status.replicas and its selector.
// ok is false for kinds without a scale subresource.
func scaleOf(obj runtime.Object) (replicas **int32, status int32, selector string, ok bool) {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		return &o.Spec.Replicas, o.Status.Replicas, selectorString(o.Spec.Selector), true
	case *appsv1.ReplicaSet:
		return &o.Spec.Replicas, o.Status.Replicas, selectorString(o.Spec.Selector), true
	case *appsv1.StatefulSet:
		return &o.Spec.Replicas, o.Status.Replicas, selectorString(o.Spec.Selector), true
	case *corev1.ReplicationController:
		return &o.Spec.Replicas, o.Status.Replicas, labels.SelectorFromSet(o.Spec.Selector).String(), true
	}
	return nil, 0, "", false
}

func selectorString(ls *metav1.LabelSelector) string {
	sel, err := metav1.LabelSelectorAsSelector(ls)
	if err != nil {
		return ""
	}
	return sel.String()
}

// getScale serves GET …/scale of a workload.
func (c *Cluster) getScale(gvr schema.GroupVersionResource, ns, name string) (runtime.Object, error) {
	obj, err := c.get(gvr, ns, name)
	if err != nil {
		return nil, err
	}
	replicas, status, sel, ok := scaleOf(obj)
	if !ok {
		return nil, apierrors.NewNotFound(gvr.GroupResource(), name+"/scale")
	}
	m, _ := meta.Accessor(obj)
	return &autoscalingv1.Scale{
		ObjectMeta: metav1.ObjectMeta{Name: m.GetName(), Namespace: m.GetNamespace(), UID: m.GetUID(),
			ResourceVersion: m.GetResourceVersion(), CreationTimestamp: m.GetCreationTimestamp()},
		Spec:   autoscalingv1.ScaleSpec{Replicas: ptr.Deref(*replicas, 1)},
		Status: autoscalingv1.ScaleStatus{Replicas: status, Selector: sel},
	}, nil
}

// mergeScale applies PUT …/scale: only spec.replicas changes (and with it
// the generation).
func mergeScale(old, upd runtime.Object) (runtime.Object, error) {
	obj := old.DeepCopyObject()
	replicas, _, _, ok := scaleOf(obj)
	sc, isScale := upd.(*autoscalingv1.Scale)
	if !ok || !isScale {
		return nil, fmt.Errorf("expected an autoscaling/v1 Scale of a workload, got a %T", upd)
	}
	if ptr.Deref(*replicas, 1) != sc.Spec.Replicas {
		*replicas = ptr.To(sc.Spec.Replicas)
		m, _ := meta.Accessor(obj)
		m.SetGeneration(m.GetGeneration() + 1)
	}
	return obj, nil
}

// bind serves POST pods/binding: the scheduler's way of putting a pod on a node.
func (c *Cluster) bind(ns string, obj runtime.Object) (runtime.Object, error) {
	b, ok := obj.(*corev1.Binding)
	if !ok {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("expected a Binding, got a %T", obj))
	}
	cur, err := c.get(podsResource(), ns, b.Name)
	if err != nil {
		return nil, err
	}
	pod := cur.(*corev1.Pod).DeepCopy()
	if pod.Spec.NodeName != "" {
		return nil, apierrors.NewConflict(podsResource().GroupResource(), b.Name, fmt.Errorf("pod %s is already assigned to node %q", b.Name, pod.Spec.NodeName))
	}
	pod.Spec.NodeName = b.Target.Name
	pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{
		Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: c.now()})
	_, err = c.write(k8stesting.NewUpdateAction(podsResource(), ns, pod), podsResource(), pod, "MODIFIED")
	return b, err
}

// generateName makes a name from generateName as the apiserver does: five
// random characters from an alphabet without vowels (SimpleNameGenerator),
// drawn again while the name is taken. Requires c.mu.
func (c *Cluster) generateName(gvr schema.GroupVersionResource, ns, prefix string) string {
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	const maxPrefix = 63 - 5
	if len(prefix) > maxPrefix {
		prefix = prefix[:maxPrefix]
	}
	r := c.keyed("generateName", gvr.String(), ns, prefix)
	for {
		b := make([]byte, 5)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		name := prefix + string(b)
		if _, err := c.get(gvr, ns, name); apierrors.IsNotFound(err) {
			return name
		}
	}
}

// newUID returns a random version-4 UUID for a new object. Requires c.mu.
func (c *Cluster) newUID(gvr schema.GroupVersionResource, ns, name string) types.UID {
	return types.UID(uuid.New(c.keyed("uid", gvr.String(), ns, name)))
}

// keyed returns the random source of the next draw for a key (a
// generateName prefix, an object's name): seeded by the scenario's seed, the
// key and how many draws the key has had. Goroutines that create objects
// at the same moment ask in a different order in every run; keyed sources
// give each object the same name and UID whatever that order. (A
// ReplicaSet's pods all share one prefix, and they are identical, so which
// goroutine gets which of their names does not matter.) Requires c.mu.
func (c *Cluster) keyed(parts ...string) *rand.Rand {
	key := strings.Join(parts, "\x00")
	n := c.draws[key]
	c.draws[key]++
	h := fnv.New64a()
	h.Write([]byte(key))
	fmt.Fprintf(h, "\x00%d", n)
	return rand.New(rand.NewPCG(c.seed, h.Sum64()))
}
