package controllers

import (
	"context"
	"slices"
	"sort"
	"strconv"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeloom/kubeloom/sim/events"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
)

// PersistentVolumeController (pkg/controller/volume/persistentvolume, v1.5),
// the "persistent volume binder": StartControllers calls its Run without
// `go`; Run lists every volume and claim on the caller's goroutine, starts
// its own volume and claim informers and a storage class reflector (all
// resynced every --pvclaimbinder-sync-period, 15s), and returns. Their
// handlers bind each pending claim to the smallest available volume that
// fits, and release volumes whose claim is gone.
func startPersistentVolume(ctx context.Context, c *Context) string {
	pv := newPVController(ctx, c)
	pv.initializeCaches(ctx)
	pv.volumes.Run(ctx) // go ctrl.volumeController.Run(stopCh)
	pv.claims.Run(ctx)  // go ctrl.claimController.Run(stopCh)
	pv.classes.Run(ctx) // go ctrl.classReflector.RunUntil(stopCh)
	return ""
}

// newPVController is NewPersistentVolumeController: its own informers and
// their handlers, its event pipeline, an empty volume cache.
func newPVController(ctx context.Context, c *Context) *pvController {
	period := c.Config.PVClaimBinderSyncPeriod.Duration
	pv := &pvController{c: c,
		volumes: c.NewInformer("persistentvolumes", period, informer.Private),
		claims:  c.NewInformer("persistentvolumeclaims", period, informer.Private),
		classes: c.NewInformer("storageclasses", period, informer.ReflectorOnly),
	}
	pv.recorder = c.NewEvents(ctx, "persistentvolume-controller", false, true).Recorder(ctx)
	pv.volumeCache = map[string]*corev1.PersistentVolume{}
	pv.volumes.AddHandler(ctx, informer.Funcs{HandlerName: "persistentvolume-controller",
		Add:    func(ctx context.Context, obj any) { pv.syncVolume(ctx, obj.(*corev1.PersistentVolume)) },
		Update: func(ctx context.Context, _, obj any) { pv.syncVolume(ctx, obj.(*corev1.PersistentVolume)) },
		Delete: func(ctx context.Context, obj any) {
			if v, ok := untomb(obj).(*corev1.PersistentVolume); ok {
				pv.mu.Lock()
				delete(pv.volumeCache, v.Name)
				pv.mu.Unlock()
			}
		}})
	pv.claims.AddHandler(ctx, informer.Funcs{HandlerName: "persistentvolume-controller",
		Add:    func(ctx context.Context, obj any) { pv.syncClaim(ctx, obj.(*corev1.PersistentVolumeClaim)) },
		Update: func(ctx context.Context, _, obj any) { pv.syncClaim(ctx, obj.(*corev1.PersistentVolumeClaim)) },
		Delete: func(ctx context.Context, obj any) {
			if claim, ok := untomb(obj).(*corev1.PersistentVolumeClaim); ok && claim.Spec.VolumeName != "" {
				if v, ok := get[*corev1.PersistentVolume](pv.volumes, claim.Spec.VolumeName); ok {
					pv.syncVolume(ctx, v)
				}
			}
		}})
	return pv
}

// initializeCaches: a LIST of all volumes and claims, on the caller's
// goroutine, so that the first claim synced sees every volume, not those
// the volume informer has popped so far.
func (pv *pvController) initializeCaches(ctx context.Context) {
	if vols, err := call(ctx, "persistentvolumes.List", "", func(ctx context.Context) (*corev1.PersistentVolumeList, error) {
		return pv.c.Client.CoreV1().PersistentVolumes().List(ctx, metav1.ListOptions{})
	}); err == nil {
		for i := range vols.Items {
			pv.volumeCache[vols.Items[i].Name] = &vols.Items[i]
		}
	}
	call(ctx, "persistentvolumeclaims.List", "", func(ctx context.Context) (*corev1.PersistentVolumeClaimList, error) {
		return pv.c.Client.CoreV1().PersistentVolumeClaims("").List(ctx, metav1.ListOptions{})
	})
}

type pvController struct {
	c                        *Context
	volumes, claims, classes *informer.Informer
	recorder                 events.Recorder
	// mu keeps the two process loops from binding one volume twice (v1.5
	// guards its caches the same way).
	mu sync.Mutex
	// volumeCache is ctrl.volumes: every volume, from the initial LIST and
	// the informer's events.
	volumeCache map[string]*corev1.PersistentVolume
}

