package controllers

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stesting "k8s.io/client-go/testing"

	"github.com/kubeloom/kubeloom/sim/informer"
)

// TestPersistentVolumeSyncClaim is syncClaim of one claim, which the claim
// informer's handlers call: an unbound claim is bound to the smallest
// available volume that fits (the volume first, then the claim, each spec
// then status), or marked Pending when none does.
func TestPersistentVolumeSyncClaim(t *testing.T) {
	rwo := []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}
	volume := func(name, size string) *corev1.PersistentVolume {
		return &corev1.PersistentVolume{ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec: corev1.PersistentVolumeSpec{AccessModes: rwo, Capacity: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse(size)}}}
	}
	claim := func(size string) *corev1.PersistentVolumeClaim {
		return &corev1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: "data", Namespace: "default", UID: "uid-data"},
			Spec: corev1.PersistentVolumeClaimSpec{AccessModes: rwo,
				Resources: corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse(size)}}}}
	}
	for _, tc := range []struct {
		name  string
		claim *corev1.PersistentVolumeClaim
		want  func(claim *corev1.PersistentVolumeClaim, volumes map[string]*corev1.PersistentVolume) []k8stesting.Action
		opts  []cmp.Option
	}{{
		name:  "bound to the smallest volume that fits",
		claim: claim("500Mi"),
		want: func(c *corev1.PersistentVolumeClaim, volumes map[string]*corev1.PersistentVolume) []k8stesting.Action {
			v := volumes["pv-1g"].DeepCopy()
			v.Spec.ClaimRef = &corev1.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1", Namespace: "default", Name: "data", UID: "uid-data", ResourceVersion: c.ResourceVersion}
			v.Annotations = map[string]string{"pv.kubernetes.io/bound-by-controller": "yes"}
			bound := v.DeepCopy() // as the spec write returned it: a new spec is a new generation
			bound.Generation = 2
			bound.Status.Phase = corev1.VolumeBound
			c = c.DeepCopy()
			c.Spec.VolumeName = "pv-1g"
			c.Annotations = map[string]string{"pv.kubernetes.io/bind-completed": "yes", "pv.kubernetes.io/bound-by-controller": "yes"}
			cBound := c.DeepCopy()
			cBound.Generation = 2
			cBound.Status = corev1.PersistentVolumeClaimStatus{Phase: corev1.ClaimBound, AccessModes: rwo, Capacity: v.Spec.Capacity}
			return []k8stesting.Action{updates("persistentvolumes", v), updatesStatus("persistentvolumes", bound),
				updates("persistentvolumeclaims", c), updatesStatus("persistentvolumeclaims", cBound)}
		},
		// Each status write carries the resourceVersion the write before returned.
		opts: []cmp.Option{cmpopts.IgnoreFields(metav1.ObjectMeta{}, "ResourceVersion")},
	}, {
		name:  "none fits: Pending, and an event",
		claim: claim("20Gi"),
		want: func(c *corev1.PersistentVolumeClaim, _ map[string]*corev1.PersistentVolume) []k8stesting.Action {
			c = c.DeepCopy()
			c.Status.Phase = corev1.ClaimPending
			return []k8stesting.Action{updatesStatus("persistentvolumeclaims", c)}
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t, informer.Classic)
				pv := newPVController(f.ctx, f.cc)
				volumes := map[string]*corev1.PersistentVolume{}
				for _, v := range []*corev1.PersistentVolume{volume("pv-100m", "100Mi"), volume("pv-10g", "10Gi"), volume("pv-1g", "1Gi")} {
					volumes[v.Name] = add(f, pv.volumes, v)
				}
				c := add(f, pv.claims, tc.claim)
				pv.initializeCaches(f.ctx) // the volume cache, from a LIST, as Run fills it
				f.check(func(ctx context.Context) error { pv.syncClaim(ctx, c); return nil }, tc.want(c, volumes), tc.opts...)
			})
		})
	}
}
