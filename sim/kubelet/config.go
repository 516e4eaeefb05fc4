package kubelet

import (
	"context"
	"reflect"
	"sort"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// Pod sources (pkg/kubelet/types): where a pod came from.
const (
	sourceFile = "file"
	sourceHTTP = "http"
	sourceAPI  = "api"
)

// Operations of a pod update on PodConfig.Updates() (kubetypes.PodOperation).
const (
	opSet       = "SET" // a source's whole set of pods, before the merge
	opAdd       = "ADD"
	opUpdate    = "UPDATE"
	opRemove    = "REMOVE"
	opDelete    = "DELETE" // graceful deletion: the pod has a deletionTimestamp
	opReconcile = "RECONCILE"
)

// Annotations the sources put on pods (pkg/kubelet/types/pod_update.go).
const (
	annotationSource = "kubernetes.io/config.source"
	annotationHash   = "kubernetes.io/config.hash"
	annotationMirror = "kubernetes.io/config.mirror"
)

// podUpdate is kubetypes.PodUpdate, with the span that caused it.
type podUpdate struct {
	pods   []*corev1.Pod
	op     string
	source string
	cause  trace.SpanContext
}

// podConfig is pkg/kubelet/config.PodConfig in incremental mode: a Mux with
// one channel and one kubelet/config-mux goroutine per source, merging
// each source's snapshots (podStorage.Merge) into ADD / UPDATE / DELETE /
// REMOVE / RECONCILE updates on one channel of capacity 50.
type podConfig struct {
	updates chan podUpdate

	mu      sync.Mutex
	pods    map[string]map[types.UID]*corev1.Pod // by source
	seen    map[string]bool                      // sources that sent at least once
	sources []string                             // configured sources
}

func newPodConfig() *podConfig {
	return &podConfig{updates: make(chan podUpdate, 50), pods: map[string]map[types.UID]*corev1.Pod{}, seen: map[string]bool{}}
}

// channel is PodConfig.Channel(source): the source's channel, drained by
// a new kubelet/config-mux goroutine
// (go wait.Until(func() { m.listen(source, newChannel) }, 0, wait.NeverStop)).
func (c *podConfig) channel(ctx context.Context, source string) chan<- podUpdate {
	c.mu.Lock()
	c.sources = append(c.sources, source)
	c.mu.Unlock()
	ch := make(chan podUpdate)
	goroutine.RuntimeFrom(ctx).Until(ctx, "kubelet/config-mux", 0, func(ctx context.Context) {
		// m.listen: for update := range listenChannel { m.merger.Merge(source, update) }
		for {
			select {
			case <-ctx.Done():
				return
			case u := <-ch:
				c.merge(ctx, source, u)
			}
		}
	}, goroutine.WithIterationName("listen"), goroutine.WithAttributes(attribute.String(catalog.AttrPodSource, source)))
	return ch
}

// allReady is sourcesReady.AllReady: every configured source has sent.
func (c *podConfig) allReady() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.sources {
		if !c.seen[s] {
			return false
		}
	}
	return true
}

// merge is podStorage.Merge for a SET snapshot: it compares the source's
// pods with what it sent before and passes on what changed.
func (c *podConfig) merge(ctx context.Context, source string, u podUpdate) {
	ctx, sp := goroutine.Start(ctx, "Merge", trace.WithAttributes(attribute.String(catalog.AttrPodSource, source),
		attribute.Int("k8s.pods", len(u.pods))), trace.WithLinks(goroutine.Cause(u.cause, source)))
	defer sp.End()
	c.mu.Lock()
	old := c.pods[source]
	next := make(map[types.UID]*corev1.Pod, len(u.pods))
	var adds, updates, deletes, removes, reconciles []*corev1.Pod
	for _, ref := range u.pods {
		// As updatePodsFunc: an unchanged pod keeps the one already
		// known; only a new or changed pod is taken (a copy: ref is the
		// source's, maybe its informer's cache).
		prev, known := old[ref.UID]
		var p *corev1.Pod
		switch {
		case !known:
			// A pod seen for the first time is an ADD, even one being deleted.
			p = fromSource(ref, source)
			adds = append(adds, p)
		case podsDifferSemantically(prev, ref, source):
			p = fromSource(ref, source)
			if p.DeletionTimestamp != nil {
				deletes = append(deletes, p)
			} else {
				updates = append(updates, p)
			}
		case !reflect.DeepEqual(&prev.Status, &ref.Status):
			p = fromSource(ref, source)
			reconciles = append(reconciles, p)
		default:
			p = prev
		}
		next[p.UID] = p
	}
	for uid, p := range old {
		if _, ok := next[uid]; !ok {
			removes = append(removes, p)
		}
	}
	c.pods[source] = next
	c.mu.Unlock()
	// The source counts as seen once its updates are queued: housekeeping
	// must not find every source ready before the pods they bring.
	defer func() {
		c.mu.Lock()
		c.seen[source] = true
		c.mu.Unlock()
	}()

	cause := sp.SpanContext()
	for _, batch := range []struct {
		op   string
		pods []*corev1.Pod
	}{{opRemove, removes}, {opAdd, adds}, {opUpdate, updates}, {opDelete, deletes}, {opReconcile, reconciles}} {
		if len(batch.pods) == 0 {
			continue
		}
		// By name, then namespace and UID: removes come in map order, and
		// pods of one name from two namespaces must not keep theirs.
		sort.Slice(batch.pods, func(i, j int) bool {
			a, b := batch.pods[i], batch.pods[j]
			return a.Name < b.Name || a.Name == b.Name && (a.Namespace < b.Namespace || a.Namespace == b.Namespace && a.UID < b.UID)
		})
		sp.AddEvent(batch.op, attribute.Int("k8s.pods", len(batch.pods)))
		select {
		case c.updates <- podUpdate{pods: batch.pods, op: batch.op, source: source, cause: cause}:
		case <-ctx.Done():
			return
		}
	}
}

// fromSource is a copy of a source's pod, annotated with the source
// before any comparison (updatePodsFunc).
func fromSource(ref *corev1.Pod, source string) *corev1.Pod {
	p := ref.DeepCopy()
	if p.Annotations == nil {
		p.Annotations = map[string]string{}
	}
	p.Annotations[annotationSource] = source
	return p
}

// podsDifferSemantically is config.go's: the spec, labels, deletion and
// annotations; a status change alone is a reconcile. existing is a pod
// already taken from source, ref one the source sent, not yet annotated.
// (The pointers spare reflect.DeepEqual boxing a copy of each spec.)
func podsDifferSemantically(existing, ref *corev1.Pod, source string) bool {
	return !reflect.DeepEqual(&existing.Spec, &ref.Spec) || !reflect.DeepEqual(existing.Labels, ref.Labels) ||
		!reflect.DeepEqual(existing.DeletionTimestamp, ref.DeletionTimestamp) ||
		!reflect.DeepEqual(existing.DeletionGracePeriodSeconds, ref.DeletionGracePeriodSeconds) ||
		annotationsDiffer(existing.Annotations, ref.Annotations, source)
}

// annotationsDiffer compares a taken pod's annotations with those of the
// pod the source sent, as if the source's annotation were added to them.
func annotationsDiffer(existing, ref map[string]string, source string) bool {
	n := 0
	for k, v := range ref {
		if k == annotationSource {
			continue
		}
		if have, ok := existing[k]; !ok || have != v {
			return true
		}
		n++
	}
	return existing[annotationSource] != source || len(existing) != n+1
}
