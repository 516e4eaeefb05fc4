package kubelet

import (
	"context"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeloom/kubeloom/sim/catalog"
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
	k           *Kubelet
	mu          sync.Mutex
	updates     map[types.UID]chan workUpdate
	cancel      map[types.UID]context.CancelFunc
	isWorking   map[types.UID]bool
	undelivered map[types.UID]workUpdate
}

func newPodWorkers(k *Kubelet) *podWorkers {
	return &podWorkers{k: k, updates: map[types.UID]chan workUpdate{}, cancel: map[types.UID]context.CancelFunc{},
		isWorking: map[types.UID]bool{}, undelivered: map[types.UID]workUpdate{}}
}

// update is UpdatePod.
func (w *podWorkers) update(ctx context.Context, u workUpdate) {
	uid := u.pod.UID
	w.mu.Lock()
	defer w.mu.Unlock()
	ch, ok := w.updates[uid]
	if !ok {
		ch = make(chan workUpdate, 1)
		w.updates[uid] = ch
		wctx, cancel := context.WithCancel(ctx)
		w.cancel[uid] = cancel
		// go func() { defer runtime.HandleCrash(); p.managePodLoop(podUpdates) }()
		w.k.rt.Go(wctx, "kubelet/pod-worker", func(ctx context.Context) { w.managePodLoop(ctx, ch) },
			goroutine.WithAttributes(podAttrs(u.pod)...), goroutine.WithLinks(goroutine.Cause(u.cause, key(u.pod))),
			goroutine.WithIterationName("syncPod"))
	}
	if !w.isWorking[uid] {
		w.isWorking[uid] = true
		ch <- u
		return
	}
	// A kill is never replaced by a plain update.
	if prev, ok := w.undelivered[uid]; !ok || prev.kill == nil {
		w.undelivered[uid] = u
	}
}

// managePodLoop syncs the pod for each update: it waits until the pod
// cache is newer than its last sync (PLEG has relisted), runs syncPod and
// re-queues the pod: after --sync-frequency (1m), or after 10s on error.
func (w *podWorkers) managePodLoop(ctx context.Context, ch chan workUpdate) {
	var lastSyncTime = w.k.rt.Clock().Now().Add(-1)
	for {
		var u workUpdate
		select {
		case <-ctx.Done():
			return
		case u = <-ch:
		}
		// status, err := p.podCache.GetNewerThan(podUID, lastSyncTime)
		if newer := w.k.cache.newerThan(lastSyncTime); newer != nil {
			select {
			case <-ctx.Done():
				return
			case <-newer:
			}
		}
		ictx, sp := goroutine.Iterate(ctx, "syncPod", trace.WithAttributes(append(podAttrs(u.pod),
			attribute.String("kubelet.update_type", u.updateType))...), trace.WithLinks(goroutine.Cause(u.cause, key(u.pod))))
		err := w.k.syncPod(ictx, u)
		sp.RecordError(err)
		sp.End()
		lastSyncTime = w.k.rt.Clock().Now()
		w.wrapUp(u.pod.UID, err)
	}
}

// wrapUp re-queues the pod and hands the worker its next update, if any.
func (w *podWorkers) wrapUp(uid types.UID, err error) {
	if err != nil {
		w.k.workQueue.enqueue(uid, backOffPeriod)
	} else {
		w.k.workQueue.enqueue(uid, resyncInterval)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if u, ok := w.undelivered[uid]; ok {
		if ch, ok := w.updates[uid]; ok {
			ch <- u
		}
		delete(w.undelivered, uid)
		return
	}
	w.isWorking[uid] = false
}

// forget stops the worker of a pod that is gone (ForgetWorker).
func (w *podWorkers) forget(uid types.UID) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	cancel, ok := w.cancel[uid]
	if !ok {
		return false
	}
	cancel()
	delete(w.cancel, uid)
	delete(w.updates, uid)
	delete(w.isWorking, uid)
	delete(w.undelivered, uid)
	return true
}

// forgetNonExisting is ForgetNonExistingPodWorkers; it returns how many it stopped.
func (w *podWorkers) forgetNonExisting(desired map[types.UID]bool) int {
	w.mu.Lock()
	var gone []types.UID
	for uid := range w.updates {
		if !desired[uid] {
			gone = append(gone, uid)
		}
	}
	w.mu.Unlock()
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
