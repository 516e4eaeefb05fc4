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
	clk       clock.Sim
	era       scenarios.Era
	cluster   *cluster.Cluster
	driver    *driver
	informers *informers // nil without spec.informers
	cms       []*cmReplica
	nodes     []*kubeletNode
	binder    *binder // with kubelets: the stand-in scheduler

	manifests   *manifestFiles  // spec.kubelets.manifestDir (nil without one)
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
	return a.Verb.Apply(cluster.WithCause(ctx, sp.SpanContext()), &acting{w: w, sp: sp})
}

// acting is the world as one action acts on it: scenarios.World, with the
// action's span, on which each capability records what it did.
type acting struct {
	w  *world
	sp goroutine.Span
}

var _ scenarios.World = (*acting)(nil)

func (a *acting) Create(ctx context.Context, o scenarios.Object) error {
	a.sp.SetAttributes(attribute.String(catalog.AttrObjectKey, o.Ref().Key()))
	_, err := a.w.cluster.Create(ctx, o.Resource.GVR, o.Object.DeepCopyObject())
	return err
}

func (a *acting) Update(ctx context.Context, o scenarios.Object) error {
	a.sp.SetAttributes(attribute.String(catalog.AttrObjectKey, o.Ref().Key()))
	_, err := a.w.cluster.Update(ctx, o.Resource.GVR, o.Object.DeepCopyObject())
	return err
}

func (a *acting) Delete(ctx context.Context, ref scenarios.ObjectRef) error {
	a.sp.SetAttributes(attribute.String(catalog.AttrObjectKey, ref.Key()))
	return a.w.cluster.Delete(ctx, ref.Resource.GVR, ref.Namespace, ref.Name)
}

func (a *acting) BreakWatches(ctx context.Context, r scenarios.Resource) error {
	n := a.w.cluster.BreakWatches(ctx, r.GVR)
	a.sp.SetAttributes(attribute.String(catalog.AttrResource, r.Name), attribute.Int("watches.broken", n))
	return nil
}

func (a *acting) BreakAllWatches(ctx context.Context) error {
	broken := a.w.cluster.BreakAllWatches(ctx)
	resources, n := slices.Sorted(maps.Keys(broken)), 0
	for _, k := range broken {
		n += k
	}
	a.sp.SetAttributes(attribute.StringSlice("k8s.resources", resources), attribute.Int("watches.broken", n))
	return nil
}

func (a *acting) AddHandler(_ context.Context, informer string) error {
	// The handler's goroutines belong to the informers' instance.
	in := a.w.informers
	hctx, hsp := goroutine.Start(in.ctx, "action/addHandler", trace.WithLinks(goroutine.Cause(a.sp.SpanContext(), informer)))
	defer hsp.End()
	in.addHandler(hctx, in.byName[informer])
	return nil
}

func (a *acting) HangHandler(_ context.Context, informer string, n int) error {
	name, err := a.w.informers.hang(informer, n)
	if err != nil {
		return err
	}
	a.sp.SetAttributes(attribute.String(catalog.AttrInformer, informer), attribute.String(catalog.AttrHandler, name))
	return nil
}

// KillLeader kills the replica that holds the leader election lock.
func (a *acting) KillLeader(ctx context.Context) error {
	c, err := a.leaderReplica(ctx)
	if err != nil {
		return err
	}
	a.sp.SetAttributes(attribute.String("kubeloom.killed", c.rt.Instance()))
	c.kill(a.sp.SpanContext())
	return nil
}

// BlockLeaderLock makes the apiserver refuse the lock's holder its
// requests to the lock for hold.
func (a *acting) BlockLeaderLock(ctx context.Context, hold time.Duration) error {
	c, err := a.leaderReplica(ctx)
	if err != nil {
		return err
	}
	a.sp.SetAttributes(attribute.String("kubeloom.blocked", c.rt.Instance()), attribute.Float64("kubeloom.blocked_for_s", hold.Seconds()))
	c.blockLock(a.w.clk, hold, a.sp.SpanContext())
	return nil
}

