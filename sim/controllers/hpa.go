package controllers

import (
	"context"
	"fmt"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeloom/kubeloom/sim/events"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
)

// HorizontalController (pkg/controller/podautoscaler/horizontal.go, v1.5):
// one goroutine, its own HPA informer, whose handlers reconcile each
// autoscaler on every add, update and resync (every
// --horizontal-pod-autoscaler-sync-period, 30s). It reads the target's
// scale, keeps it within minReplicas..maxReplicas, and would scale on CPU
// from Heapster — which kubeloom's cluster does not run, so that step fails
// with the event v1.5 records then.
func startHPA(ctx context.Context, c *Context) string {
	if !c.APIEnabled(c.groupVersion("autoscaling/v1", "autoscaling/v1")) {
		return "horizontalpodautoscalers are not served"
	}
	a := newHPAController(ctx, c)
	goroutine.RuntimeFrom(ctx).Go(ctx, "controller/horizontalpodautoscaling/run", func(ctx context.Context) {
		a.hpas.Run(ctx) // go a.controller.Run(stopCh): all the work happens in its handlers
		<-ctx.Done()
	})
	return ""
}

// newHPAController is NewHorizontalController: its event pipeline, and its
// own HPA informer whose handlers reconcile.
func newHPAController(ctx context.Context, c *Context) *hpaController {
	a := &hpaController{c: c}
	a.recorder = c.NewEvents(ctx, "horizontal-pod-autoscaler", false, true).Recorder(ctx)
	a.hpas = c.NewInformer("horizontalpodautoscalers", c.Config.HorizontalPodAutoscalerSyncPeriod.Duration, informer.Private)
	reconcile := func(ctx context.Context, obj any) { a.reconcile(ctx, obj.(*autoscalingv1.HorizontalPodAutoscaler)) }
	a.hpas.AddHandler(ctx, informer.Funcs{HandlerName: "horizontal-pod-autoscaler", Add: reconcile,
		Update: func(ctx context.Context, _, cur any) { reconcile(ctx, cur) }}) // "We are not interested in deletions."
	return a
}

type hpaController struct {
	c        *Context
	hpas     *informer.Informer
	recorder events.Recorder
}

// reconcileAutoscaler.
func (a *hpaController) reconcile(ctx context.Context, hpa *autoscalingv1.HorizontalPodAutoscaler) {
	ctx, sp := goroutine.Start(ctx, "reconcileAutoscaler")
	defer sp.End()
	ref := hpa.Spec.ScaleTargetRef
	key := hpa.Namespace + "/" + ref.Name
	scale, err := call(ctx, scaleResource(ref.Kind)+".GetScale", key, func(ctx context.Context) (*autoscalingv1.Scale, error) {
		return a.getScale(ctx, hpa.Namespace, ref)
	})
	if err != nil {
		a.recorder.Eventf(ctx, hpa, corev1.EventTypeWarning, "FailedGetScale", "%v", err)
		return
	}
	current := scale.Status.Replicas
	desired, reason := current, ""
	minReplicas := int32(1)
	if hpa.Spec.MinReplicas != nil {
		minReplicas = *hpa.Spec.MinReplicas
	}
	switch {
	case current > hpa.Spec.MaxReplicas:
		desired, reason = hpa.Spec.MaxReplicas, "Current number of replicas above Spec.MaxReplicas"
	case current < minReplicas:
		desired, reason = minReplicas, "Current number of replicas below Spec.MinReplicas"
	case current == 0:
		desired = 0
	default:
		// CPU utilization comes from Heapster through the services proxy.
		a.recorder.Eventf(ctx, hpa, corev1.EventTypeWarning, "FailedGetMetrics",
			"failed to get CPU consumption and request: failed to get pods metrics: the server could not find the requested resource (get services http:heapster:)")
		a.recorder.Eventf(ctx, hpa, corev1.EventTypeWarning, "FailedComputeReplicas",
			"failed to get CPU utilization: failed to get CPU consumption and request: no metrics: Heapster is not running in kubeloom's cluster")
	}
	if desired != current {
		scale = scale.DeepCopy()
		scale.Spec.Replicas = desired
		if _, err := call(ctx, scaleResource(ref.Kind)+".UpdateScale", key, func(ctx context.Context) (*autoscalingv1.Scale, error) {
			return a.updateScale(ctx, hpa.Namespace, ref, scale)
		}); err != nil {
			a.recorder.Eventf(ctx, hpa, corev1.EventTypeWarning, "FailedRescale", "New size: %d; reason: %s; error: %v", desired, reason, err)
			return
		}
		a.recorder.Eventf(ctx, hpa, corev1.EventTypeNormal, "SuccessfulRescale", "New size: %d; reason: %s", desired, reason)
	}
	upd := hpa.DeepCopy()
	upd.Status.CurrentReplicas, upd.Status.DesiredReplicas = current, desired
	upd.Status.ObservedGeneration = &hpa.Generation
	if desired != current {
		now := metav1.NewTime(goroutine.RuntimeFrom(ctx).Clock().Now())
		upd.Status.LastScaleTime = &now
	}
	if upd.Status.CurrentReplicas == hpa.Status.CurrentReplicas && upd.Status.DesiredReplicas == hpa.Status.DesiredReplicas &&
		hpa.Status.ObservedGeneration != nil && *hpa.Status.ObservedGeneration == hpa.Generation && desired == current {
		return
	}
	if _, err := call(ctx, "horizontalpodautoscalers.UpdateStatus", keyOf(hpa), func(ctx context.Context) (*autoscalingv1.HorizontalPodAutoscaler, error) {
		return a.c.Client.AutoscalingV1().HorizontalPodAutoscalers(hpa.Namespace).UpdateStatus(ctx, upd, metav1.UpdateOptions{})
	}); err != nil {
		a.recorder.Eventf(ctx, hpa, corev1.EventTypeWarning, "FailedUpdateStatus", "%v", err)
	}
}

