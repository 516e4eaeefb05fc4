package controllers

import (
	"context"
	"sort"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
)

// gcCheckPeriod is PodGC's period.
const gcCheckPeriod = 20 * time.Second

// PodGCController (pkg/controller/podgc/gc_controller.go, v1.5): every 20s
// it deletes terminated pods beyond --terminated-pod-gc-threshold (oldest
// first), pods bound to nodes that no longer exist, and unscheduled pods
// being deleted. It reads the shared Pods informer's cache, with no handler.
func startPodGC(ctx context.Context, c *Context) string {
	gcc := newPodGC(c)
	rt := goroutine.RuntimeFrom(ctx)
	rt.Go(ctx, "controller/podgc/run", func(ctx context.Context) {
		rt.Until(ctx, "controller/podgc/gc", gcCheckPeriod, gcc.gc, goroutine.WithIterationName("gc"))
		<-ctx.Done()
	})
	return ""
}

// newPodGC is NewPodGC: the shared pods informer and the threshold.
func newPodGC(c *Context) *podGC {
	gcc := &podGC{c: c, pods: c.Informers.Informer("pods"), threshold: int(c.Config.TerminatedPodGCThreshold)}
	gcc.podsSynced = gcc.pods.HasSynced
	return gcc
}

type podGC struct {
	c    *Context
	pods *informer.Informer
	// podsSynced is gcc.podStoreSynced: the pods informer's HasSynced (a
	// test's cache is full from the start).
	podsSynced func() bool
	threshold  int
}

func (gcc *podGC) gc(ctx context.Context) {
	if !gcc.podsSynced() {
		goroutine.SpanFrom(ctx).AddEvent("PodGCController is waiting for informer sync...")
		return
	}
	pods := listOf[*corev1.Pod](gcc.pods)
	if gcc.threshold > 0 {
		gcc.gcTerminated(ctx, pods)
	}
	gcc.gcOrphaned(ctx, pods)
	gcc.gcUnscheduledTerminating(ctx, pods)
}

// gcTerminated deletes the oldest terminated pods beyond the threshold,
// one goroutine per pod.
func (gcc *podGC) gcTerminated(ctx context.Context, pods []*corev1.Pod) {
	var terminated []*corev1.Pod
	for _, p := range pods {
		if p.Status.Phase != corev1.PodPending && p.Status.Phase != corev1.PodRunning && p.Status.Phase != corev1.PodUnknown {
			terminated = append(terminated, p)
		}
	}
	excess := len(terminated) - gcc.threshold
	if excess <= 0 {
		return
	}
	sort.Slice(terminated, func(i, j int) bool { return terminated[i].CreationTimestamp.Before(&terminated[j].CreationTimestamp) })
	goroutine.SpanFrom(ctx).AddEvent("garbage collecting pods", attribute.Int("pods", excess))
	var wg sync.WaitGroup
	rt := goroutine.RuntimeFrom(ctx)
	for _, p := range terminated[:excess] {
		wg.Add(1)
		rt.Go(ctx, "controller/podgc/delete-pod", func(ctx context.Context) {
			defer wg.Done()
			gcc.forceDelete(ctx, p)
		}, goroutine.WithAttributes(attribute.String(catalog.AttrObjectKey, keyOf(p))))
	}
	wg.Wait()
}

// gcOrphaned deletes pods bound to nodes the apiserver no longer has.
func (gcc *podGC) gcOrphaned(ctx context.Context, pods []*corev1.Pod) {
	nodes, err := call(ctx, "nodes.List", "", func(ctx context.Context) (*corev1.NodeList, error) {
		return gcc.c.Client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	})
	if err != nil {
		return
	}
	exists := map[string]bool{}
	for _, n := range nodes.Items {
		exists[n.Name] = true
	}
	for _, p := range pods {
		if p.Spec.NodeName != "" && !exists[p.Spec.NodeName] {
			goroutine.SpanFrom(ctx).AddEvent("Found orphaned Pod assigned to a Node that is gone. Deleting.",
				attribute.String(catalog.AttrObjectKey, keyOf(p)), attribute.String(catalog.AttrNode, p.Spec.NodeName))
			gcc.forceDelete(ctx, p)
		}
	}
}

// gcUnscheduledTerminating deletes pods being deleted that no node will finish.
func (gcc *podGC) gcUnscheduledTerminating(ctx context.Context, pods []*corev1.Pod) {
	for _, p := range pods {
		if p.DeletionTimestamp != nil && p.Spec.NodeName == "" {
			gcc.forceDelete(ctx, p)
		}
	}
}

// forceDelete deletes a pod with grace period 0 ("PodGC is force deleting Pod").
func (gcc *podGC) forceDelete(ctx context.Context, p *corev1.Pod) {
	zero := int64(0)
	do(ctx, "pods.Delete", p.Namespace+"/"+p.Name, func(ctx context.Context) error {
		return gcc.c.Client.CoreV1().Pods(p.Namespace).Delete(ctx, p.Name, metav1.DeleteOptions{GracePeriodSeconds: &zero})
	})
}
