package controllers

import (
	"context"
	"testing"
	"testing/synctest"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/utils/ptr"

	"github.com/kubeloom/kubeloom/sim/informer"
)

func newPDB(minAvailable, maxUnavailable *intstr.IntOrString) *policyv1.PodDisruptionBudget {
	return &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: policyv1.PodDisruptionBudgetSpec{Selector: selector("web"), MinAvailable: minAvailable, MaxUnavailable: maxUnavailable}}
}

func withPDBStatus(pdb *policyv1.PodDisruptionBudget, st policyv1.PodDisruptionBudgetStatus) *policyv1.PodDisruptionBudget {
	pdb = pdb.DeepCopy()
	st.ObservedGeneration = 1
	pdb.Status = st
	return pdb
}

// TestDisruptionSync is trySync of one budget: how many of its pods are
// healthy, how many it must keep — a number, or a percentage of what the
// pods' controllers want (a deployment through its replica set) — and so
// how many may be disrupted.
func TestDisruptionSync(t *testing.T) {
	rsKind := appsv1.SchemeGroupVersion.WithKind("ReplicaSet")
	d := newDeployment("web", 4, "web:1")
	rs := replicaSetOf(d, "1111", 4)
	rs.UID = "uid-web-1111"
	for _, tc := range []struct {
		name string
		pdb  *policyv1.PodDisruptionBudget
		pods []*corev1.Pod
		want func(pdb *policyv1.PodDisruptionBudget) []k8stesting.Action
	}{{
		name: "minAvailable 2 of 3 healthy: one may go",
		pdb:  newPDB(ptr.To(intstr.FromInt32(2)), nil),
		pods: []*corev1.Pod{readyPod("a", "web", "node-1", "", true), readyPod("b", "web", "node-1", "", true), readyPod("c", "web", "node-1", "", true),
			readyPod("d", "web", "node-1", "", false), readyPod("other", "db", "node-1", "", true)},
		want: func(pdb *policyv1.PodDisruptionBudget) []k8stesting.Action {
			return []k8stesting.Action{updatesStatus("poddisruptionbudgets", withPDBStatus(pdb, policyv1.PodDisruptionBudgetStatus{
				CurrentHealthy: 3, DesiredHealthy: 2, ExpectedPods: 4, DisruptionsAllowed: 1}))}
		},
	}, {
		name: "maxUnavailable 50% of what the deployment wants (4), not of the 2 pods there are",
		pdb:  newPDB(nil, ptr.To(intstr.FromString("50%"))),
		pods: []*corev1.Pod{ownedPod("a", "web", rs, rsKind, true), ownedPod("b", "web", rs, rsKind, true)},
		want: func(pdb *policyv1.PodDisruptionBudget) []k8stesting.Action {
			return []k8stesting.Action{updatesStatus("poddisruptionbudgets", withPDBStatus(pdb, policyv1.PodDisruptionBudgetStatus{
				CurrentHealthy: 2, DesiredHealthy: 2, ExpectedPods: 4}))}
		},
	}, {
		name: "no pods: an event, and the status",
		pdb:  newPDB(ptr.To(intstr.FromInt32(1)), nil),
		want: func(pdb *policyv1.PodDisruptionBudget) []k8stesting.Action {
			return []k8stesting.Action{updatesStatus("poddisruptionbudgets", withPDBStatus(pdb, policyv1.PodDisruptionBudgetStatus{DesiredHealthy: 1}))}
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t, informer.Classic)
				dc := newDisruptionController(f.ctx, f.cc)
				dc.recorder = f.cc.NewEvents(f.ctx, "controllermanager", false, true).Recorder(f.ctx) // Run's
				pdb := add(f, dc.pdbs, tc.pdb)
				add(f, dc.deps, d)
				add(f, dc.rss, rs)
				for _, p := range tc.pods {
					add(f, dc.pods, p)
				}
				f.check(func(ctx context.Context) error { return dc.sync(ctx, "default/web") }, tc.want(pdb))
			})
		})
	}
}