// syncClaim binds an unbound claim, or keeps a bound one's phase.
func (pv *pvController) syncClaim(ctx context.Context, claim *corev1.PersistentVolumeClaim) {
	pv.mu.Lock()
	defer pv.mu.Unlock()
	ctx, sp := goroutine.Start(ctx, "syncClaim")
	defer sp.End()
	if claim.Spec.VolumeName != "" || claim.DeletionTimestamp != nil {
		return
	}
	volume := pv.findBestMatch(claim)
	if volume == nil {
		if claim.Status.Phase != corev1.ClaimPending {
			pv.setClaimPhase(ctx, claim, corev1.ClaimPending)
		}
		pv.recorder.Eventf(ctx, claim, corev1.EventTypeNormal, "FailedBinding", "no persistent volumes available for this claim and no storage class is set")
		return
	}
	pv.bind(ctx, volume, claim)
}

// findBestMatch is findBestMatchForClaim: the smallest available volume
// with the claim's class, access modes and at least its requested size.
func (pv *pvController) findBestMatch(claim *corev1.PersistentVolumeClaim) *corev1.PersistentVolume {
	want := claim.Spec.Resources.Requests[corev1.ResourceStorage]
	class := ""
	if claim.Spec.StorageClassName != nil {
		class = *claim.Spec.StorageClassName
	}
	var best *corev1.PersistentVolume
	names := make([]string, 0, len(pv.volumeCache))
	for n := range pv.volumeCache {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		v := pv.volumeCache[n]
		if v.DeletionTimestamp != nil || v.Spec.StorageClassName != class {
			continue
		}
		if ref := v.Spec.ClaimRef; ref != nil && (ref.Namespace != claim.Namespace || ref.Name != claim.Name) {
			continue
		}
		if !hasModes(v.Spec.AccessModes, claim.Spec.AccessModes) {
			continue
		}
		size := v.Spec.Capacity[corev1.ResourceStorage]
		if size.Cmp(want) < 0 {
			continue
		}
		if best == nil {
			best = v
			continue
		}
		bestSize := best.Spec.Capacity[corev1.ResourceStorage]
		if size.Cmp(bestSize) < 0 {
			best = v
		}
	}
	return best
}

func hasModes(have, want []corev1.PersistentVolumeAccessMode) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

// bind points the volume at the claim and the claim at the volume, then
// marks both Bound (bindVolumeToClaim, bindClaimToVolume, updatePhase).
func (pv *pvController) bind(ctx context.Context, volume *corev1.PersistentVolume, claim *corev1.PersistentVolumeClaim) {
	v := volume.DeepCopy()
	v.Spec.ClaimRef = &corev1.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1", Namespace: claim.Namespace, Name: claim.Name,
		UID: claim.UID, ResourceVersion: claim.ResourceVersion}
	if v.Annotations == nil {
		v.Annotations = map[string]string{}
	}
	v.Annotations["pv.kubernetes.io/bound-by-controller"] = "yes"
	v, err := call(ctx, "persistentvolumes.Update", v.Name, func(ctx context.Context) (*corev1.PersistentVolume, error) {
		return pv.c.Client.CoreV1().PersistentVolumes().Update(ctx, v, metav1.UpdateOptions{})
	})
	if err != nil {
		return
	}
	pv.volumeCache[v.Name] = v
	v = v.DeepCopy()
	v.Status.Phase = corev1.VolumeBound
	v, err = call(ctx, "persistentvolumes.UpdateStatus", v.Name, func(ctx context.Context) (*corev1.PersistentVolume, error) {
		return pv.c.Client.CoreV1().PersistentVolumes().UpdateStatus(ctx, v, metav1.UpdateOptions{})
	})
	if err != nil {
		return
	}
	pv.volumeCache[v.Name] = v
	c := claim.DeepCopy()
	c.Spec.VolumeName = v.Name
	if c.Annotations == nil {
		c.Annotations = map[string]string{}
	}
	c.Annotations["pv.kubernetes.io/bind-completed"] = "yes"
	c.Annotations["pv.kubernetes.io/bound-by-controller"] = "yes"
	c, err = call(ctx, "persistentvolumeclaims.Update", keyOf(c), func(ctx context.Context) (*corev1.PersistentVolumeClaim, error) {
		return pv.c.Client.CoreV1().PersistentVolumeClaims(c.Namespace).Update(ctx, c, metav1.UpdateOptions{})
	})
	if err != nil {
		return
	}
	c.Status.Phase, c.Status.AccessModes, c.Status.Capacity = corev1.ClaimBound, v.Spec.AccessModes, v.Spec.Capacity
	call(ctx, "persistentvolumeclaims.UpdateStatus", keyOf(c), func(ctx context.Context) (*corev1.PersistentVolumeClaim, error) {
		return pv.c.Client.CoreV1().PersistentVolumeClaims(c.Namespace).UpdateStatus(ctx, c, metav1.UpdateOptions{})
	})
}

