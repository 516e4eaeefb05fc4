package controllers

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"github.com/kubeloom/kubeloom/sim/events"
	"github.com/kubeloom/kubeloom/sim/informer"
)

// keyOf is cache.MetaNamespaceKeyFunc, tombstones included.
func keyOf(obj any) string {
	k, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return ""
	}
	return k
}

// untomb returns the object of a deletion tombstone.
func untomb(obj any) any {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		return t.Obj
	}
	return obj
}

// isPodActive: not finished and not being deleted (controller.IsPodActive).
func isPodActive(p *corev1.Pod) bool {
	return p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed && p.DeletionTimestamp == nil
}

// isPodReady is v1.IsPodReady.
func isPodReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// isPodAvailable is v1.IsPodAvailable: ready for at least minReadySeconds.
func isPodAvailable(p *corev1.Pod, minReadySeconds int32, now time.Time) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
			return minReadySeconds == 0 || c.LastTransitionTime.Add(time.Duration(minReadySeconds)*time.Second).Before(now)
		}
	}
	return false
}

// podsIn lists the pods of a namespace from an informer's cache, matching
// sel (nil: all), by name.
func podsIn(inf *informer.Informer, ns string, sel labels.Selector) []*corev1.Pod {
	var out []*corev1.Pod
	for _, p := range inNamespace[*corev1.Pod](inf, ns) {
		if sel == nil || sel.Matches(labels.Set(p.Labels)) {
			out = append(out, p)
		}
	}
	return out
}

// listOf returns every object of a cache, typed, sorted by key (the order
// is the simulation's, for reproducible runs).
func listOf[T any](inf *informer.Informer) []T {
	return byKeys[T](inf, inf.Indexer().ListKeys())
}

// inNamespace returns the objects of a cache in one namespace, typed,
// sorted by key.
func inNamespace[T any](inf *informer.Informer, ns string) []T {
	keys, _ := inf.Indexer().IndexKeys(cache.NamespaceIndex, ns)
	return byKeys[T](inf, keys)
}

func byKeys[T any](inf *informer.Informer, keys []string) []T {
	slices.Sort(keys)
	out := make([]T, 0, len(keys))
	for _, k := range keys {
		if o, ok, _ := inf.Indexer().GetByKey(k); ok {
			out = append(out, o.(T))
		}
	}
	return out
}

// get returns an object of a cache by key.
func get[T any](inf *informer.Informer, key string) (T, bool) {
	var zero T
	o, ok, err := inf.Indexer().GetByKey(key)
	if err != nil || !ok {
		return zero, false
	}
	return o.(T), true
}

// controllerRef is the owner reference a controller puts on what it
// creates (CreatePodsWithControllerRef), which the garbage collector follows.
func controllerRef(owner metav1.Object, gvk schema.GroupVersionKind) metav1.OwnerReference {
	t := true
	return metav1.OwnerReference{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind, Name: owner.GetName(), UID: owner.GetUID(), Controller: &t, BlockOwnerDeletion: &t}
}

// ownerOf returns the controller owner reference of an object.
func ownerOf(obj metav1.Object) *metav1.OwnerReference {
	for _, r := range obj.GetOwnerReferences() {
		if r.Controller != nil && *r.Controller {
			return &r
		}
	}
	return nil
}

// podControl creates and deletes pods for a controller and records the
// events RealPodControl records.
type podControl struct {
	client   kubernetes.Interface
	recorder events.Recorder
}

// create is GetPodFromTemplate + CreatePods: a pod named "<owner>-" plus
// five random characters (the apiserver's generateName), with the
// template's labels and the owner's controller reference.
func (pc podControl) create(ctx context.Context, tmpl *corev1.PodTemplateSpec, owner metav1.Object, gvk schema.GroupVersionKind, nodeName string) (*corev1.Pod, error) {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			GenerateName:    owner.GetName() + "-",
			Namespace:       owner.GetNamespace(),
			Labels:          copyMap(tmpl.Labels),
			Annotations:     copyMap(tmpl.Annotations),
			OwnerReferences: []metav1.OwnerReference{controllerRef(owner, gvk)},
		},
		Spec: *tmpl.Spec.DeepCopy(),
	}
	if nodeName != "" {
		pod.Spec.NodeName = nodeName
	}
	return pc.createPod(ctx, pod, owner.(runtime.Object))
}

func (pc podControl) createPod(ctx context.Context, pod *corev1.Pod, owner runtime.Object) (*corev1.Pod, error) {
	created, err := call(ctx, "pods.Create", pod.Namespace+"/"+pod.GenerateName+pod.Name, func(ctx context.Context) (*corev1.Pod, error) {
		return pc.client.CoreV1().Pods(pod.Namespace).Create(ctx, pod, metav1.CreateOptions{})
	})
	if err != nil {
		pc.recorder.Eventf(ctx, owner, corev1.EventTypeWarning, "FailedCreate", "Error creating: %v", err)
		return nil, err
	}
	pc.recorder.Eventf(ctx, owner, corev1.EventTypeNormal, "SuccessfulCreate", "Created pod: %v", created.Name)
	return created, nil
}

func (pc podControl) delete(ctx context.Context, pod *corev1.Pod, owner runtime.Object) error {
	err := do(ctx, "pods.Delete", pod.Namespace+"/"+pod.Name, func(ctx context.Context) error {
		return pc.client.CoreV1().Pods(pod.Namespace).Delete(ctx, pod.Name, metav1.DeleteOptions{})
	})
	if err != nil {
		pc.recorder.Eventf(ctx, owner, corev1.EventTypeWarning, "FailedDelete", "Error deleting: %v", err)
		return err
	}
	pc.recorder.Eventf(ctx, owner, corev1.EventTypeNormal, "SuccessfulDelete", "Deleted pod: %v", pod.Name)
	return nil
}

func copyMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// activePodsByDeletionPreference sorts pods the way controller.ActivePods
// does, the first ones deleted first: unscheduled before scheduled,
// pending before running, not ready before ready, newer before older.
func activePodsByDeletionPreference(pods []*corev1.Pod) {
	rank := func(p *corev1.Pod) [3]int {
		r := [3]int{1, 2, 1}
		if p.Spec.NodeName == "" {
			r[0] = 0
		}
		switch p.Status.Phase {
		case corev1.PodPending:
			r[1] = 0
		case corev1.PodUnknown:
			r[1] = 1
		}
		if !isPodReady(p) {
			r[2] = 0
		}
		return r
	}
	sort.SliceStable(pods, func(i, j int) bool {
		ri, rj := rank(pods[i]), rank(pods[j])
		if ri != rj {
			for k := range ri {
				if ri[k] != rj[k] {
					return ri[k] < rj[k]
				}
			}
		}
		return pods[i].CreationTimestamp.After(pods[j].CreationTimestamp.Time)
	})
}

// selectorOf converts a label selector, reporting a bad one.
func selectorOf(ls *metav1.LabelSelector) (labels.Selector, error) {
	if ls == nil {
		return labels.Nothing(), nil
	}
	return metav1.LabelSelectorAsSelector(ls)
}

func accessor(obj any) metav1.Object {
	m, err := meta.Accessor(obj)
	if err != nil {
		panic(fmt.Sprintf("controllers: %T has no object metadata", obj))
	}
	return m
}

func labelsOf(p *corev1.Pod) labels.Set { return labels.Set(p.Labels) }
