package kubelet

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
)

// volumeManager is pkg/kubelet/volumemanager: the desired state of the
// world (the volumes of the pods the kubelet runs), filled by
// kubelet/volume-dswp, and the actual state (what is mounted), moved
// towards it by kubelet/volume-reconciler. syncPod waits until its pod's
// volumes are mounted (WaitForAttachAndMount).
type volumeManager struct {
	k            *Kubelet
	mu           sync.Mutex
	desired      map[types.UID]map[string]corev1.Volume // pod → volume name → volume
	mounted      map[types.UID]map[string]bool
	retry        map[string]time.Time // volume key → when a failed mount may be retried
	delay        map[string]time.Duration
	lastPodCheck time.Time

	// What the loops saw last (populate's pod manager generation, whether
	// it left pods unknown; whether the desired state changed since
	// reconcile last looked): a loop whose inputs have not changed since
	// it last found nothing to do finds nothing again, so it need not
	// walk every pod and volume again (populatorLoopFunc and the
	// reconciler walk them every 100ms).
	seenGen   uint64
	unsettled bool // populate left pods out of the desired state, to look at again
	dirty     bool // the desired state changed since reconcile last looked
}

func newVolumeManager(k *Kubelet) *volumeManager {
	return &volumeManager{k: k, desired: map[types.UID]map[string]corev1.Volume{}, mounted: map[types.UID]map[string]bool{},
		retry: map[string]time.Time{}, delay: map[string]time.Duration{}}
}

// run is volumeManager.Run: start the populator and the reconciler, then
// wait for the stop.
func (vm *volumeManager) run(ctx context.Context) {
	_, sp := goroutine.Iterate(ctx, "Run")
	// go vm.desiredStateOfWorldPopulator.Run(stopCh)
	vm.k.rt.Until(ctx, "kubelet/volume-dswp", volumeLoopPeriod, vm.populate, goroutine.WithIterationName("populatorLoopFunc"))
	// go vm.reconciler.Run(sourcesReady, stopCh)
	vm.k.rt.Until(ctx, "kubelet/volume-reconciler", volumeLoopPeriod, vm.reconcile, goroutine.WithIterationName("reconcile"))
	sp.End()
	<-ctx.Done()
}

// populate is populatorLoopFunc: add the volumes of new pods; every 2s,
// remove the pods that are gone or terminated.
func (vm *volumeManager) populate(ctx context.Context) {
	gen := vm.k.pods.generation()
	pods := vm.k.pods.list()
	if gen != vm.seenGen || vm.unsettled {
		vm.seenGen = gen
		var unknown []*corev1.Pod
		vm.mu.Lock()
		for _, p := range pods {
			if _, known := vm.desired[p.UID]; !known {
				unknown = append(unknown, p)
			}
		}
		vm.mu.Unlock()
		// Only the pods not yet in the desired state need the terminated
		// check (podGone reads the status manager and the pod cache): the
		// answer is the same as checking every pod first.
		vm.unsettled = false
		for _, p := range unknown {
			if vm.podGone(p) || !vm.addPod(ctx, p) {
				vm.unsettled = true
			}
		}
	}
	now := vm.k.rt.Clock().Now()
	if now.Sub(vm.lastPodCheck) < podStatusRecheckPeriod {
		return
	}
	vm.lastPodCheck = now
	// findAndRemoveDeletedPods
	want := map[types.UID]bool{}
	for _, p := range pods {
		if !vm.podGone(p) {
			want[p.UID] = true
		}
	}
	vm.mu.Lock()
	var gone []types.UID
	for uid := range vm.desired {
		if !want[uid] {
			gone = append(gone, uid)
			delete(vm.desired, uid)
		}
	}
	if len(gone) > 0 {
		vm.dirty, vm.unsettled = true, true
	}
	vm.mu.Unlock()
	if len(gone) > 0 {
		_, sp := goroutine.Start(ctx, "findAndRemoveDeletedPods", trace.WithAttributes(attribute.Int("k8s.pods", len(gone))))
		sp.End()
	}
}

// podGone: the pod's volumes are no longer wanted, since it terminated or
// is being deleted and none of its containers runs.
func (vm *volumeManager) podGone(p *corev1.Pod) bool {
	return vm.k.podIsTerminated(p) || p.DeletionTimestamp != nil && !anyRunning(vm.k.cache.get(p.UID))
}

