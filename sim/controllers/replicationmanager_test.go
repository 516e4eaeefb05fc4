package controllers

import (
	"context"
	"testing"
	"testing/synctest"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/utils/ptr"

	"github.com/kubeloom/kubeloom/sim/informer"
)

func newReplicationController(name string, replicas int32) *corev1.ReplicationController {
	return &corev1.ReplicationController{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name)},
		Spec: corev1.ReplicationControllerSpec{Replicas: ptr.To(replicas), Selector: map[string]string{"app": name}, Template: ptr.To(template(name))}}
}

func withRCStatus(rc *corev1.ReplicationController, st corev1.ReplicationControllerStatus) *corev1.ReplicationController {
	rc = rc.DeepCopy()
	rc.Status = st
	return rc
}

// TestReplicationManagerSync is syncReplicationController of one key: the
// replica set controller's work for a ReplicationController, and, since
// v1.5 waits for no cache here, a requeue while the pods have not synced.
func TestReplicationManagerSync(t *testing.T) {
	rcKind := corev1.SchemeGroupVersion.WithKind("ReplicationController")
	legacy := newReplicationController("legacy", 1)
	noTemplate := newReplicationController("legacy", 1)
	noTemplate.Spec.Template = nil
	for _, tc := range []struct {
		name       string
		rc         *corev1.ReplicationController
		pods       []*corev1.Pod
		podsSynced bool
		want       func(rc *corev1.ReplicationController) []k8stesting.Action
	}{{
		name: "creates the missing pods, then writes the status",
		rc:   newReplicationController("legacy", 2), podsSynced: true,
		want: func(rc *corev1.ReplicationController) []k8stesting.Action {
			pod := podFor(rc, rcKind, template("legacy"))
			return []k8stesting.Action{creates("pods", pod), creates("pods", pod),
				updatesStatus("replicationcontrollers", withRCStatus(rc, corev1.ReplicationControllerStatus{ObservedGeneration: 1}))}
		},
	}, {
		name: "deletes the surplus, a pod that is not ready first",
		rc:   legacy, podsSynced: true,
		pods: []*corev1.Pod{ownedPod("legacy-a", "legacy", legacy, rcKind, false), ownedPod("legacy-b", "legacy", legacy, rcKind, true)},
		want: func(rc *corev1.ReplicationController) []k8stesting.Action {
			return []k8stesting.Action{deletes("pods", "default", "legacy-a", metav1.DeleteOptions{}),
				updatesStatus("replicationcontrollers", withRCStatus(rc, corev1.ReplicationControllerStatus{Replicas: 2, FullyLabeledReplicas: 2,
					ReadyReplicas: 1, AvailableReplicas: 1, ObservedGeneration: 1}))}
		},
	}, {
		name: "no template: no request",
		rc:   noTemplate, podsSynced: true,
		want: func(*corev1.ReplicationController) []k8stesting.Action { return nil },
	}, {
		name: "the pods have not synced: no request, the key waits 100ms",
		rc:   newReplicationController("legacy", 2), podsSynced: false,
		want: func(*corev1.ReplicationController) []k8stesting.Action { return nil },
	}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t, informer.Classic)
				rm := newReplicationManager(f.ctx, f.cc)
				rm.podsSynced = func() bool { return tc.podsSynced }
				rc := add(f, rm.rcInf, tc.rc)
				for _, p := range tc.pods {
					add(f, rm.pods, p)
				}
				f.check(func(ctx context.Context) error { return rm.sync(ctx, "default/legacy") }, tc.want(rc))
			})
		})
	}
}
