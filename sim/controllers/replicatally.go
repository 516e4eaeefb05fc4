package controllers

import (
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeloom/kubeloom/sim/informer"
)

// replicaTally keeps, for each owner a replica controller has synced, the
// counts its status is made of (replicas, fully labeled, ready), over the
// pods the owner controls, updated as the pods informer's cache changes
// (Informer.ObserveStore). v1.5's syncReplicaSet lists and classifies
// every pod of the namespace on each sync, and each pod event brings a
// sync: with one ReplicaSet of 30,000 pods that is O(pods²) work for a
// rollout, which the real controller pays too but kubeloom cannot afford
// on two cores. The tally gives the same counts (TestReplicaTallyMatchesTheWalk
// compares them) at the cost of one update per pod change. Orphans (pods
// with no controller) are still found and counted at each sync, and
// deletions, which must rank the pods, still walk them (manageReplicas).
type replicaTally struct {
	pods *informer.Informer

	mu     sync.Mutex
	owners map[types.UID]*ownerTally // kept after the owner is gone: a few per ReplicaSet ever made
}

// ownerTally is one owner's pods and their counts.
type ownerTally struct {
	selector, template labels.Selector // what the facts were computed with
	selKey, tmplKey    string
	facts              map[string]podFacts // by pod key: the pods the owner controls
	counts             replicaCounts       // replicas, fullyLabeled, ready (available is ready: minReady 0)
}

// podFacts is what one pod adds to its owner's counts.
type podFacts struct{ counted, fullyLabeled, ready bool }

func newReplicaTally(pods *informer.Informer) *replicaTally {
	t := &replicaTally{pods: pods, owners: map[types.UID]*ownerTally{}}
	pods.ObserveStore(t.observe)
	return t
}

// observe moves a changed pod's facts in its owner's counts.
func (t *replicaTally) observe(old, obj any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if p, ok := untomb(old).(*corev1.Pod); ok {
		if o := t.ownerOf(p); o != nil {
			o.remove(keyOf(p))
		}
	}
	if p, ok := obj.(*corev1.Pod); ok {
		if o := t.ownerOf(p); o != nil {
			o.set(keyOf(p), o.factsOf(p))
		}
	}
}

// ownerOf is the tally of a pod's controller, if that owner has one.
// Requires t.mu.
func (t *replicaTally) ownerOf(p *corev1.Pod) *ownerTally {
	ref := metav1.GetControllerOfNoCopy(p)
	if ref == nil {
		return nil
	}
	return t.owners[ref.UID]
}

// counts returns the owner's counts over the pods it controls, and the
// matching active orphans of its namespace, as countReplicas would find
// them (rs.minReady must be 0). The first call for an owner, or one after
// its selector or template labels changed, counts its pods afresh.
func (t *replicaTally) counts(rs replicaSet) replicaCounts {
	uid := rs.meta.GetUID()
	selKey, tmplKey := selectorKey(rs.selector), labels.Set(rs.template.Labels).String()
	t.mu.Lock()
	o := t.owners[uid]
	if o == nil || o.selKey != selKey || o.tmplKey != tmplKey {
		// Built under t.mu: a change the cache makes meanwhile waits in
		// observe and is applied on top, so none is lost or counted twice.
		o = &ownerTally{selector: rs.selector, template: labels.Set(rs.template.Labels).AsSelector(),
			selKey: selKey, tmplKey: tmplKey, facts: map[string]podFacts{}}
		objs, _ := t.pods.Indexer().ByIndex(podControllerUIDIndex, string(uid))
		for _, obj := range objs {
			p := obj.(*corev1.Pod)
			o.set(keyOf(p), o.factsOf(p))
		}
		t.owners[uid] = o
	}
	n := o.counts
	t.mu.Unlock()
	orphans, _ := t.pods.Indexer().ByIndex(podControllerUIDIndex, orphanKey(rs.meta.GetNamespace()))
	for _, obj := range orphans {
		if p := obj.(*corev1.Pod); p.Namespace == rs.meta.GetNamespace() {
			n.add(o.factsOf(p), 1)
		}
	}
	n.available = n.ready
	return n
}

func (o *ownerTally) factsOf(p *corev1.Pod) podFacts {
	if !isPodActive(p) || o.selector != nil && !o.selector.Matches(labels.Set(p.Labels)) {
		return podFacts{}
	}
	return podFacts{counted: true, fullyLabeled: o.template.Matches(labels.Set(p.Labels)), ready: isPodReady(p)}
}

func (o *ownerTally) set(key string, f podFacts) {
	o.remove(key)
	if f.counted {
		o.facts[key] = f
		o.counts.add(f, 1)
	}
}

func (o *ownerTally) remove(key string) {
	if f, ok := o.facts[key]; ok {
		o.counts.add(f, -1)
		delete(o.facts, key)
	}
}

func (c *replicaCounts) add(f podFacts, sign int32) {
	if !f.counted {
		return
	}
	c.replicas += sign
	if f.fullyLabeled {
		c.fullyLabeled += sign
	}
	if f.ready {
		c.ready += sign
	}
}

func selectorKey(sel labels.Selector) string {
	if sel == nil {
		return "<all>"
	}
	return sel.String()
}
