package controllers

import (
	"context"
	"maps"
	"slices"
	"sort"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kubeloom/kubeloom/sim/events"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
	"github.com/kubeloom/kubeloom/sim/workqueue"
)

// DaemonSetsController (pkg/controller/daemon/daemoncontroller.go, v1.5):
// shared DaemonSets, Pods and Nodes informers, workers syncDaemonSet that
// put one pod on every node that should run one — created with its node
// already set, bypassing the scheduler, as v1.5 did — and delete the rest.
func startDaemonSet(ctx context.Context, c *Context) string {
	if !c.APIEnabled(c.groupVersion("extensions/v1beta1", "apps/v1")) {
		return "daemonsets are not served"
	}
	dsc := newDaemonSetController(ctx, c)
	goroutine.RuntimeFrom(ctx).Go(ctx, "controller/daemonset/run", func(ctx context.Context) {
		if !informer.WaitForCacheSync(ctx, c.Era, "pods, nodes", dsc.pods.HasSynced, dsc.nodes.HasSynced) {
			return
		}
		dsc.queue.Workers(ctx, "controller/daemonset/worker", int(c.Config.ConcurrentDaemonSetSyncs), "syncDaemonSet", dsc.sync)
		<-ctx.Done()
	})
	return ""
}

// newDaemonSetController is NewDaemonSetsController: its event pipeline,
// queue and handlers on the shared informers.
func newDaemonSetController(ctx context.Context, c *Context) *daemonSetController {
	dsc := &daemonSetController{c: c, dsInf: c.Informers.Informer("daemonsets"), pods: c.Informers.Informer("pods"), nodes: c.Informers.Informer("nodes")}
	pipeline := c.NewEvents(ctx, "daemonset-controller", true, true)
	dsc.recorder = pipeline.Recorder(ctx)
	dsc.pc = podControl{client: c.Client, recorder: dsc.recorder}
	dsc.exp = newExpectations(goroutine.RuntimeFrom(ctx).Clock().Now)
	dsc.queue = workqueue.New(ctx, "daemonset")
	dsc.dsInf.AddHandler(ctx, enqueueHandlers("daemonset-controller", dsc.queue))
	dsc.pods.AddHandler(ctx, podOwnerHandlers("daemonset-controller", "DaemonSet", dsc.queue, dsc.exp))
	enqueueAll := func(ctx context.Context, _ any) {
		for _, ds := range listOf[*appsv1.DaemonSet](dsc.dsInf) {
			dsc.queue.Add(ctx, keyOf(ds))
		}
	}
	dsc.nodes.AddHandler(ctx, informer.Funcs{HandlerName: "daemonset-controller", Add: enqueueAll,
		Update: func(ctx context.Context, old, cur any) {
			if !labels.Equals(old.(*corev1.Node).Labels, cur.(*corev1.Node).Labels) {
				enqueueAll(ctx, cur)
			}
		}})
	return dsc
}

type daemonSetController struct {
	c                  *Context
	dsInf, pods, nodes *informer.Informer
	queue              *workqueue.Queue
	exp                *expectations
	pc                 podControl
	recorder           events.Recorder
}

func (dsc *daemonSetController) sync(ctx context.Context, key string) error {
	ds, ok := get[*appsv1.DaemonSet](dsc.dsInf, key)
	if !ok {
		dsc.exp.forget(key)
		return nil
	}
	sel, err := selectorOf(ds.Spec.Selector)
	if err != nil {
		return err
	}
	if sel.Empty() {
		dsc.recorder.Eventf(ctx, ds, corev1.EventTypeWarning, "SelectingAll", "This daemon set is selecting all pods. A non-empty selector is required.")
		return nil
	}
	byNode := map[string][]*corev1.Pod{}
	for _, p := range podsIn(dsc.pods, ds.Namespace, sel) {
		if ref := ownerOf(p); isPodActive(p) && ref != nil && ref.UID == ds.UID {
			byNode[p.Spec.NodeName] = append(byNode[p.Spec.NodeName], p)
		}
	}
	nodes := listOf[*corev1.Node](dsc.nodes)
	var toCreate []string
	var toDelete []*corev1.Pod
	desired, current, misscheduled, ready := int32(0), int32(0), int32(0), int32(0)
	for _, n := range nodes {
		pods := byNode[n.Name]
		delete(byNode, n.Name)
		should := nodeShouldRunDaemonPod(n, ds)
		if should {
			desired++
		}
		switch {
		case should && len(pods) == 0:
			toCreate = append(toCreate, n.Name)
		case should:
			current++
			sort.Slice(pods, func(i, j int) bool { return pods[i].CreationTimestamp.Before(&pods[j].CreationTimestamp) })
			if isPodReady(pods[0]) {
				ready++
			}
			toDelete = append(toDelete, pods[1:]...) // keep the oldest
		default:
			if len(pods) > 0 {
				misscheduled++
			}
			toDelete = append(toDelete, pods...)
		}
	}
	// Pods on nodes that are gone, by node name, not in map order: so that
	// a run repeats.
	for _, node := range slices.Sorted(maps.Keys(byNode)) {
		toDelete = append(toDelete, byNode[node]...)
	}
	if dsc.exp.satisfied(key) && ds.DeletionTimestamp == nil {
		toCreate, toDelete = toCreate[:min(len(toCreate), burstReplicas)], toDelete[:min(len(toDelete), burstReplicas)]
		dsc.exp.expect(key, len(toCreate), len(toDelete))
		gvk := appsv1.SchemeGroupVersion.WithKind("DaemonSet")
		for _, node := range toCreate {
			if _, err := dsc.pc.create(ctx, &ds.Spec.Template, ds, gvk, node); err != nil {
				dsc.exp.observed(key, 1, 0)
			}
		}
		for _, p := range toDelete {
			if err := dsc.pc.delete(ctx, p, ds); err != nil {
				dsc.exp.observed(key, 0, 1)
			}
		}
	}
	cur := ds.Status
	if cur.DesiredNumberScheduled == desired && cur.CurrentNumberScheduled == current && cur.NumberMisscheduled == misscheduled &&
		cur.NumberReady == ready && cur.ObservedGeneration == ds.Generation {
		return nil
	}
	upd := ds.DeepCopy()
	upd.Status.DesiredNumberScheduled, upd.Status.CurrentNumberScheduled = desired, current
	upd.Status.NumberMisscheduled, upd.Status.NumberReady, upd.Status.ObservedGeneration = misscheduled, ready, ds.Generation
	_, err = call(ctx, "daemonsets.UpdateStatus", key, func(ctx context.Context) (*appsv1.DaemonSet, error) {
		return dsc.c.Client.AppsV1().DaemonSets(ds.Namespace).UpdateStatus(ctx, upd, metav1.UpdateOptions{})
	})
	return err
}

// nodeShouldRunDaemonPod: the template's nodeName and nodeSelector match,
// and the node is not out of disk (v1.5; its resource predicates are not
// simulated: kubeloom's nodes have no pods' resources to weigh).
func nodeShouldRunDaemonPod(n *corev1.Node, ds *appsv1.DaemonSet) bool {
	spec := ds.Spec.Template.Spec
	if spec.NodeName != "" && spec.NodeName != n.Name {
		return false
	}
	if !labels.SelectorFromSet(spec.NodeSelector).Matches(labels.Set(n.Labels)) {
		return false
	}
	if c := condition(&n.Status, "OutOfDisk"); c != nil && c.Status == corev1.ConditionTrue {
		return false
	}
	return true // v1.5 puts daemon pods on unschedulable nodes too
}
