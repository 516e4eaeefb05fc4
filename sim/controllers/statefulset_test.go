package controllers

import (
	"cmp"
	"context"
	"testing"
	"testing/synctest"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/utils/ptr"

	"github.com/kubeloom/kubeloom/sim/informer"
)

func newStatefulSet(replicas int32) *appsv1.StatefulSet {
	return &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "uid-web"},
		Spec: appsv1.StatefulSetSpec{Replicas: ptr.To(replicas), Selector: selector("web"), Template: template("web"), ServiceName: "web",
			VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: "data"},
				Spec: corev1.PersistentVolumeClaimSpec{AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
					Resources: corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")}}}}}}}
}

// petOf is the pod "<set>-<i>" and its claim "data-<set>-<i>", as the
// controller creates them: a stable hostname under the set's service, and
// (since 1.6, era modern) the set as its owner.
func petOf(set *appsv1.StatefulSet, i string, owned bool) (*corev1.PersistentVolumeClaim, *corev1.Pod) {
	name := set.Name + "-" + i
	claim := set.Spec.VolumeClaimTemplates[0].DeepCopy()
	claim.Name, claim.Namespace = "data-"+name, set.Namespace
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: set.Namespace, Labels: map[string]string{"app": "web"}},
		Spec: *set.Spec.Template.Spec.DeepCopy()}
	pod.Spec.Hostname, pod.Spec.Subdomain = name, "web"
	pod.Spec.Volumes = []corev1.Volume{{Name: "data", VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: claim.Name}}}}
	if owned {
		pod.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: set.Name, UID: set.UID,
			Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}}
	}
	return claim, pod
}

func withSetStatus(set *appsv1.StatefulSet, replicas int32) *appsv1.StatefulSet {
	set = set.DeepCopy()
	set.Status = appsv1.StatefulSetStatus{Replicas: replicas, ObservedGeneration: 1}
	return set
}

// TestStatefulSetSync is the PetSet controller's Sync of one key: pets are
// created one at a time, in ordinal order, each with its claims and only
// once the one before is running and ready; a scale-in deletes the highest
// ordinal first, one per sync.
func TestStatefulSetSync(t *testing.T) {
	pet := func(i string, ready bool) *corev1.Pod { return readyPod("web-"+i, "web", "node-1", "", ready) }
	for _, tc := range []struct {
		name       string
		era        informer.Era // default classic
		set        *appsv1.StatefulSet
		pods       []*corev1.Pod
		podsSynced bool
		want       func(set *appsv1.StatefulSet) []k8stesting.Action
		wantRetry  time.Duration
	}{{
		name: "creates web-0 with its claim, and no more",
		set:  newStatefulSet(3), podsSynced: true,
		want: func(set *appsv1.StatefulSet) []k8stesting.Action {
			claim, pod := petOf(set, "0", false)
			return []k8stesting.Action{creates("persistentvolumeclaims", claim), creates("pods", pod), updatesStatus("statefulsets", withSetStatus(set, 0))}
		},
	}, {
		name: "today the pet is owned by its set",
		era:  informer.Modern,
		set:  newStatefulSet(3), podsSynced: true,
		want: func(set *appsv1.StatefulSet) []k8stesting.Action {
			claim, pod := petOf(set, "0", true)
			return []k8stesting.Action{creates("persistentvolumeclaims", claim), creates("pods", pod), updatesStatus("statefulsets", withSetStatus(set, 0))}
		},
	}, {
		name: "web-0 is not ready: web-1 waits",
		set:  newStatefulSet(3), podsSynced: true,
		pods: []*corev1.Pod{pet("0", false)},
		want: func(set *appsv1.StatefulSet) []k8stesting.Action {
			return []k8stesting.Action{updatesStatus("statefulsets", withSetStatus(set, 1))}
		},
	}, {
		name: "web-0 is ready: web-1 comes",
		set:  newStatefulSet(3), podsSynced: true,
		pods: []*corev1.Pod{pet("0", true)},
		want: func(set *appsv1.StatefulSet) []k8stesting.Action {
			claim, pod := petOf(set, "1", false)
			return []k8stesting.Action{creates("persistentvolumeclaims", claim), creates("pods", pod), updatesStatus("statefulsets", withSetStatus(set, 1))}
		},
	}, {
		name: "scaled in: the highest ordinal goes first, one per sync",
		set:  newStatefulSet(1), podsSynced: true,
		pods: []*corev1.Pod{pet("0", true), pet("1", true), pet("2", true)},
		want: func(set *appsv1.StatefulSet) []k8stesting.Action {
			return []k8stesting.Action{deletes("pods", "default", "web-2", metav1.DeleteOptions{}), updatesStatus("statefulsets", withSetStatus(set, 1))}
		},
	}, {
		name: "the pods have not synced: no request, tried again in 100ms",
		set:  newStatefulSet(3), podsSynced: false,
		want:      func(*appsv1.StatefulSet) []k8stesting.Action { return nil },
		wantRetry: 100 * time.Millisecond,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t, cmp.Or(tc.era, informer.Classic))
				psc := newStatefulSetController(f.ctx, f.cc)
				psc.podsSynced = func() bool { return tc.podsSynced }
				set := add(f, psc.sets, tc.set)
				for _, p := range tc.pods {
					add(f, psc.pods, p)
				}
				got, err := f.run(func(ctx context.Context) error { return psc.sync(ctx, "default/web") })
				checkRetry(t, err, tc.wantRetry)
				checkActions(t, tc.want(set), got)
			})
		})
	}
}
