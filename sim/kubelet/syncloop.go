package kubelet

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// syncLoop is Kubelet.syncLoop: the main loop that reacts to pod updates,
// PLEG events, the 1s sync tick and the 2s housekeeping tick. Each arm of
// syncLoopIteration's select is an iteration span of kubelet/main-loop,
// named after its channel.
func (k *Kubelet) syncLoop(ctx context.Context) {
	ctx, sp := goroutine.Start(ctx, "syncLoop")
	defer sp.End()
	clk := k.rt.Clock()
	syncTicker := clk.NewTicker(syncLoopTick)
	defer syncTicker.Stop()
	housekeepingTicker := clk.NewTicker(housekeepingPeriod)
	defer housekeepingTicker.Stop()
	plegCh := k.pleg.events
	// While the runtime is down, v1.3–1.5 sleep 5s before looking again;
	// since 1.7 the sleep backs off from 100ms to 5s.
	base, max := 5*time.Second, 5*time.Second
	if k.modern {
		base = 100 * time.Millisecond
	}
	backoff := base
	for ctx.Err() == nil {
		if err := k.state.runtimeErrors(clk.Now()); err != nil {
			// glog.Infof("skipping pod synchronization - %v", rs); time.Sleep(duration)
			goroutine.Tick(ctx, "skipping pod synchronization", 0, func(ctx context.Context) {
				goroutine.SpanFrom(ctx).SetAttributes(attribute.String("error", err.Error()))
			})
			t := clk.NewTimer(backoff)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C():
			}
			backoff = min(max, 2*backoff)
			continue
		}
		backoff = base
		// Go's select picks at random among ready arms (so does the real
		// syncLoopIteration); kubeloom takes a ready arm in the order the
		// select lists them, so that runs repeat, and so that a housekeeping
		// tick can never run between a source's first update and the ADD it
		// queued, which would kill the pods a restarted kubelet has not
		// re-added yet. Only with no arm ready does it wait on them all.
		select {
		case u := <-k.config.updates:
			k.onConfig(ctx, u)
			continue
		default:
		}
		select {
		case e := <-plegCh:
			k.onPLEG(ctx, e)
			continue
		default:
		}
		select {
		case <-syncTicker.C():
			k.onSyncTick(ctx)
			continue
		default:
		}
		select {
		case <-ctx.Done():
			return
		case u := <-k.config.updates:
			k.onConfig(ctx, u)
		case e := <-plegCh:
			k.onPLEG(ctx, e)
		case <-syncTicker.C():
			k.onSyncTick(ctx)
		case <-housekeepingTicker.C():
			k.onHousekeeping(ctx)
		}
	}
}

// The arms of syncLoopIteration, each an iteration of kubelet/main-loop.

func (k *Kubelet) onConfig(ctx context.Context, u podUpdate) {
	goroutine.Tick(ctx, "configCh", 0, func(ctx context.Context) { k.handleConfig(ctx, u) })
}

func (k *Kubelet) onPLEG(ctx context.Context, e *lifecycleEvent) {
	goroutine.Tick(ctx, "plegCh", 0, func(ctx context.Context) { k.handlePLEG(ctx, e) })
}

func (k *Kubelet) onSyncTick(ctx context.Context) {
	goroutine.Tick(ctx, "syncCh", syncLoopTick, func(ctx context.Context) {
		if pods := k.podsOf(k.workQueue.getWork()); len(pods) > 0 {
			k.handlePodSyncs(ctx, pods, "")
		}
	})
}

func (k *Kubelet) onHousekeeping(ctx context.Context) {
	goroutine.Tick(ctx, "housekeepingCh", housekeepingPeriod, func(ctx context.Context) {
		if !k.config.allReady() {
			// glog.V(4).Infof("SyncLoop (housekeeping, skipped): sources aren't ready yet.")
			goroutine.SpanFrom(ctx).SetAttributes(attribute.Bool("kubelet.sources_ready", false))
			return
		}
		k.handlePodCleanups(ctx)
	})
}

func (k *Kubelet) podsOf(uids []types.UID) []*corev1.Pod {
	var pods []*corev1.Pod
	for _, uid := range uids {
		if p, ok := k.pods.get(uid); ok {
			pods = append(pods, p)
		}
	}
	return sortedPods(pods)
}

// handleConfig dispatches one update from PodConfig.
func (k *Kubelet) handleConfig(ctx context.Context, u podUpdate) {
	sp := goroutine.SpanFrom(ctx)
	sp.SetAttributes(attribute.String("kubelet.pod_update.op", u.op), attribute.String(catalog.AttrPodSource, u.source),
		attribute.Int("k8s.pods", len(u.pods)))
	sp.AddLink(goroutine.Cause(u.cause, u.source))
	switch u.op {
	case opAdd:
		k.handlePodAdditions(ctx, u.pods, u.cause)
	case opUpdate, opDelete:
		// DELETE is treated as an UPDATE because of graceful deletion.
		k.handlePodUpdates(ctx, u.pods, u.cause)
	case opRemove:
		k.handlePodRemoves(ctx, u.pods)
	case opReconcile:
		k.handlePodReconcile(ctx, u.pods)
	}
}

// handlePodAdditions is HandlePodAdditions: each new pod goes to the pod
// manager and a worker, and gets its probe workers.
func (k *Kubelet) handlePodAdditions(ctx context.Context, pods []*corev1.Pod, cause trace.SpanContext) {
	k.handlePods(ctx, "HandlePodAdditions", "create", pods, cause)
}

// handlePodUpdates is HandlePodUpdates.
func (k *Kubelet) handlePodUpdates(ctx context.Context, pods []*corev1.Pod, cause trace.SpanContext) {
	k.handlePods(ctx, "HandlePodUpdates", "update", pods, cause)
}

