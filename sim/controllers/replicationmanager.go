package controllers

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
	"github.com/kubeloom/kubeloom/sim/workqueue"
)

// fullControllerResyncPeriod is the RC informer's resync
// (FullControllerResyncPeriod, 10m in v1.5).
const fullControllerResyncPeriod = 10 * time.Minute

// ReplicationManager (pkg/controller/replication/replication_controller.go,
// v1.5): its own ReplicationControllers informer, the shared Pods one
// through a dummy controller, workers syncReplicationController.
func startReplicationManager(ctx context.Context, c *Context) string {
	rm := newReplicationManager(ctx, c)
	goroutine.RuntimeFrom(ctx).Go(ctx, "controller/replicationcontroller/run", func(ctx context.Context) {
		rm.rcInf.Run(ctx)     // go rm.rcController.Run(stopCh)
		rm.pods.RunDummy(ctx) // go rm.podController.Run(stopCh)
		rm.queue.Workers(ctx, "controller/replicationcontroller/worker", int(c.Config.ConcurrentRCSyncs), "syncReplicationController", rm.sync)
		<-ctx.Done()
	})
	return ""
}

// newReplicationManager is NewReplicationManager: its informer, event
// pipeline, queue and handlers. Nothing runs until startReplicationManager
// runs it.
func newReplicationManager(ctx context.Context, c *Context) *replicationManager {
	rm := &replicationManager{c: c, rcInf: c.NewInformer("replicationcontrollers", fullControllerResyncPeriod, informer.Private), pods: c.Informers.Informer("pods")}
	rm.podsSynced = rm.pods.HasSynced
	events := c.NewEvents(ctx, "replication-controller", true, true)
	rm.pc = podControl{client: c.Client, recorder: events.Recorder(ctx)}
	rm.exp = newExpectations(goroutine.RuntimeFrom(ctx).Clock().Now)
	rm.queue = workqueue.New(ctx, "replicationmanager")
	rm.rcInf.AddHandler(ctx, enqueueHandlers("replication-manager", rm.queue))
	addPodControllerUIDIndex(rm.pods)
	rm.tally = newReplicaTally(rm.pods)
	rm.pods.AddHandler(ctx, podOwnerHandlers("replication-manager", "ReplicationController", rm.queue, rm.exp))
	return rm
}

type replicationManager struct {
	c     *Context
	rcInf *informer.Informer
	pods  *informer.Informer
	// podsSynced is rm.podStoreSynced: the pods informer's HasSynced (a
	// test's cache is full from the start).
	podsSynced func() bool
	queue      *workqueue.Queue
	exp        *expectations
	tally      *replicaTally
	pc         podControl
}

// sync is syncReplicationController. v1.5 has no WaitForCacheSync here:
// until the pods have synced it waits 100ms and requeues the key.
func (rm *replicationManager) sync(ctx context.Context, key string) error {
	if !rm.podsSynced() {
		goroutine.SpanFrom(ctx).AddEvent("Waiting for pods controller to sync, requeuing rc")
		rm.queue.AddAfter(ctx, key, 100*time.Millisecond)
		return nil
	}
	rc, ok := get[*corev1.ReplicationController](rm.rcInf, key)
	if !ok {
		rm.exp.forget(key)
		return nil
	}
	if rc.Spec.Template == nil || len(rc.Spec.Selector) == 0 {
		return nil
	}
	spec := replicaSet{obj: rc, meta: rc, gvk: corev1.SchemeGroupVersion.WithKind("ReplicationController"), selector: labels.SelectorFromSet(rc.Spec.Selector),
		replicas: int(replicasOr1(rc.Spec.Replicas)), template: rc.Spec.Template, minReady: rc.Spec.MinReadySeconds}
	n, pods := rm.tally.countsOf(spec, goroutine.RuntimeFrom(ctx).Clock().Now())
	if rm.exp.satisfied(key) && rc.DeletionTimestamp == nil {
		if err := manageReplicas(ctx, rm.pc, rm.exp, key, spec, rm.pods, int(n.replicas), pods); err != nil {
			return err
		}
	}
	was := replicaCounts{rc.Status.Replicas, rc.Status.FullyLabeledReplicas, rc.Status.ReadyReplicas, rc.Status.AvailableReplicas}
	if n == was && rc.Status.ObservedGeneration == rc.Generation {
		return nil
	}
	upd := rc.DeepCopy()
	upd.Status = corev1.ReplicationControllerStatus{Replicas: n.replicas, FullyLabeledReplicas: n.fullyLabeled, ReadyReplicas: n.ready,
		AvailableReplicas: n.available, ObservedGeneration: rc.Generation}
	_, err := call(ctx, "replicationcontrollers.UpdateStatus", key, func(ctx context.Context) (*corev1.ReplicationController, error) {
		return rm.c.Client.CoreV1().ReplicationControllers(rc.Namespace).UpdateStatus(ctx, upd, metav1.UpdateOptions{})
	})
	return err
}