// addPod is processPodVolumes: resolve each volume (a PVC through its PV)
// and add it to the desired state.
// It reports whether the pod is now in the desired state (a claim that is
// not bound yet leaves it out, to retry).
func (vm *volumeManager) addPod(ctx context.Context, p *corev1.Pod) bool {
	ctx, sp := goroutine.Start(ctx, "processPodVolumes", trace.WithAttributes(append(podAttrs(p),
		attribute.Int("k8s.volumes", len(p.Spec.Volumes)))...))
	defer sp.End()
	vols := map[string]corev1.Volume{}
	for _, v := range p.Spec.Volumes {
		if pvc := v.PersistentVolumeClaim; pvc != nil {
			// createVolumeSpec: GET the claim, then its volume.
			var claim *corev1.PersistentVolumeClaim
			err := api(ctx, "persistentvolumeclaims.Get", func(ctx context.Context) (err error) {
				claim, err = vm.k.o.Cluster.Client.CoreV1().PersistentVolumeClaims(p.Namespace).Get(ctx, pvc.ClaimName, metav1.GetOptions{})
				return err
			})
			if err != nil || claim.Spec.VolumeName == "" {
				sp.AddEvent("claim not bound", attribute.String("k8s.pvc.name", pvc.ClaimName))
				return false // retried at the next loop: the pod stays unknown
			}
			if err := api(ctx, "persistentvolumes.Get", func(ctx context.Context) error {
				_, err := vm.k.o.Cluster.Client.CoreV1().PersistentVolumes().Get(ctx, claim.Spec.VolumeName, metav1.GetOptions{})
				return err
			}); err != nil {
				return false
			}
		}
		vols[v.Name] = v
	}
	vm.mu.Lock()
	vm.desired[p.UID] = vols
	vm.dirty = vm.dirty || len(vols) > 0
	vm.mu.Unlock()
	return true
}

// reconcile unmounts what is no longer desired and mounts what is desired
// and not mounted. kubeloom runs the operations inline, where v1.5's
// operation executor starts a goroutine for each.
func (vm *volumeManager) reconcile(ctx context.Context) {
	vm.mu.Lock()
	if !vm.dirty && len(vm.retry) == 0 {
		vm.mu.Unlock()
		return // the same desired and actual states as last time, which matched
	}
	vm.dirty = false
	type op struct {
		uid   types.UID
		vol   corev1.Volume
		mount bool
	}
	var ops []op
	for uid, vols := range vm.mounted {
		for name := range vols {
			if _, ok := vm.desired[uid][name]; !ok {
				ops = append(ops, op{uid: uid, vol: corev1.Volume{Name: name}})
			}
		}
	}
	now := vm.k.rt.Clock().Now()
	for uid, vols := range vm.desired {
		if len(vols) == 0 { // most pods have no volumes: skip the map iterator's set-up
			continue
		}
		for name, v := range vols {
			if !vm.mounted[uid][name] && !now.Before(vm.retry[string(uid)+"/"+name]) {
				ops = append(ops, op{uid: uid, vol: v, mount: true})
			}
		}
	}
	vm.mu.Unlock()
	if len(ops) == 0 {
		return
	}
	sort.Slice(ops, func(i, j int) bool { return string(ops[i].uid)+ops[i].vol.Name < string(ops[j].uid)+ops[j].vol.Name })
	for _, o := range ops {
		if o.mount {
			vm.mount(ctx, o.uid, o.vol)
		} else {
			_, sp := goroutine.Start(ctx, "UnmountVolume.TearDown", trace.WithAttributes(
				attribute.String("k8s.pod.uid", string(o.uid)), attribute.String("k8s.volume.name", o.vol.Name)))
			vm.mu.Lock()
			delete(vm.mounted[o.uid], o.vol.Name)
			if len(vm.mounted[o.uid]) == 0 {
				delete(vm.mounted, o.uid)
			}
			vm.mu.Unlock()
			sp.End()
		}
	}
}

// mount is MountVolume.SetUp of one volume; a config map or secret volume
// reads its object from the apiserver. A failure is retried with an
// exponential back-off (500ms doubling to about 2m, nestedpendingoperations).
func (vm *volumeManager) mount(ctx context.Context, uid types.UID, v corev1.Volume) {
	ctx, sp := goroutine.Start(ctx, "MountVolume.SetUp", trace.WithAttributes(
		attribute.String("k8s.pod.uid", string(uid)), attribute.String("k8s.volume.name", v.Name), attribute.String("k8s.volume.plugin", plugin(v))))
	defer sp.End()
	pod, _ := vm.k.pods.get(uid)
	var err error
	switch {
	case pod == nil:
		err = errors.New("pod is gone")
	case v.ConfigMap != nil:
		err = api(ctx, "configmaps.Get", func(ctx context.Context) error {
			_, err := vm.k.o.Cluster.Client.CoreV1().ConfigMaps(pod.Namespace).Get(ctx, v.ConfigMap.Name, metav1.GetOptions{})
			return err
		})
	case v.Secret != nil:
		err = api(ctx, "secrets.Get", func(ctx context.Context) error {
			_, err := vm.k.o.Cluster.Client.CoreV1().Secrets(pod.Namespace).Get(ctx, v.Secret.SecretName, metav1.GetOptions{})
			return err
		})
	}
	key := string(uid) + "/" + v.Name
	vm.mu.Lock()
	defer vm.mu.Unlock()
	if err != nil {
		sp.RecordError(err)
		d := min(max(500*time.Millisecond, 2*vm.delay[key]), 2*time.Minute+2*time.Second)
		vm.delay[key] = d
		vm.retry[key] = vm.k.rt.Clock().Now().Add(d)
		return
	}
	delete(vm.delay, key)
	delete(vm.retry, key)
	if vm.mounted[uid] == nil {
		vm.mounted[uid] = map[string]bool{}
	}
	vm.mounted[uid][v.Name] = true
}

