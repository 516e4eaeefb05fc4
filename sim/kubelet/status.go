package kubelet

import (
	"cmp"
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// statusManager is pkg/kubelet/status/status_manager.go: the kubelet's
// view of each pod's status, versioned, written to the apiserver by the
// kubelet/status-manager goroutine: at once for each change, and every
// 10s for whatever is not yet in sync (syncBatch).
type statusManager struct {
	k        *Kubelet
	mu       sync.Mutex
	statuses map[types.UID]*versionedStatus
	synced   map[types.UID]uint64 // apiStatusVersions
	ch       chan *syncRequest    // podStatusChannel, capacity 1000 (pointers: 8 KB a node, not 72)
}

type versionedStatus struct {
	status    corev1.PodStatus
	version   uint64
	name, ns  string
	cause     trace.SpanContext
	terminate bool
}

type syncRequest struct {
	uid   types.UID
	cause trace.SpanContext
}

func newStatusManager(k *Kubelet) *statusManager {
	return &statusManager{k: k, statuses: map[types.UID]*versionedStatus{}, synced: map[types.UID]uint64{}, ch: make(chan *syncRequest, 1000)}
}

// start is manager.Start: go wait.Forever(func() { select { podStatusChannel → syncPod; syncTicker → syncBatch } }, 0).
func (m *statusManager) start(ctx context.Context) {
	m.k.rt.Go(ctx, "kubelet/status-manager", func(ctx context.Context) {
		ticker := m.k.rt.Clock().NewTicker(statusSyncPeriod)
		defer ticker.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case r := <-m.ch:
				clock.TakeTurn(m.k.rt.Clock(), m.k.rt.Instance()+" status-manager "+string(r.uid))
				ictx, sp := goroutine.Iterate(ctx, "syncPod", trace.WithLinks(goroutine.Cause(r.cause, string(r.uid))))
				m.syncPod(ictx, r.uid)
				sp.End()
			case <-ticker.C():
				goroutine.Tick(ctx, "syncBatch", statusSyncPeriod, m.syncBatch)
			}
		}
	}, goroutine.WithKind(catalog.KindForever))
}

func (m *statusManager) get(uid types.UID) (corev1.PodStatus, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.statuses[uid]
	if !ok {
		return corev1.PodStatus{}, false
	}
	return s.status, true
}

// phase is the phase of the status the manager holds for a pod: what
// podIsTerminated asks many times a second, without copying the status.
func (m *statusManager) phase(uid types.UID) (corev1.PodPhase, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.statuses[uid]
	if !ok {
		return "", false
	}
	return s.status.Phase, true
}

// setPodStatus is SetPodStatus: a changed status gets a new version and a
// sync request.
func (m *statusManager) setPodStatus(ctx context.Context, pod *corev1.Pod, status corev1.PodStatus) {
	m.mu.Lock()
	vs, changed := m.updateLocked(ctx, pod, status)
	m.mu.Unlock()
	if changed {
		m.requestSync(ctx, pod.UID, vs)
	}
}

// updateLocked stores a status unless it is unchanged. A pod seen being
// deleted stays so (its status is retried until it can be deleted).
func (m *statusManager) updateLocked(ctx context.Context, pod *corev1.Pod, status corev1.PodStatus) (*versionedStatus, bool) {
	old, ok := m.statuses[pod.UID]
	terminate := pod.DeletionTimestamp != nil || ok && old.terminate
	if ok && equalStatus(old.status, status) && terminate == old.terminate {
		return old, false
	}
	if ok && status.StartTime == nil {
		status.StartTime = old.status.StartTime
	}
	vs := &versionedStatus{status: status, name: pod.Name, ns: pod.Namespace, cause: trace.SpanContextFromContext(ctx), terminate: terminate}
	if ok {
		vs.version = old.version + 1
	} else {
		vs.version = 1
	}
	m.statuses[pod.UID] = vs
	return vs, true
}

func (m *statusManager) requestSync(ctx context.Context, uid types.UID, vs *versionedStatus) {
	goroutine.SpanFrom(ctx).AddEvent("SetPodStatus", attribute.String("k8s.pod.phase", string(vs.status.Phase)),
		attribute.Int64("kubelet.status_version", int64(vs.version)))
	select {
	case m.ch <- &syncRequest{uid: uid, cause: trace.SpanContextFromContext(ctx)}:
	default: // the batch sync will catch up
	}
}

// setContainerReadiness is SetContainerReadiness (from the prober): the
// pod is the pod manager's current one (GetPodByUID), and the change is
// made to the status held now, under the lock.
func (m *statusManager) setContainerReadiness(ctx context.Context, uid types.UID, container string, ready bool) {
	pod, ok := m.k.pods.get(uid)
	if !ok {
		return
	}
	m.mu.Lock()
	old, ok := m.statuses[uid]
	if !ok {
		m.mu.Unlock()
		return
	}
	status := *old.status.DeepCopy()
	for i := range status.ContainerStatuses {
		if status.ContainerStatuses[i].Name == container {
			status.ContainerStatuses[i].Ready = ready
		}
	}
	setReadyCondition(&status, pod, m.k.rt.Clock().Now())
	vs, changed := m.updateLocked(ctx, pod, status)
	m.mu.Unlock()
	if changed {
		m.requestSync(ctx, uid, vs)
	}
}

