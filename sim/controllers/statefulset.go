package controllers

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeloom/kubeloom/sim/events"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
	"github.com/kubeloom/kubeloom/sim/workqueue"
)

// statefulSetResyncPeriod is the resync of the controller's own informer
// (v1.5 ignores the period StartControllers passes).
const statefulSetResyncPeriod = 30 * time.Second

// StatefulSetController — PetSetController in the article
// (pkg/controller/petset/pet_set.go, v1.5): one worker that creates the
// set's pods "<set>-0", "<set>-1", … one at a time, each only once the
// previous one is Running and Ready, with their volume claims; and deletes
// from the highest ordinal down when scaled in.
func startStatefulSet(ctx context.Context, c *Context) string {
	if !c.APIEnabled(c.groupVersion("apps/v1beta1", "apps/v1")) {
		return "statefulsets are not served"
	}
	psc := newStatefulSetController(ctx, c)
	goroutine.RuntimeFrom(ctx).Go(ctx, "controller/statefulset/run", func(ctx context.Context) {
		psc.pods.RunDummy(ctx)
		psc.sets.Run(ctx)
		psc.queue.Workers(ctx, "controller/statefulset/worker", 1, "Sync", psc.sync)
		<-ctx.Done()
	})
	return ""
}

// newStatefulSetController is NewPetSetController: its own sets informer,
// its event pipeline, queue and handlers.
func newStatefulSetController(ctx context.Context, c *Context) *statefulSetController {
	psc := &statefulSetController{c: c, sets: c.NewInformer("statefulsets", statefulSetResyncPeriod, informer.Private), pods: c.Informers.Informer("pods")}
	psc.podsSynced = psc.pods.HasSynced
	psc.recorder = c.NewEvents(ctx, "statefulset", true, true).Recorder(ctx)
	psc.queue = workqueue.New(ctx, "statefulset")
	psc.sets.AddHandler(ctx, enqueueHandlers("statefulset-controller", psc.queue))
	podChanged := func(ctx context.Context, obj any) {
		if p, ok := untomb(obj).(*corev1.Pod); ok {
			if set := psc.setOf(p); set != "" {
				psc.queue.Add(ctx, set)
			}
		}
	}
	psc.pods.AddHandler(ctx, informer.Funcs{HandlerName: "statefulset-controller", Add: podChanged, Delete: podChanged,
		Update: func(ctx context.Context, old, cur any) {
			if accessor(old).GetResourceVersion() != accessor(cur).GetResourceVersion() {
				podChanged(ctx, cur)
			}
		}})
	return psc
}

type statefulSetController struct {
	c          *Context
	sets, pods *informer.Informer
	// podsSynced is psc.podStoreSynced: the pods informer's HasSynced (a
	// test's cache is full from the start).
	podsSynced func() bool
	queue      *workqueue.Queue
	recorder   events.Recorder
}

// setOf returns the key of the set a pod belongs to, by its selector.
func (psc *statefulSetController) setOf(p *corev1.Pod) string {
	for _, s := range inNamespace[*appsv1.StatefulSet](psc.sets, p.Namespace) {
		sel, err := selectorOf(s.Spec.Selector)
		if err == nil && sel.Matches(labelsOf(p)) {
			return keyOf(s)
		}
	}
	return ""
}