// handlePods stores each pod and dispatches it to its worker; a mirror pod
// instead syncs its static pod. A created pod also gets its probe workers.
func (k *Kubelet) handlePods(ctx context.Context, name, updateType string, pods []*corev1.Pod, cause trace.SpanContext) {
	ctx, sp := goroutine.Start(ctx, name, podNames(pods))
	defer sp.End()
	for _, p := range pods {
		k.pods.update(p)
		if isMirror(p) {
			k.handleMirrorPod(ctx, p, cause)
			continue
		}
		k.dispatchWork(ctx, p, updateType, cause)
		if updateType == "create" {
			k.probes.addPod(ctx, p)
		}
	}
}

func (k *Kubelet) handlePodRemoves(ctx context.Context, pods []*corev1.Pod) {
	ctx, sp := goroutine.Start(ctx, "HandlePodRemoves", podNames(pods))
	defer sp.End()
	for _, p := range pods {
		k.pods.remove(p)
		if isMirror(p) {
			k.handleMirrorPod(ctx, p, sp.SpanContext())
			continue
		}
		// kl.deletePod(pod): stop the worker, then have the pod killed.
		k.workers.forget(p.UID)
		k.killUnwanted(ctx, p)
		k.probes.removePod(p)
	}
}

func (k *Kubelet) handlePodReconcile(ctx context.Context, pods []*corev1.Pod) {
	_, sp := goroutine.Start(ctx, "HandlePodReconcile", podNames(pods))
	defer sp.End()
	for _, p := range pods {
		k.pods.update(p)
	}
}

// handleMirrorPod syncs the static pod a mirror pod belongs to.
func (k *Kubelet) handleMirrorPod(ctx context.Context, mirror *corev1.Pod, cause trace.SpanContext) {
	for _, p := range k.pods.list() {
		if fullName(p) == fullName(mirror) {
			k.dispatchWork(ctx, p, "update", cause)
		}
	}
}

// handlePodSyncs is HandlePodSyncs: a sync of each pod by its worker.
func (k *Kubelet) handlePodSyncs(ctx context.Context, pods []*corev1.Pod, why string) {
	ctx, sp := goroutine.Start(ctx, "HandlePodSyncs", podNames(pods))
	defer sp.End()
	if why != "" {
		sp.SetAttributes(attribute.String("kubelet.sync_reason", why))
	}
	for _, p := range pods {
		k.dispatchWork(ctx, p, "sync", sp.SpanContext())
	}
}

// handlePLEG is the plegCh arm: a lifecycle event makes the pod sync.
func (k *Kubelet) handlePLEG(ctx context.Context, e *lifecycleEvent) {
	sp := goroutine.SpanFrom(ctx)
	sp.SetAttributes(attribute.String("kubelet.pleg.event", e.typ), attribute.String("k8s.pod.uid", string(e.uid)),
		attribute.String(catalog.AttrContainer, e.container))
	sp.AddLink(goroutine.Cause(e.cause, string(e.uid)))
	if p, ok := k.pods.get(e.uid); ok {
		k.handlePodSyncs(ctx, []*corev1.Pod{p}, e.typ)
	}
}

// dispatchWork hands a pod to its worker, unless it has terminated (a
// terminated pod that is being deleted only needs its status written).
func (k *Kubelet) dispatchWork(ctx context.Context, p *corev1.Pod, updateType string, cause trace.SpanContext) {
	if k.podIsTerminated(p) && p.DeletionTimestamp == nil {
		return
	}
	k.workers.update(ctx, workUpdate{pod: p, updateType: updateType, cause: cause})
}

// handlePodCleanups is HandlePodCleanups, the housekeeping: forget the
// workers and probes of pods that are gone, kill running pods nobody
// wants, delete orphaned mirror pods.
func (k *Kubelet) handlePodCleanups(ctx context.Context) {
	all := k.pods.list()
	known := make(map[types.UID]bool, len(all))
	want := make(map[types.UID]bool, len(all)) // filterOutTerminatedPods
	for _, p := range all {
		known[p.UID] = true
		if !k.podIsTerminated(p) {
			want[p.UID] = true
		}
	}
	forgotten := k.workers.forgetNonExisting(want)
	k.probes.cleanup(want)
	k.status.removeOrphaned(known)
	k.backoff.gc(k.rt.Clock().Now())
	var unwanted []*corev1.Pod
	for uid, cs := range k.cache.snapshot() {
		if want[uid] || !anyRunning(cs) {
			continue
		}
		unwanted = append(unwanted, &corev1.Pod{ObjectMeta: podMetaOf(uid, cs)})
	}
	orphans := k.orphanedMirrorPods()
	if forgotten == 0 && len(unwanted) == 0 && len(orphans) == 0 {
		return
	}
	ctx, sp := goroutine.Start(ctx, "HandlePodCleanups", trace.WithAttributes(
		attribute.Int("kubelet.workers_forgotten", forgotten), attribute.Int("kubelet.pods_unwanted", len(unwanted)),
		attribute.Int("kubelet.mirror_pods_orphaned", len(orphans))))
	defer sp.End()
	for _, p := range sortedPods(unwanted) {
		k.killUnwanted(ctx, p)
	}
	for _, m := range orphans {
		k.deleteMirrorPod(ctx, m)
	}
}

func podNames(pods []*corev1.Pod) trace.SpanStartOption {
	names := make([]string, len(pods))
	for i, p := range pods {
		names[i] = p.Namespace + "/" + p.Name
	}
	return trace.WithAttributes(attribute.StringSlice("kubelet.pods", names))
}