// syncBatch writes every status newer than what the apiserver has.
func (m *statusManager) syncBatch(ctx context.Context) {
	m.mu.Lock()
	type pod struct {
		uid      types.UID
		ns, name string
	}
	var due []pod
	for uid, s := range m.statuses {
		// needsUpdate, or couldBeDeleted: a terminating pod is retried
		// until its volumes are gone and it can be deleted.
		if m.synced[uid] < s.version || s.terminate {
			due = append(due, pod{uid, s.ns, s.name})
		}
	}
	m.mu.Unlock()
	if len(due) == 0 {
		return
	}
	// By namespace and name, not in map order: the writes come in the same
	// order every run.
	slices.SortFunc(due, func(a, b pod) int {
		return cmp.Or(strings.Compare(a.ns, b.ns), strings.Compare(a.name, b.name), strings.Compare(string(a.uid), string(b.uid)))
	})
	goroutine.SpanFrom(ctx).SetAttributes(attribute.Int("k8s.pods", len(due)))
	for _, p := range due {
		m.syncPod(ctx, p.uid)
	}
}

// syncPod writes one pod's status (GET, then PUT pods/<p>/status; PATCH
// today), and deletes a terminated pod being deleted (grace 0, UID
// precondition), which ends its graceful deletion.
func (m *statusManager) syncPod(ctx context.Context, uid types.UID) {
	m.mu.Lock()
	vs, ok := m.statuses[uid]
	if !ok {
		m.mu.Unlock()
		return
	}
	vs = &versionedStatus{status: *vs.status.DeepCopy(), version: vs.version, name: vs.name, ns: vs.ns, terminate: vs.terminate}
	m.mu.Unlock()
	client := m.k.o.Cluster.Client.CoreV1().Pods(vs.ns)
	sp := goroutine.SpanFrom(ctx)
	sp.SetAttributes(attribute.String("k8s.pod.name", vs.name), attribute.String("k8s.namespace.name", vs.ns),
		attribute.String(catalog.AttrObjectKey, vs.ns+"/"+vs.name), attribute.String("k8s.pod.phase", string(vs.status.Phase)))
	var pod *corev1.Pod
	err := api(ctx, "pods.Get", func(ctx context.Context) (err error) {
		pod, err = client.Get(ctx, vs.name, metav1.GetOptions{})
		return err
	})
	if apierrors.IsNotFound(err) {
		return // the pod is gone; RemoveOrphanedStatuses forgets it
	}
	if err != nil {
		return
	}
	// A static pod's status goes to its mirror pod; any other pod must be
	// the very one the status is about.
	if pod.UID != uid && !isMirror(pod) {
		return
	}
	if !reflect.DeepEqual(&pod.Status, &vs.status) {
		newPod := pod.DeepCopy()
		newPod.Status = vs.status
		if m.k.modern {
			err = api(ctx, "pods.PatchStatus", func(ctx context.Context) error {
				patch, _ := json.Marshal(map[string]any{"status": vs.status})
				_, err := client.Patch(ctx, vs.name, types.StrategicMergePatchType, patch, metav1.PatchOptions{}, "status")
				return err
			})
		} else {
			err = api(ctx, "pods.UpdateStatus", func(ctx context.Context) error {
				_, err := client.UpdateStatus(ctx, newPod, metav1.UpdateOptions{})
				return err
			})
		}
		if err != nil {
			return
		}
	}
	m.mu.Lock()
	m.synced[uid] = vs.version
	m.mu.Unlock()
	if vs.terminate && pod.UID == uid && !anyRunning(m.k.cache.get(uid)) && (!m.k.modern || m.k.volumes.mountedOf(uid) == 0) {
		// canBeDeleted: no container of the pod runs (v1.5); today its
		// volumes must also be cleaned up.
		grace := int64(0)
		api(ctx, "pods.Delete", func(ctx context.Context) error {
			return client.Delete(ctx, vs.name, metav1.DeleteOptions{GracePeriodSeconds: &grace,
				Preconditions: metav1.NewUIDPreconditions(string(uid))})
		}, attribute.Int("k8s.delete.grace_period_s", 0))
	}
}

// removeOrphaned is RemoveOrphanedStatuses: forget pods that are gone.
func (m *statusManager) removeOrphaned(desired map[types.UID]bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for uid := range m.statuses {
		if !desired[uid] {
			delete(m.statuses, uid)
			delete(m.synced, uid)
		}
	}
}

// equalStatus compares statuses as isStatusEqual does, ignoring the
// conditions' probe and transition times.
func equalStatus(a, b corev1.PodStatus) bool {
	if len(a.Conditions) != len(b.Conditions) {
		return false
	}
	for i := range a.Conditions {
		ca, cb := a.Conditions[i], b.Conditions[i]
		ca.LastProbeTime, ca.LastTransitionTime = metav1.Time{}, metav1.Time{}
		cb.LastProbeTime, cb.LastTransitionTime = metav1.Time{}, metav1.Time{}
		if !reflect.DeepEqual(&ca, &cb) {
			return false
		}
	}
	a.Conditions, b.Conditions = nil, nil
	return reflect.DeepEqual(&a, &b)
}