func (psc *statefulSetController) sync(ctx context.Context, key string) error {
	if !psc.podsSynced() {
		return workqueue.RetryAfter{After: 100 * time.Millisecond, Reason: "waiting for pods controller to sync"}
	}
	set, ok := get[*appsv1.StatefulSet](psc.sets, key)
	if !ok {
		return nil // "StatefulSet has been deleted"
	}
	sel, err := selectorOf(set.Spec.Selector)
	if err != nil {
		return err
	}
	pets := map[int]*corev1.Pod{}
	for _, p := range podsIn(psc.pods, set.Namespace, sel) {
		if i, ok := ordinal(set.Name, p.Name); ok {
			pets[i] = p
		}
	}
	replicas := int(replicasOr1(set.Spec.Replicas))
	healthy := func(p *corev1.Pod) bool {
		return p.Status.Phase == corev1.PodRunning && isPodReady(p) && p.Annotations["pod.alpha.kubernetes.io/initialized"] != "false"
	}
	// The first unhealthy pet blocks any further change.
	for i := 0; i < replicas; i++ {
		p, ok := pets[i]
		if !ok {
			if err := psc.createPet(ctx, set, i); err != nil {
				return err
			}
			goroutine.SpanFrom(ctx).AddEvent(fmt.Sprintf("StatefulSet %s blocked from scaling on pod %s-%d", set.Name, set.Name, i))
			break
		}
		if !healthy(p) {
			goroutine.SpanFrom(ctx).AddEvent(fmt.Sprintf("StatefulSet %s blocked from scaling on pod %s", set.Name, p.Name))
			break
		}
	}
	// Scale in: the highest ordinal first, one at a time.
	highest := -1
	for i := range pets {
		highest = max(highest, i)
	}
	for i := highest; i >= replicas; i-- {
		p, ok := pets[i]
		if !ok || p.DeletionTimestamp != nil {
			continue
		}
		err := do(ctx, "pods.Delete", keyOf(p), func(ctx context.Context) error {
			return psc.c.Client.CoreV1().Pods(p.Namespace).Delete(ctx, p.Name, metav1.DeleteOptions{})
		})
		psc.event(ctx, set, "Delete", "pet: "+p.Name, err)
		break
	}
	n := int32(0)
	for i := range pets {
		if i < replicas {
			n++
		}
	}
	if set.Status.Replicas == n && set.Status.ObservedGeneration == set.Generation {
		return nil
	}
	upd := set.DeepCopy()
	upd.Status.Replicas, upd.Status.ObservedGeneration = n, set.Generation
	_, err = call(ctx, "statefulsets.UpdateStatus", key, func(ctx context.Context) (*appsv1.StatefulSet, error) {
		return psc.c.Client.AppsV1().StatefulSets(set.Namespace).UpdateStatus(ctx, upd, metav1.UpdateOptions{})
	})
	return err
}

// createPet creates a pet's volume claims, then the pet "<set>-<ordinal>"
// with its stable hostname. v1.5's pets carry no owner reference (deleting
// the set leaves them); today's do.
func (psc *statefulSetController) createPet(ctx context.Context, set *appsv1.StatefulSet, i int) error {
	name := fmt.Sprintf("%s-%d", set.Name, i)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: set.Namespace, Labels: copyMap(set.Spec.Template.Labels), Annotations: copyMap(set.Spec.Template.Annotations)},
		Spec:       *set.Spec.Template.Spec.DeepCopy(),
	}
	pod.Spec.Hostname, pod.Spec.Subdomain = name, set.Spec.ServiceName
	if psc.c.Era == informer.Modern {
		pod.OwnerReferences = []metav1.OwnerReference{controllerRef(set, appsv1.SchemeGroupVersion.WithKind("StatefulSet"))}
	}
	for _, t := range set.Spec.VolumeClaimTemplates {
		claim := t.DeepCopy()
		claim.Name, claim.Namespace = fmt.Sprintf("%s-%s", t.Name, name), set.Namespace
		claim.ResourceVersion, claim.UID = "", ""
		_, err := call(ctx, "persistentvolumeclaims.Create", set.Namespace+"/"+claim.Name, func(ctx context.Context) (*corev1.PersistentVolumeClaim, error) {
			return psc.c.Client.CoreV1().PersistentVolumeClaims(set.Namespace).Create(ctx, claim, metav1.CreateOptions{})
		})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			psc.event(ctx, set, "Create", "pvc: "+claim.Name, err)
			return err
		}
		if err == nil {
			psc.event(ctx, set, "Create", "pvc: "+claim.Name, nil)
		}
		pod.Spec.Volumes = append(pod.Spec.Volumes, corev1.Volume{Name: t.Name,
			VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: claim.Name}}})
	}
	_, err := call(ctx, "pods.Create", set.Namespace+"/"+name, func(ctx context.Context) (*corev1.Pod, error) {
		return psc.c.Client.CoreV1().Pods(set.Namespace).Create(ctx, pod, metav1.CreateOptions{})
	})
	if apierrors.IsAlreadyExists(err) {
		return nil // the informer has not seen it yet
	}
	psc.event(ctx, set, "Create", "pet: "+name, err)
	return err
}

// event records Successful<reason> or Failed<reason> (pet_set.go's p.event).
func (psc *statefulSetController) event(ctx context.Context, set *appsv1.StatefulSet, reason, msg string, err error) {
	if err != nil {
		psc.recorder.Eventf(ctx, set, corev1.EventTypeWarning, "Failed"+reason, "%s, error: %v", msg, err)
		return
	}
	psc.recorder.Eventf(ctx, set, corev1.EventTypeNormal, "Successful"+reason, "%s", msg)
}

// ordinal parses "<set>-<n>".
func ordinal(set, pod string) (int, bool) {
	rest, ok := strings.CutPrefix(pod, set+"-")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil && n >= 0
}
