package controllers

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/utils/ptr"

	"github.com/kubeloom/kubeloom/sim/informer"
)

// TestPodGCSync is one pass of PodGC's gc: terminated pods beyond the
// threshold go, oldest first (each from a goroutine of its own, so in any
// order); pods bound to a node the apiserver no longer has go; unscheduled
// pods being deleted go. Every deletion is forced (grace period 0).
func TestPodGCSync(t *testing.T) {
	force := metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}
	phase := func(name, node string, p corev1.PodPhase) *corev1.Pod {
		pod := readyPod(name, "job", node, "", false)
		pod.Status.Phase = p
		return pod
	}
	held := phase("held", "", corev1.PodPending)
	held.Finalizers = []string{"example.com/hold"} // so that it stays, being deleted
	for _, tc := range []struct {
		name       string
		threshold  int
		pods       []*corev1.Pod // created a second apart
		deleting   []*corev1.Pod // then deleted
		podsSynced bool
		want       []k8stesting.Action
	}{{
		name: "terminated pods beyond the threshold, oldest first", threshold: 1, podsSynced: true,
		pods: []*corev1.Pod{phase("old", "node-1", corev1.PodSucceeded), phase("running", "node-1", corev1.PodRunning),
			phase("mid", "node-1", corev1.PodFailed), phase("new", "node-1", corev1.PodSucceeded)},
		want: []k8stesting.Action{deletes("pods", "default", "old", force), deletes("pods", "default", "mid", force), lists("nodes", "")},
	}, {
		name: "pods of a node that is gone", threshold: 10, podsSynced: true,
		pods: []*corev1.Pod{phase("here", "node-1", corev1.PodRunning), phase("lost", "node-9", corev1.PodRunning)},
		want: []k8stesting.Action{lists("nodes", ""), deletes("pods", "default", "lost", force)},
	}, {
		name: "an unscheduled pod being deleted", threshold: 10, podsSynced: true,
		deleting: []*corev1.Pod{held},
		want:     []k8stesting.Action{lists("nodes", ""), deletes("pods", "default", "held", force)},
	}, {
		name: "the pods have not synced: no request", threshold: 1, podsSynced: false,
		pods: []*corev1.Pod{phase("old", "node-1", corev1.PodSucceeded), phase("new", "node-1", corev1.PodSucceeded)},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t, informer.Classic)
				gcc := newPodGC(f.cc)
				gcc.threshold = tc.threshold
				gcc.podsSynced = func() bool { return tc.podsSynced }
				serve(f, "nodes", newNode("node-1", nil))
				for _, p := range tc.pods {
					add(f, gcc.pods, p)
					f.clk.Sleep(time.Second)
				}
				for _, p := range tc.deleting {
					f.index(gcc.pods, deleted(f, "pods", serve(f, "pods", p)))
				}
				f.check(func(ctx context.Context) error { gcc.gc(ctx); return nil }, tc.want,
					cmpopts.SortSlices(func(a, b request) bool { return a.Verb+" "+a.Name < b.Verb+" "+b.Name }))
			})
		})
	}
}