func (pv *pvController) setClaimPhase(ctx context.Context, claim *corev1.PersistentVolumeClaim, phase corev1.PersistentVolumeClaimPhase) {
	c := claim.DeepCopy()
	c.Status.Phase = phase
	call(ctx, "persistentvolumeclaims.UpdateStatus", keyOf(c), func(ctx context.Context) (*corev1.PersistentVolumeClaim, error) {
		return pv.c.Client.CoreV1().PersistentVolumeClaims(c.Namespace).UpdateStatus(ctx, c, metav1.UpdateOptions{})
	})
}

// syncVolume: a new volume becomes Available; a bound volume whose claim
// is gone is Released (reclaiming it — recycling or deleting the data —
// needs a volume plugin, which kubeloom's cluster has none of).
func (pv *pvController) syncVolume(ctx context.Context, volume *corev1.PersistentVolume) {
	pv.mu.Lock()
	defer pv.mu.Unlock()
	ctx, sp := goroutine.Start(ctx, "syncVolume")
	defer sp.End()
	if cur, ok := pv.volumeCache[volume.Name]; !ok || resourceVersion(cur) <= resourceVersion(volume) {
		pv.volumeCache[volume.Name] = volume // storeVolumeUpdate: keep the newer
	}
	phase := volume.Status.Phase
	switch {
	case volume.Spec.ClaimRef == nil:
		phase = corev1.VolumeAvailable
	case phase == corev1.VolumeBound || phase == "":
		ref := volume.Spec.ClaimRef
		_, err := call(ctx, "persistentvolumeclaims.Get", ref.Namespace+"/"+ref.Name, func(ctx context.Context) (*corev1.PersistentVolumeClaim, error) {
			return pv.c.Client.CoreV1().PersistentVolumeClaims(ref.Namespace).Get(ctx, ref.Name, metav1.GetOptions{})
		})
		if apierrors.IsNotFound(err) {
			phase = corev1.VolumeReleased
			switch volume.Spec.PersistentVolumeReclaimPolicy {
			case corev1.PersistentVolumeReclaimDelete:
				pv.recorder.Eventf(ctx, volume, corev1.EventTypeWarning, "VolumeFailedDelete", "no volume plugin matched")
			case corev1.PersistentVolumeReclaimRecycle:
				pv.recorder.Eventf(ctx, volume, corev1.EventTypeWarning, "VolumeFailedRecycle", "no volume plugin matched")
			}
		} else if err == nil {
			phase = corev1.VolumeBound
		}
	}
	if phase == volume.Status.Phase {
		return
	}
	v := volume.DeepCopy()
	v.Status.Phase = phase
	// updateVolumePhase → storeVolumeUpdate: the cache keeps what the
	// apiserver returned, so a bind that comes next writes on top of it (a
	// stale resourceVersion would lose a 409 and wait for the 15s resync).
	if out, err := call(ctx, "persistentvolumes.UpdateStatus", v.Name, func(ctx context.Context) (*corev1.PersistentVolume, error) {
		return pv.c.Client.CoreV1().PersistentVolumes().UpdateStatus(ctx, v, metav1.UpdateOptions{})
	}); err == nil {
		pv.volumeCache[out.Name] = out
	}
}

// resourceVersion is an object's resourceVersion as a number (the simulated
// apiserver's are integers; they order its writes).
func resourceVersion(obj metav1.Object) int64 {
	v, _ := strconv.ParseInt(obj.GetResourceVersion(), 10, 64)
	return v
}