func scaleResource(kind string) string {
	switch kind {
	case "Deployment":
		return "deployments"
	case "ReplicaSet":
		return "replicasets"
	case "ReplicationController":
		return "replicationcontrollers"
	case "StatefulSet":
		return "statefulsets"
	}
	return kind
}

func (a *hpaController) getScale(ctx context.Context, ns string, ref autoscalingv1.CrossVersionObjectReference) (*autoscalingv1.Scale, error) {
	switch ref.Kind {
	case "Deployment":
		return a.c.Client.AppsV1().Deployments(ns).GetScale(ctx, ref.Name, metav1.GetOptions{})
	case "ReplicaSet":
		return a.c.Client.AppsV1().ReplicaSets(ns).GetScale(ctx, ref.Name, metav1.GetOptions{})
	case "ReplicationController":
		return a.c.Client.CoreV1().ReplicationControllers(ns).GetScale(ctx, ref.Name, metav1.GetOptions{})
	case "StatefulSet":
		return a.c.Client.AppsV1().StatefulSets(ns).GetScale(ctx, ref.Name, metav1.GetOptions{})
	}
	return nil, fmt.Errorf("no scale subresource for kind %q", ref.Kind)
}

func (a *hpaController) updateScale(ctx context.Context, ns string, ref autoscalingv1.CrossVersionObjectReference, s *autoscalingv1.Scale) (*autoscalingv1.Scale, error) {
	switch ref.Kind {
	case "Deployment":
		return a.c.Client.AppsV1().Deployments(ns).UpdateScale(ctx, ref.Name, s, metav1.UpdateOptions{})
	case "ReplicaSet":
		return a.c.Client.AppsV1().ReplicaSets(ns).UpdateScale(ctx, ref.Name, s, metav1.UpdateOptions{})
	case "ReplicationController":
		return a.c.Client.CoreV1().ReplicationControllers(ns).UpdateScale(ctx, ref.Name, s, metav1.UpdateOptions{})
	case "StatefulSet":
		return a.c.Client.AppsV1().StatefulSets(ns).UpdateScale(ctx, ref.Name, s, metav1.UpdateOptions{})
	}
	return nil, fmt.Errorf("no scale subresource for kind %q", ref.Kind)
}
