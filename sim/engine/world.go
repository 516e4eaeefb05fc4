package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/cluster"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/leaderelection"
)

// world is one era's run of the scenario: a fake cluster and the
// instances on it.
type world struct {
	sc        *scenarios.Scenario
	o         *Options
	clk       *clock.Scaled
	era       scenarios.Era
	cluster   *cluster.Cluster
	driver    *driver
	informers *informers // nil without spec.informers
	cms       []*cmReplica
	nodes     []*kubeletNode
	binder    *binder // with kubelets: the stand-in scheduler

	manifestDir string          // the real --pod-manifest-path ("" without one)
	manifestURL string          // --manifest-url ("" without one)
	runCtx      context.Context // the run's, for processes started by actions
	urlServer   *manifestServer
}

// close stops what the world runs outside the simulated processes.
func (w *world) close() {
	for _, n := range w.nodes {
		n.releasePorts()
	}
	if w.urlServer != nil {
		w.urlServer.close()
	}
}

// apply performs an action on the world's cluster or instances. The
// action's span is the cause of what it sets off: the watch events of its
// writes (through ctx, see cluster.WithCause) and, for actions that act
// without writing, the span that reacts first.
func (w *world) apply(ctx context.Context, sp goroutine.Span, a scenarios.Action) error {
	ctx = cluster.WithCause(ctx, sp.SpanContext())
	switch {
	case a.Create != nil:
		sp.SetAttributes(attribute.String(catalog.AttrObjectKey, a.Create.Ref().Key()))
		_, err := w.cluster.Create(ctx, a.Create.Resource.GVR, a.Create.Object.DeepCopyObject())
		return err
	case a.Update != nil:
		sp.SetAttributes(attribute.String(catalog.AttrObjectKey, a.Update.Ref().Key()))
		_, err := w.cluster.Update(ctx, a.Update.Resource.GVR, a.Update.Object.DeepCopyObject())
		return err
	case a.Delete != nil:
		sp.SetAttributes(attribute.String(catalog.AttrObjectKey, a.Delete.Key()))
		return w.cluster.Delete(ctx, a.Delete.Resource.GVR, a.Delete.Namespace, a.Delete.Name)
	case a.BreakWatches != nil:
		n := w.cluster.BreakWatches(ctx, a.BreakWatches.Resource.GVR)
		sp.SetAttributes(attribute.String(catalog.AttrResource, a.BreakWatches.Resource.Name), attribute.Int("watches.broken", n))
		return nil
	case a.RestartAPIServer != nil:
		broken := w.cluster.BreakAllWatches(ctx)
		resources, n := slices.Sorted(maps.Keys(broken)), 0
		for _, k := range broken {
			n += k
		}
		sp.SetAttributes(attribute.StringSlice("k8s.resources", resources), attribute.Int("watches.broken", n))
		return nil
	case a.AddHandler != nil:
		// The handler's goroutines belong to the informers' instance.
		in := w.informers
		hctx, hsp := goroutine.Start(in.ctx, "action/addHandler", trace.WithLinks(goroutine.Cause(sp.SpanContext(), a.AddHandler.Informer)))
		defer hsp.End()
		in.addHandler(hctx, in.byName[a.AddHandler.Informer])
		return nil
	case a.HangHandler != nil:
		name, err := w.informers.hang(a.HangHandler.Informer, a.HangHandler.Handler)
		if err != nil {
			return err
		}
		sp.SetAttributes(attribute.String(catalog.AttrInformer, a.HangHandler.Informer), attribute.String(catalog.AttrHandler, name))
		return nil
	case a.KillLeader != nil:
		return w.killLeader(ctx, sp)
	case a.StopKubelet != nil:
		n, err := w.node(a.StopKubelet.Node)
		if err != nil {
			return err
		}
		// The process ends with the action as its cause: its main span,
		// recording why it ended, links to the action.
		return n.stop(goroutine.CausedBy(errStopped, sp.SpanContext(), n.name), w.clk, 10*time.Second)
	case a.StartKubelet != nil:
		n, err := w.node(a.StartKubelet.Node)
		if err != nil {
			return err
		}
		return n.start(w.runCtx, w.o, w.clk, sp.SpanContext())
	case a.SetImageFSUsage != nil:
		n, err := w.node(a.SetImageFSUsage.Node)
		if err != nil {
			return err
		}
		fs, err := n.runtime.SetImageFSUsage(a.SetImageFSUsage.Percent, sp.SpanContext())
		sp.SetAttributes(attribute.Int64("kubelet.imagefs.capacity_bytes", fs.Capacity), attribute.Int64("kubelet.imagefs.usage_bytes", fs.Usage),
			attribute.Int64("kubelet.imagefs.images_bytes", fs.ImagesBytes))
		return err
	case a.InjectOOM != nil:
		return w.injectOOM(sp, a.InjectOOM)
	case a.TakePort != nil:
		n, err := w.node(a.TakePort.Node)
		if err != nil {
			return err
		}
		addr, err := n.takePort(a.TakePort.Server, a.TakePort.For, w.o.Listen, w.clk, sp.SpanContext())
		sp.SetAttributes(attribute.String("server.address", addr), attribute.String("kubelet.server", a.TakePort.Server),
			attribute.Float64("kubeloom.held_s", a.TakePort.For.Seconds()))
		return err
	}
	return fmt.Errorf("%s: %s is not supported by this kubeloom", a.Pos, a.Verb())
}

