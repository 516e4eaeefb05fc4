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
// controllers would never reach a kubelet. Like the scheduler, it knows the
// nodes from a watch (its cache), not by asking for each node for each pod:
// that was 30,000 pods × up to 1,000 nodes of GETs at scale.
type binder struct {
	w     *world
	nodes []string
	next  int
	ready map[string]bool // by node name, as the nodes watch last told
}

func (b *binder) start(ctx context.Context) {
	b.w.driver.rt.Go(ctx, "scheduler/bind", func(ctx context.Context) {
		// Pods no node can take wait, and are tried again every second
		// (the scheduler's unschedulable queue).
		retry := b.w.clk.NewTicker(time.Second)
		defer retry.Stop()
		var pending []*corev1.Pod
		var pods, nodes watch.Interface // each opened again on its own when it ends
		defer func() {
			for _, w := range []watch.Interface{pods, nodes} {
				if w != nil {
					w.Stop()
				}
			}
		}()
		for ctx.Err() == nil {
			var err error
			if pods == nil {
				pods, err = b.w.cluster.Client.CoreV1().Pods("").Watch(ctx, metav1.ListOptions{FieldSelector: "spec.nodeName="})
			}
			if err == nil && nodes == nil {
				if nodes, err = b.w.cluster.Client.CoreV1().Nodes().Watch(ctx, metav1.ListOptions{}); err == nil {
					b.ready = map[string]bool{} // the new watch sends every node again
				}
			}
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
			pending = b.watch(ctx, &pods, &nodes, retry.C(), pending)
		}
	}, goroutine.WithAttributes(attribute.StringSlice("k8s.node.names", b.nodes)), goroutine.WithIterationName("scheduleOne"))
}

// watch binds the pods of one watch, knowing the nodes from the other,
// until either ends (it sets that one to nil); it returns the pods still
// waiting for a node.
func (b *binder) watch(ctx context.Context, pods, nodes *watch.Interface, retry <-chan time.Time, pending []*corev1.Pod) []*corev1.Pod {
	for {
		select {
		case <-ctx.Done():
			return pending
		case ev, ok := <-(*nodes).ResultChan():
			if !ok {
				*nodes = nil
				return pending
			}
			if node, isNode := ev.Object.(*corev1.Node); isNode {
				b.ready[node.Name] = ev.Type != watch.Deleted && nodeReady(node)
			}
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
		case ev, ok := <-(*pods).ResultChan():
			if !ok {
				*pods = nil
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
	node := b.pick()
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
func (b *binder) pick() string {
	for range b.nodes {
		name := b.nodes[b.next%len(b.nodes)]
		b.next++
		if b.ready[name] {
			return name
		}
	}
	return ""
}

// nodeReady reports whether a node's Ready condition is True.
func nodeReady(node *corev1.Node) bool {
	for _, c := range node.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}
