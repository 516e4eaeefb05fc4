package kubelet

import (
	"context"
	"slices"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// workUpdate is UpdatePodOptions: a pod to sync, or to kill (eviction).
type workUpdate struct {
	pod        *corev1.Pod
	updateType string // create, update, sync, kill
	kill       *corev1.PodStatus
	cause      trace.SpanContext
}

// podWorkers is pkg/kubelet/pod_workers.go: one kubelet/pod-worker
// goroutine per pod UID, created on the pod's first update, running
// managePodLoop. Its channel holds one update; while the worker is busy
// the latest further update waits in lastUndeliveredWorkUpdate.
type podWorkers struct {
	k       *Kubelet
	mu      sync.Mutex
	workers map[types.UID]*podWorker
}

// podWorker is one worker's state. A pod that comes back with the same UID
// (a static pod's UID is its manifest's hash) gets a new worker: the old
// one's wrap-up must not touch it.
type podWorker struct {
	updates     chan workUpdate
	cancel      context.CancelFunc
	working     bool
	undelivered *workUpdate
}

func newPodWorkers(k *Kubelet) *podWorkers {
	return &podWorkers{k: k, workers: map[types.UID]*podWorker{}}
}

// update is UpdatePod.
func (w *podWorkers) update(ctx context.Context, u workUpdate) {
	uid := u.pod.UID
	w.mu.Lock()
	defer w.mu.Unlock()
	pw, ok := w.workers[uid]
	if !ok {
		pw = &podWorker{updates: make(chan workUpdate, 1)}
		w.workers[uid] = pw
		wctx, cancel := context.WithCancel(ctx)
		pw.cancel = cancel
		// go func() { defer runtime.HandleCrash(); p.managePodLoop(podUpdates) }()
		w.k.rt.Go(wctx, "kubelet/pod-worker", func(ctx context.Context) { w.managePodLoop(ctx, pw) },
			goroutine.WithAttributes(podAttrs(u.pod)...), goroutine.WithLinks(goroutine.Cause(u.cause, key(u.pod))),
			goroutine.WithIterationName("syncPod"))
	}
	if !pw.working {
		pw.working = true
		pw.updates <- u // the channel is empty while the worker is not working
		return
	}
	// A kill is never replaced by a plain update.
	if pw.undelivered == nil || pw.undelivered.kill == nil {
		pw.undelivered = &u
	}
}

// managePodLoop syncs the pod for each update: it waits until the pod
// cache is newer than its last sync (PLEG has relisted), runs syncPod and
// re-queues the pod: after --sync-frequency (1m), or after 10s on error.
func (w *podWorkers) managePodLoop(ctx context.Context, pw *podWorker) {
	var lastSyncTime = w.k.rt.Clock().Now().Add(-1)
	for {
		var u workUpdate
		select {
		case <-ctx.Done():
			return
		case u = <-pw.updates:
		}
		// status, err := p.podCache.GetNewerThan(podUID, lastSyncTime)
		if newer := w.k.cache.newerThan(lastSyncTime); newer != nil {
			select {
			case <-ctx.Done():
				return
			case <-newer:
			}
		}
		// Pod workers woken together (one relist, one config update) sync in
		// an order of their own, not the scheduler's (clock.TakeTurn): they
		// share the node's runtime and write to the apiserver.
		clock.TakeTurn(w.k.rt.Clock(), w.k.rt.Instance()+" pod-worker "+string(u.pod.UID))
		ictx, sp := goroutine.Iterate(ctx, "syncPod", trace.WithAttributes(append(podAttrs(u.pod),
			attribute.String("kubelet.update_type", u.updateType))...), trace.WithLinks(goroutine.Cause(u.cause, key(u.pod))))
		err := w.k.syncPod(ictx, u)
		sp.RecordError(err)
		sp.End()
		if ctx.Err() != nil {
			return
		}
		lastSyncTime = w.k.rt.Clock().Now()
		w.wrapUp(u.pod.UID, pw, err)
	}
}

// wrapUp re-queues the pod and hands the worker its next update, if any.
func (w *podWorkers) wrapUp(uid types.UID, pw *podWorker, err error) {
	if err != nil {
		w.k.workQueue.enqueue(uid, backOffPeriod)
	} else {
		w.k.workQueue.enqueue(uid, resyncInterval)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if pw.undelivered != nil {
		pw.updates <- *pw.undelivered // the worker has just emptied it
		pw.undelivered = nil
		return
	}
	pw.working = false
}

// forget stops the worker of a pod that is gone (ForgetWorker).
func (w *podWorkers) forget(uid types.UID) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	pw, ok := w.workers[uid]
	if !ok {
		return false
	}
	pw.cancel()
	delete(w.workers, uid)
	return true
}

// forgetNonExisting is ForgetNonExistingPodWorkers; it returns how many it stopped.
func (w *podWorkers) forgetNonExisting(desired map[types.UID]bool) int {
	w.mu.Lock()
	var gone []types.UID
	for uid := range w.workers {
		if !desired[uid] {
			gone = append(gone, uid)
		}
	}
	w.mu.Unlock()
	// In UID order, not map order: the workers wake and end in the order
	// they are cancelled, the same every run.
	slices.Sort(gone)
	for _, uid := range gone {
		w.forget(uid)
	}
	return len(gone)
}

func podAttrs(p *corev1.Pod) []attribute.KeyValue {
	return []attribute.KeyValue{
		attribute.String("k8s.pod.name", p.Name), attribute.String("k8s.namespace.name", p.Namespace),
		attribute.String("k8s.pod.uid", string(p.UID)), attribute.String(catalog.AttrObjectKey, key(p)),
	}
}

func key(p *corev1.Pod) string { return p.Namespace + "/" + p.Name }
