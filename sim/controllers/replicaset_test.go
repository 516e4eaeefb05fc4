package controllers

import (
	"context"
	"testing"
	"testing/synctest"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/utils/ptr"

	"github.com/kubeloom/kubeloom/sim/informer"
)

func newReplicaSet(name string, replicas int32) *appsv1.ReplicaSet {
	return &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name)},
		Spec: appsv1.ReplicaSetSpec{Replicas: ptr.To(replicas), Selector: selector(name), Template: template(name)}}
}

// ownedPod is a running pod of node-1 labelled app=<app>, controlled by
// owner (nil: an orphan).
func ownedPod(name, app string, owner metav1.Object, kind schema.GroupVersionKind, ready bool) *corev1.Pod {
	p := readyPod(name, app, "node-1", "", ready)
	if owner != nil {
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: kind.GroupVersion().String(), Kind: kind.Kind, Name: owner.GetName(),
			UID: owner.GetUID(), Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}}
	}
	return p
}

// podFor is the pod a controller creates from owner's template
// (GetPodFromTemplate): generateName "<owner>-", the template's labels and
// spec, the owner as its controller.
func podFor(owner metav1.Object, kind schema.GroupVersionKind, tmpl corev1.PodTemplateSpec) *corev1.Pod {
	p := ownedPod("", "", owner, kind, false)
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{GenerateName: owner.GetName() + "-", Namespace: owner.GetNamespace(),
		Labels: tmpl.Labels, OwnerReferences: p.OwnerReferences}, Spec: tmpl.Spec}
}

func withRSStatus(rs *appsv1.ReplicaSet, st appsv1.ReplicaSetStatus) *appsv1.ReplicaSet {
	rs = rs.DeepCopy()
	rs.Status = st
	return rs
}

// TestReplicaSetSync is syncReplicaSet of one key, as
// pkg/controller/replicaset's tests check it: create what is missing,
// delete what is too many (not-ready pods first), count orphans the
// selector picks, and write the status only when it changed.
func TestReplicaSetSync(t *testing.T) {
	rsKind := appsv1.SchemeGroupVersion.WithKind("ReplicaSet")
	web := newReplicaSet("web", 3)
	inStep := newReplicaSet("web", 2)
	inStep.Status = appsv1.ReplicaSetStatus{Replicas: 2, FullyLabeledReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 2, ObservedGeneration: 1}
	for _, tc := range []struct {
		name string
		rs   *appsv1.ReplicaSet
		pods []*corev1.Pod
		key  string
		// want is given the replica set as the apiserver stored it.
		want func(rs *appsv1.ReplicaSet) []k8stesting.Action
	}{{
		name: "creates the missing pods, then writes the status",
		rs:   web, key: "default/web",
		want: func(rs *appsv1.ReplicaSet) []k8stesting.Action {
			pod := podFor(rs, rsKind, template("web"))
			return []k8stesting.Action{creates("pods", pod), creates("pods", pod), creates("pods", pod),
				updatesStatus("replicasets", withRSStatus(rs, appsv1.ReplicaSetStatus{ObservedGeneration: 1}))}
		},
	}, {
		name: "deletes the surplus, a pod that is not ready first",
		rs:   newReplicaSet("web", 1), key: "default/web",
		pods: []*corev1.Pod{ownedPod("web-a", "web", web, rsKind, true), ownedPod("web-b", "web", web, rsKind, false), ownedPod("web-c", "web", web, rsKind, true)},
		want: func(rs *appsv1.ReplicaSet) []k8stesting.Action {
			return []k8stesting.Action{deletes("pods", "default", "web-b", metav1.DeleteOptions{}), deletes("pods", "default", "web-a", metav1.DeleteOptions{}),
				updatesStatus("replicasets", withRSStatus(rs, appsv1.ReplicaSetStatus{Replicas: 3, FullyLabeledReplicas: 3, ReadyReplicas: 2, AvailableReplicas: 2, ObservedGeneration: 1}))}
		},
	}, {
		name: "counts the orphans its selector picks (v1.5 adopts them)",
		rs:   newReplicaSet("web", 2), key: "default/web",
		pods: []*corev1.Pod{ownedPod("loose-1", "web", nil, rsKind, true), ownedPod("loose-2", "web", nil, rsKind, false), ownedPod("other", "db", nil, rsKind, true)},
		want: func(rs *appsv1.ReplicaSet) []k8stesting.Action {
			return []k8stesting.Action{updatesStatus("replicasets", withRSStatus(rs, appsv1.ReplicaSetStatus{Replicas: 2, FullyLabeledReplicas: 2, ReadyReplicas: 1, AvailableReplicas: 1, ObservedGeneration: 1}))}
		},
	}, {
		name: "in step with its pods and status: no request",
		rs:   inStep, key: "default/web",
		pods: []*corev1.Pod{ownedPod("web-a", "web", inStep, rsKind, true), ownedPod("web-b", "web", inStep, rsKind, true)},
		want: func(*appsv1.ReplicaSet) []k8stesting.Action { return nil },
	}, {
		name: "deleted: no request",
		key:  "default/gone",
		want: func(*appsv1.ReplicaSet) []k8stesting.Action { return nil },
	}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t, informer.Classic)
				rsc := newReplicaSetController(f.ctx, f.cc)
				var rs *appsv1.ReplicaSet
				if tc.rs != nil {
					rs = add(f, rsc.rsInf, tc.rs)
				}
				for _, p := range tc.pods {
					add(f, rsc.pods, p)
				}
				f.check(func(ctx context.Context) error { return rsc.sync(ctx, tc.key) }, tc.want(rs))
			})
		})
	}
}
