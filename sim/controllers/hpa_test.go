package controllers

import (
	"context"
	"testing"
	"testing/synctest"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/utils/ptr"

	"github.com/kubeloom/kubeloom/sim/informer"
)

// TestHPASync is reconcileAutoscaler of one autoscaler, which its
// informer's handlers call: read the target's scale, keep it within
// minReplicas..maxReplicas, record that there are no CPU metrics (no
// Heapster), and write the status.
func TestHPASync(t *testing.T) {
	hpaOf := func(target string) *autoscalingv1.HorizontalPodAutoscaler {
		return &autoscalingv1.HorizontalPodAutoscaler{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
			Spec: autoscalingv1.HorizontalPodAutoscalerSpec{ScaleTargetRef: autoscalingv1.CrossVersionObjectReference{Kind: "Deployment", Name: target, APIVersion: "apps/v1"},
				MinReplicas: ptr.To[int32](1), MaxReplicas: 3}}
	}
	for _, tc := range []struct {
		name     string
		replicas int32 // the deployment's, in its status
		target   string
		want     func(hpa *autoscalingv1.HorizontalPodAutoscaler, scale *autoscalingv1.Scale, now metav1.Time) []k8stesting.Action
	}{{
		name: "above maxReplicas: scaled down to it", replicas: 5, target: "web",
		want: func(hpa *autoscalingv1.HorizontalPodAutoscaler, scale *autoscalingv1.Scale, now metav1.Time) []k8stesting.Action {
			to := scale.DeepCopy()
			to.Spec.Replicas = 3
			st := hpa.DeepCopy()
			st.Status = autoscalingv1.HorizontalPodAutoscalerStatus{CurrentReplicas: 5, DesiredReplicas: 3, ObservedGeneration: ptr.To[int64](1), LastScaleTime: &now}
			return []k8stesting.Action{k8stesting.NewGetSubresourceAction(resourceOf("deployments"), "default", "scale", "web"),
				k8stesting.NewUpdateSubresourceAction(resourceOf("deployments"), "scale", "default", to), updatesStatus("horizontalpodautoscalers", st)}
		},
	}, {
		name: "within bounds: no metrics to scale on, only the status", replicas: 2, target: "web",
		want: func(hpa *autoscalingv1.HorizontalPodAutoscaler, _ *autoscalingv1.Scale, _ metav1.Time) []k8stesting.Action {
			st := hpa.DeepCopy()
			st.Status = autoscalingv1.HorizontalPodAutoscalerStatus{CurrentReplicas: 2, DesiredReplicas: 2, ObservedGeneration: ptr.To[int64](1)}
			return []k8stesting.Action{k8stesting.NewGetSubresourceAction(resourceOf("deployments"), "default", "scale", "web"), updatesStatus("horizontalpodautoscalers", st)}
		},
	}, {
		name: "no such target: an event after the read", replicas: 2, target: "nope",
		want: func(*autoscalingv1.HorizontalPodAutoscaler, *autoscalingv1.Scale, metav1.Time) []k8stesting.Action {
			return []k8stesting.Action{k8stesting.NewGetSubresourceAction(resourceOf("deployments"), "default", "scale", "nope")}
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t, informer.Classic)
				a := newHPAController(f.ctx, f.cc)
				d := newDeployment("web", tc.replicas, "web:1")
				d.Status = appsv1.DeploymentStatus{Replicas: tc.replicas}
				serve(f, "deployments", d)
				scale, err := f.c.Client.AppsV1().Deployments("default").GetScale(t.Context(), "web", metav1.GetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				hpa := add(f, a.hpas, hpaOf(tc.target))
				f.check(func(ctx context.Context) error { a.reconcile(ctx, hpa); return nil }, tc.want(hpa, scale, metav1.NewTime(f.clk.Now())))
			})
		})
	}
}
