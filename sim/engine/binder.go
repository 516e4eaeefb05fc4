package engine

import (
	"context"
	"slices"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// binder is kubeloom's stand-in for the scheduler (catalog scheduler/bind):
// it binds each new unbound pod to the next Ready node, round-robin. The
// articles do not cover scheduling; without a binder, pods created by
// controllers would never reach a kubelet.
type binder struct {
	w     *world
	nodes []string
	next  int
}

func (b *binder) start(ctx context.Context) {
	b.w.driver.rt.Go(ctx, "scheduler/bind", func(ctx context.Context) {
		// Pods no node can take wait, and are tried again every second
		// (the scheduler's unschedulable queue).
		retry := b.w.clk.NewTicker(time.Second)
		defer retry.Stop()
		var pending []*corev1.Pod
		for ctx.Err() == nil {
			w, err := b.w.cluster.Client.CoreV1().Pods("").Watch(ctx, metav1.ListOptions{FieldSelector: "spec.nodeName="})
			if err != nil {
				goroutine.SpanFrom(ctx).RecordError(err)
				t := b.w.clk.NewTimer(time.Second)
				select {
				case <-ctx.Done():
					t.Stop()
					return
				case <-t.C():
				}
				continue
			}
			pending = b.watch(ctx, w, retry.C(), pending)
		}
	}, goroutine.WithAttributes(attribute.StringSlice("k8s.node.names", b.nodes)), goroutine.WithIterationName("scheduleOne"))
}

// watch binds the pods of one watch until it ends; it returns the pods
// still waiting for a node.
func (b *binder) watch(ctx context.Context, w watch.Interface, retry <-chan time.Time, pending []*corev1.Pod) []*corev1.Pod {
	defer w.Stop()
	for {
		select {
		case <-ctx.Done():
			return pending
		case <-retry:
			if len(pending) > 0 {
				goroutine.Tick(ctx, "flushUnschedulable", time.Second, func(ctx context.Context) {
					var still []*corev1.Pod
					for _, p := range pending {
						if !b.bind(ctx, p) {
							still = append(still, p)
						}
					}
					pending = still
				})
			}
		case ev, ok := <-w.ResultChan():
			if !ok {
				return pending
			}
			pod, isPod := ev.Object.(*corev1.Pod)
			if !isPod || ev.Type != watch.Added || pod.Spec.NodeName != "" || pod.DeletionTimestamp != nil {
				continue
			}
			// A re-opened watch sends the waiting pods again: keep each once.
			if !slices.ContainsFunc(pending, func(p *corev1.Pod) bool { return p.UID == pod.UID }) && !b.bind(ctx, pod) {
				pending = append(pending, pod)
			}
		}
	}
}

// bind binds a pod to the next Ready node; it reports false when no node is Ready.
func (b *binder) bind(ctx context.Context, pod *corev1.Pod) bool {
	node := b.pick(ctx)
	if node == "" {
		return false
	}
	ictx, sp := goroutine.Iterate(ctx, "scheduleOne", trace.WithAttributes(
		attribute.String(catalog.AttrObjectKey, pod.Namespace+"/"+pod.Name), attribute.String(catalog.AttrNode, node)))
	defer sp.End()
	err := b.w.cluster.Client.CoreV1().Pods(pod.Namespace).Bind(ictx, &corev1.Binding{
		ObjectMeta: metav1.ObjectMeta{Name: pod.Name, Namespace: pod.Namespace, UID: pod.UID},
		Target:     corev1.ObjectReference{Kind: "Node", Name: node},
	}, metav1.CreateOptions{})
	sp.RecordError(err)
	return true
}

// pick returns the next Ready node, round-robin (the scheduler's one
// predicate kubeloom keeps: CheckNodeCondition), or "" if none is.
func (b *binder) pick(ctx context.Context) string {
	for range b.nodes {
		name := b.nodes[b.next%len(b.nodes)]
		b.next++
		node, err := b.w.cluster.Client.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			continue
		}
		for _, c := range node.Status.Conditions {
			if c.Type == corev1.NodeReady && c.Status == corev1.ConditionTrue {
				return name
			}
		}
	}
	return ""
}