func plugin(v corev1.Volume) string {
	switch {
	case v.ConfigMap != nil:
		return "kubernetes.io/configmap"
	case v.Secret != nil:
		return "kubernetes.io/secret"
	case v.HostPath != nil:
		return "kubernetes.io/host-path"
	case v.PersistentVolumeClaim != nil:
		return "kubernetes.io/persistent-claim"
	case v.DownwardAPI != nil:
		return "kubernetes.io/downward-api"
	}
	return "kubernetes.io/empty-dir"
}

// The wait of WaitForAttachAndMount (pkg/kubelet/volumemanager/volume_manager.go).
const (
	podAttachAndMountRetryInterval = 300 * time.Millisecond
	// podAttachAndMountTimeout is 2m in v1.5; today's is 2m3s, "slightly
	// offset from 2 minutes to make timeouts due to this constant
	// recognizable".
	podAttachAndMountTimeoutClassic = 2 * time.Minute
	podAttachAndMountTimeoutModern  = 2*time.Minute + 3*time.Second
)

// waitForAttachAndMount is WaitForAttachAndMount: wait until every volume of
// the pod is mounted (verifyVolumesMountedFunc), checking every 300ms.
//
//   - Classic (v1.5): wait.Poll(podAttachAndMountRetryInterval,
//     podAttachAndMountTimeout, …): a poller goroutine per wait
//     (kubelet/volume-mount-poller), the first check 300ms in, so a pod
//     with volumes starts its containers 300ms later at the least.
//   - Modern: wait.PollUntilContextTimeout(ctx, 300ms, 2m3s, true, …): a
//     check at once, then every 300ms on the pod worker.
func (vm *volumeManager) waitForAttachAndMount(ctx context.Context, pod *corev1.Pod) error {
	if len(pod.Spec.Volumes) == 0 {
		return nil
	}
	ctx, sp := goroutine.Start(ctx, "WaitForAttachAndMount", trace.WithAttributes(attribute.Int("k8s.volumes", len(pod.Spec.Volumes))))
	defer sp.End()
	all := func(context.Context) bool { return vm.mountedOf(pod.UID) >= len(pod.Spec.Volumes) }
	var err error
	if vm.k.o.Era == informer.Modern {
		err = goroutine.PollUntilContextTimeout(ctx, podAttachAndMountRetryInterval, podAttachAndMountTimeoutModern, true, all)
	} else {
		err = goroutine.Poll(ctx, "kubelet/volume-mount-poller", podAttachAndMountRetryInterval, podAttachAndMountTimeoutClassic, all,
			goroutine.WithAttributes(podAttrs(pod)...))
	}
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case all(ctx): // the source looks again: mounted in the meantime
		return nil
	}
	err = fmt.Errorf("timeout expired waiting for volumes to attach/mount for pod %q: %d of %d mounted", key(pod), vm.mountedOf(pod.UID), len(pod.Spec.Volumes))
	sp.RecordError(err)
	return err
}

// mountedOf is how many volumes of the pod are mounted: what
// GetMountedVolumesForPod returns to ListVolumesForPod, which the pod's
// volume-stat calculator measures; WaitForAttachAndMount waits for all of
// them, and today's status manager deletes a pod only once none is left.
func (vm *volumeManager) mountedOf(uid types.UID) int {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	return len(vm.mounted[uid])
}

// inUse is GetVolumesInUse, for the node status.
func (vm *volumeManager) inUse() []corev1.UniqueVolumeName {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	var out []corev1.UniqueVolumeName
	for uid, vols := range vm.desired {
		if len(vols) == 0 { // most pods have no volumes: skip the map iterator's set-up
			continue
		}
		for name, v := range vols {
			if v.PersistentVolumeClaim != nil {
				out = append(out, corev1.UniqueVolumeName(plugin(v)+"/"+string(uid)+"-"+name))
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