// injectOOM makes the kernel's OOM killer fire on a node: on a pod's
// container, or (without a pod) on a process outside any pod.
func (w *world) injectOOM(sp goroutine.Span, a *scenarios.InjectOOM) error {
	n, err := w.node(a.Node)
	if err != nil {
		return err
	}
	uid := ""
	if a.Pod != "" {
		for _, c := range n.runtime.ListContainers(false) {
			if c.PodNamespace == a.Namespace && (c.PodName == a.Pod || c.PodName == a.Pod+"-"+a.Node) {
				uid = c.PodUID
			}
		}
		if uid == "" {
			return fmt.Errorf("no pod %s/%s runs on %s", a.Namespace, a.Pod, a.Node)
		}
	}
	// The OOM watcher's iteration and the PLEG relist that sees the
	// container die link to the action.
	ev, err := n.runtime.InjectOOM(uid, a.Container, sp.SpanContext())
	if err != nil {
		return err
	}
	sp.SetAttributes(attribute.String("kubelet.oom.container", ev.ContainerName), attribute.String("process.executable.name", ev.ProcessName),
		attribute.Bool("kubelet.oom.heard", n.oomEvent(ev)))
	return nil
}

// killLeader reads the leader election lock, as `kubectl get` would, and
// kills the replica that holds it.
func (w *world) killLeader(ctx context.Context, sp goroutine.Span) error {
	holder, err := w.leader(ctx)
	if err != nil {
		return err
	}
	sp.SetAttributes(attribute.String("leaderelection.holder", holder))
	for _, c := range w.cms {
		if c.holds(holder) {
			sp.SetAttributes(attribute.String("kubeloom.killed", c.rt.Instance()))
			c.kill(sp.SpanContext())
			return nil
		}
	}
	return fmt.Errorf("the lock is held by %q, which is no replica of this scenario", holder)
}

// leader is the holder identity of kube-system/kube-controller-manager.
func (w *world) leader(ctx context.Context) (string, error) {
	const ns, name = "kube-system", "kube-controller-manager"
	if w.era == scenarios.EraModern {
		lease, err := w.cluster.Client.CoordinationV1().Leases(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return "", fmt.Errorf("no leader to kill: %w", err)
		}
		if lease.Spec.HolderIdentity == nil || *lease.Spec.HolderIdentity == "" {
			return "", errors.New("no leader to kill: the lease has no holder")
		}
		return *lease.Spec.HolderIdentity, nil
	}
	ep, err := w.cluster.Client.CoreV1().Endpoints(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return "", fmt.Errorf("no leader to kill: %w", err)
	}
	var rec struct {
		HolderIdentity string `json:"holderIdentity"`
	}
	if err := json.Unmarshal([]byte(ep.Annotations[leaderelection.LeaderAnnotation]), &rec); err != nil || rec.HolderIdentity == "" {
		return "", errors.New("no leader to kill: the lock has no holder")
	}
	return rec.HolderIdentity, nil
}
