package controllers

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
	"github.com/kubeloom/kubeloom/sim/workqueue"
)

// ReplicaSetController (pkg/controller/replicaset/replica_set.go, v1.5):
// shared ReplicaSets and Pods informers, workers syncReplicaSet.
func startReplicaSet(ctx context.Context, c *Context) string {
	if !c.APIEnabled(c.groupVersion("extensions/v1beta1", "apps/v1")) {
		return "replicasets are not served"
	}
	rsc := newReplicaSetController(ctx, c)
	goroutine.RuntimeFrom(ctx).Go(ctx, "controller/replicaset/run", func(ctx context.Context) {
		if !informer.WaitForCacheSync(ctx, c.Era, "pods", rsc.pods.HasSynced) {
			return
		}
		rsc.queue.Workers(ctx, "controller/replicaset/worker", int(c.Config.ConcurrentRSSyncs), "syncReplicaSet", rsc.sync)
		<-ctx.Done()
	})
	return ""
}

// newReplicaSetController is NewReplicaSetController: its event pipeline,
// queue and handlers on the shared informers.
func newReplicaSetController(ctx context.Context, c *Context) *replicaSetController {
	rsc := &replicaSetController{c: c, rsInf: c.Informers.Informer("replicasets"), pods: c.Informers.Informer("pods")}
	events := c.NewEvents(ctx, "replicaset-controller", true, true)
	rsc.pc = podControl{client: c.Client, recorder: events.Recorder(ctx)}
	rsc.exp = newExpectations(goroutine.RuntimeFrom(ctx).Clock().Now)
	rsc.queue = workqueue.New(ctx, "replicaset")
	rsc.rsInf.AddHandler(ctx, enqueueHandlers("replicaset-controller", rsc.queue))
	addPodControllerUIDIndex(rsc.pods)
	rsc.tally = newReplicaTally(rsc.pods)
	rsc.pods.AddHandler(ctx, podOwnerHandlers("replicaset-controller", "ReplicaSet", rsc.queue, rsc.exp))
	return rsc
}

type replicaSetController struct {
	c     *Context
	rsInf *informer.Informer
	pods  *informer.Informer
	queue *workqueue.Queue
	exp   *expectations
	tally *replicaTally
	pc    podControl
}

func (rsc *replicaSetController) sync(ctx context.Context, key string) error {
	rs, ok := get[*appsv1.ReplicaSet](rsc.rsInf, key)
	if !ok {
		rsc.exp.forget(key) // "ReplicaSet has been deleted"
		return nil
	}
	sel, err := selectorOf(rs.Spec.Selector)
	if err != nil {
		return err
	}
	spec := replicaSet{obj: rs, meta: rs, gvk: appsv1.SchemeGroupVersion.WithKind("ReplicaSet"), selector: sel,
		replicas: int(replicasOr1(rs.Spec.Replicas)), template: &rs.Spec.Template, minReady: rs.Spec.MinReadySeconds}
	n, pods := rsc.tally.countsOf(spec, goroutine.RuntimeFrom(ctx).Clock().Now())
	if rsc.exp.satisfied(key) && rs.DeletionTimestamp == nil {
		if err := manageReplicas(ctx, rsc.pc, rsc.exp, key, spec, rsc.pods, int(n.replicas), pods); err != nil {
			return err
		}
	}
	was := replicaCounts{rs.Status.Replicas, rs.Status.FullyLabeledReplicas, rs.Status.ReadyReplicas, rs.Status.AvailableReplicas}
	if n == was && rs.Status.ObservedGeneration == rs.Generation {
		return nil
	}
	upd := rs.DeepCopy()
	upd.Status = appsv1.ReplicaSetStatus{Replicas: n.replicas, FullyLabeledReplicas: n.fullyLabeled, ReadyReplicas: n.ready,
		AvailableReplicas: n.available, ObservedGeneration: rs.Generation}
	_, err = call(ctx, "replicasets.UpdateStatus", key, func(ctx context.Context) (*appsv1.ReplicaSet, error) {
		return rsc.c.Client.AppsV1().ReplicaSets(rs.Namespace).UpdateStatus(ctx, upd, metav1.UpdateOptions{})
	})
	return err
}

func replicasOr1(r *int32) int32 {
	if r == nil {
		return 1
	}
	return *r
}
