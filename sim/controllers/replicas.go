package controllers

import (
	"context"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeloom/kubeloom/sim/informer"
	"github.com/kubeloom/kubeloom/sim/workqueue"
)

// burstReplicas caps creations or deletions per sync (BurstReplicas).
const burstReplicas = 500

// replicaSet is what the replication manager and the replica set
// controller manage: an owner with a selector, a count and a template.
type replicaSet struct {
	obj      runtime.Object
	meta     metav1.Object
	gvk      schema.GroupVersionKind
	selector labels.Selector
	replicas int
	template *corev1.PodTemplateSpec
	minReady int32
}

// replicaCounts are the counts a sync writes to the owner's status.
type replicaCounts struct {
	replicas, fullyLabeled, ready, available int32
}

// ownedPods returns the active pods the owner manages: those it owns, and
// matching orphans (which v1.5 adopts). They come from the pods' controller
// UID index (addPodControllerUIDIndex), unordered: the counts do not care,
// and deletions sort them (manageReplicas).
func ownedPods(pods *informer.Informer, rs replicaSet) []*corev1.Pod {
	var out []*corev1.Pod
	for _, p := range controlledOrOrphan(pods, rs.meta.GetNamespace(), rs.meta.GetUID()) {
		if isPodActive(p) && (rs.selector == nil || rs.selector.Matches(labels.Set(p.Labels))) {
			out = append(out, p)
		}
	}
	return out
}

// manageReplicas creates or deletes pods until the count matches (v1.5
// manageReplicas), with expectations so the next sync waits for the
// informer to see them.
// active is how many active pods the owner has; pods lists them, or is nil
// if they were counted without a list (replicaTally), and then deletions
// list them.
func manageReplicas(ctx context.Context, pc podControl, exp *expectations, key string, rs replicaSet, podInf *informer.Informer, active int, pods []*corev1.Pod) error {
	diff := active - rs.replicas
	switch {
	case diff < 0:
		n := min(-diff, burstReplicas)
		exp.expect(key, n, 0)
		for range n {
			if _, err := pc.create(ctx, rs.template, rs.meta, rs.gvk, ""); err != nil {
				exp.observed(key, 1, 0) // it will never be seen
				return err
			}
		}
	case diff > 0:
		n := min(diff, burstReplicas)
		if pods == nil {
			pods = ownedPods(podInf, rs)
		}
		slices.SortFunc(pods, func(a, b *corev1.Pod) int { return strings.Compare(a.Name, b.Name) }) // the namespace's list order
		activePodsByDeletionPreference(pods)
		exp.expect(key, 0, n)
		for _, p := range pods[:n] {
			if err := pc.delete(ctx, p, rs.obj); err != nil {
				exp.observed(key, 0, 1)
				return err
			}
		}
	}
	return nil
}

// countsOf returns an owner's counts: from the tally, or, when
// minReadySeconds makes availability depend on the time, from a walk of
// its pods, which it then also returns.
func (t *replicaTally) countsOf(rs replicaSet, now time.Time) (replicaCounts, []*corev1.Pod) {
	if rs.minReady > 0 {
		pods := ownedPods(t.pods, rs)
		return countReplicas(pods, rs, now), pods
	}
	return t.counts(rs), nil
}

func countReplicas(pods []*corev1.Pod, rs replicaSet, now time.Time) replicaCounts {
	c := replicaCounts{replicas: int32(len(pods))}
	tmplLabels := labels.Set(rs.template.Labels).AsSelector()
	for _, p := range pods {
		if tmplLabels.Matches(labels.Set(p.Labels)) {
			c.fullyLabeled++
		}
		if isPodReady(p) {
			c.ready++
		}
		if isPodAvailable(p, rs.minReady, now) {
			c.available++
		}
	}
	return c
}

// podOwnerHandlers are the pod handlers of a replica controller: each
// change enqueues the owner and counts what the owner expected to see.
func podOwnerHandlers(name string, ownerKind string, q *workqueue.Queue, exp *expectations) informer.Funcs {
	owner := func(obj any) string {
		p, ok := untomb(obj).(*corev1.Pod)
		if !ok {
			return ""
		}
		if ref := ownerOf(p); ref != nil && ref.Kind == ownerKind {
			return p.Namespace + "/" + ref.Name
		}
		return ""
	}
	return informer.Funcs{
		HandlerName: name,
		Add: func(ctx context.Context, obj any) {
			if k := owner(obj); k != "" {
				exp.observed(k, 1, 0)
				q.Add(ctx, k)
			}
		},
		Update: func(ctx context.Context, oldObj, newObj any) {
			if accessor(oldObj).GetResourceVersion() == accessor(newObj).GetResourceVersion() {
				return // a resync: nothing changed
			}
			k := owner(newObj)
			if k == "" {
				return
			}
			if accessor(newObj).GetDeletionTimestamp() != nil && accessor(oldObj).GetDeletionTimestamp() == nil {
				exp.observed(k, 0, 1) // a graceful deletion has started: the pod is as good as gone
			}
			q.Add(ctx, k)
		},
		Delete: func(ctx context.Context, obj any) {
			if k := owner(obj); k != "" {
				exp.observed(k, 0, 1)
				q.Add(ctx, k)
			}
		},
	}
}

// enqueueHandlers enqueue the object's own key on add, update and delete.
func enqueueHandlers(name string, q *workqueue.Queue) informer.Funcs {
	add := func(ctx context.Context, obj any) { q.Add(ctx, keyOf(obj)) }
	return informer.Funcs{
		HandlerName: name,
		Add:         add,
		Update:      func(ctx context.Context, _, obj any) { add(ctx, obj) },
		Delete:      add,
	}
}
