package controllers

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stesting "k8s.io/client-go/testing"

	"github.com/kubeloom/kubeloom/sim/informer"
)

// TestResourceQuotaSync is syncResourceQuotaFromKey: each kind the quota
// counts is LISTed once (in the order of the quota's map of hard limits,
// so in any order), and status.used is written when it changed.
func TestResourceQuotaSync(t *testing.T) {
	hard := corev1.ResourceList{"pods": resource.MustParse("10"), "requests.cpu": resource.MustParse("2"), "configmaps": resource.MustParse("5")}
	used := corev1.ResourceList{"pods": resource.MustParse("2"), "requests.cpu": resource.MustParse("500m"), "configmaps": resource.MustParse("1")}
	quota := &corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Name: "q", Namespace: "default"}, Spec: corev1.ResourceQuotaSpec{Hard: hard}}
	inStep := quota.DeepCopy()
	inStep.Status = corev1.ResourceQuotaStatus{Hard: hard, Used: used}
	withCPU := func(p *corev1.Pod) *corev1.Pod {
		p.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m")}
		return p
	}
	objects := func(f *fixture) {
		serve(f, "pods", withCPU(readyPod("a", "web", "node-1", "", true)))
		serve(f, "pods", withCPU(readyPod("b", "web", "node-1", "", true)))
		done := withCPU(readyPod("done", "web", "node-1", "", false))
		done.Status.Phase = corev1.PodSucceeded // not active: not counted
		serve(f, "pods", done)
		serve(f, "configmaps", &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "default"}})
	}
	for _, tc := range []struct {
		name  string
		quota *corev1.ResourceQuota
		want  func(q *corev1.ResourceQuota) []k8stesting.Action
	}{{
		name:  "counts usage: each kind listed once",
		quota: quota,
		want: func(q *corev1.ResourceQuota) []k8stesting.Action {
			upd := q.DeepCopy()
			upd.Status = corev1.ResourceQuotaStatus{Hard: hard, Used: used}
			return []k8stesting.Action{lists("pods", "default"), lists("configmaps", "default"), updatesStatus("resourcequotas", upd)}
		},
	}, {
		name:  "in step: only the lists",
		quota: inStep,
		want: func(*corev1.ResourceQuota) []k8stesting.Action {
			return []k8stesting.Action{lists("pods", "default"), lists("configmaps", "default")}
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t, informer.Classic)
				rq := newQuotaController(f.ctx, f.cc)
				q := add(f, rq.quotas, tc.quota)
				objects(f)
				f.check(func(ctx context.Context) error { return rq.sync(ctx, "default/q") }, tc.want(q),
					cmpopts.SortSlices(func(a, b request) bool { return a.Verb+" "+a.Resource < b.Verb+" "+b.Resource }))
			})
		})
	}
}