// leaderReplica reads the leader election lock, as `kubectl get` would,
// names its holder on the action's span and returns the replica that holds
// it.
func (a *acting) leaderReplica(ctx context.Context) (*cmReplica, error) {
	holder, err := a.w.leader(ctx)
	if err != nil {
		return nil, err
	}
	a.sp.SetAttributes(attribute.String("leaderelection.holder", holder))
	for _, c := range a.w.cms {
		if c.holds(holder) {
			return c, nil
		}
	}
	return nil, fmt.Errorf("the lock is held by %q, which is no replica of this scenario", holder)
}

func (a *acting) StopKubelet(_ context.Context, node string) error {
	n, err := a.w.node(node)
	if err != nil {
		return err
	}
	// The process ends with the action as its cause: its main span,
	// recording why it ended, links to the action.
	return n.stop(goroutine.CausedBy(errStopped, a.sp.SpanContext(), n.name), a.w.clk, 10*time.Second)
}

func (a *acting) StartKubelet(_ context.Context, node string) error {
	n, err := a.w.node(node)
	if err != nil {
		return err
	}
	// The new process belongs to the run, not to the action.
	return n.start(a.w.runCtx, a.w.o, a.w.clk, a.sp.SpanContext())
}

func (a *acting) SetImageFSUsage(_ context.Context, node string, percent int) error {
	n, err := a.w.node(node)
	if err != nil {
		return err
	}
	fs, err := n.runtime.SetImageFSUsage(percent, a.sp.SpanContext())
	a.sp.SetAttributes(attribute.Int64("kubelet.imagefs.capacity_bytes", fs.Capacity), attribute.Int64("kubelet.imagefs.usage_bytes", fs.Usage),
		attribute.Int64("kubelet.imagefs.images_bytes", fs.ImagesBytes))
	return err
}

// InjectOOM makes the kernel's OOM killer fire on a node: on a pod's
// container, or (without a pod) on a process outside any pod.
func (a *acting) InjectOOM(_ context.Context, node, namespace, pod, container string) error {
	n, err := a.w.node(node)
	if err != nil {
		return err
	}
	uid := ""
	if pod != "" {
		for _, c := range n.runtime.ListContainers(false) {
			if c.PodNamespace == namespace && (c.PodName == pod || c.PodName == pod+"-"+node) {
				uid = c.PodUID
			}
		}
		if uid == "" {
			return fmt.Errorf("no pod %s/%s runs on %s", namespace, pod, node)
		}
	}
	// The OOM watcher's iteration and the PLEG relist that sees the
	// container die link to the action.
	ev, err := n.runtime.InjectOOM(uid, container, a.sp.SpanContext())
	if err != nil {
		return err
	}
	a.sp.SetAttributes(attribute.String("kubelet.oom.container", ev.ContainerName), attribute.String("process.executable.name", ev.ProcessName),
		attribute.Bool("kubelet.oom.heard", n.oomEvent(ev)))
	return nil
}

func (a *acting) TakePort(_ context.Context, node, server string, hold time.Duration) error {
	n, err := a.w.node(node)
	if err != nil {
		return err
	}
	addr, err := n.takePort(server, hold, a.w.o.Listen, a.w.clk, a.sp.SpanContext())
	a.sp.SetAttributes(attribute.String("server.address", addr), attribute.String("kubelet.server", server),
		attribute.Float64("kubeloom.held_s", hold.Seconds()))
	return err
}

// leader is the holder identity of kube-system/kube-controller-manager.
func (w *world) leader(ctx context.Context) (string, error) {
	const ns, name = "kube-system", "kube-controller-manager"
	if w.era == scenarios.EraModern {
		lease, err := w.cluster.Client.CoordinationV1().Leases(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return "", fmt.Errorf("no leader: %w", err)
		}
		if lease.Spec.HolderIdentity == nil || *lease.Spec.HolderIdentity == "" {
			return "", errors.New("no leader: the lease has no holder")
		}
		return *lease.Spec.HolderIdentity, nil
	}
	ep, err := w.cluster.Client.CoreV1().Endpoints(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return "", fmt.Errorf("no leader: %w", err)
	}
	var rec struct {
		HolderIdentity string `json:"holderIdentity"`
	}
	if err := json.Unmarshal([]byte(ep.Annotations[leaderelection.LeaderAnnotation]), &rec); err != nil || rec.HolderIdentity == "" {
		return "", errors.New("no leader: the lock has no holder")
	}
	return rec.HolderIdentity, nil
}
