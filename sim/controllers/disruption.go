package controllers

import (
	"context"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kubeloom/kubeloom/sim/events"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
	"github.com/kubeloom/kubeloom/sim/workqueue"
)

// disruptionResync is the resync of the disruption controller's own informers.
const disruptionResync = 30 * time.Second

// DisruptionController (pkg/controller/disruption/disruption.go, v1.5): for
// each PodDisruptionBudget it counts the healthy (ready) pods its selector
// picks and how many the budget must keep, and writes how many may be
// disrupted. Its own PDB, ReplicationController, ReplicaSet and Deployment
// informers (30s resync; only the PDB one has handlers) find the scale of
// the pods' controllers for percentage budgets.
func startDisruption(ctx context.Context, c *Context) string {
	if !c.APIEnabled(c.groupVersion("policy/v1beta1", "policy/v1")) {
		return "poddisruptionbudgets are not served"
	}
	dc := newDisruptionController(ctx, c)
	// v1.5 builds the broadcaster in the constructor and starts its sink in Run.
	goroutine.RuntimeFrom(ctx).Go(ctx, "controller/disruption/run", func(ctx context.Context) {
		dc.recorder = c.NewEvents(ctx, "controllermanager", false, true).Recorder(ctx)
		dc.pdbs.Run(ctx)
		dc.pods.RunDummy(ctx)
		dc.rcs.Run(ctx)
		dc.rss.Run(ctx)
		dc.deps.Run(ctx)
		dc.queue.Workers(ctx, "controller/disruption/worker", 1, "sync", dc.sync)
		// recheckWorker only moves keys whose disrupted pods expire back to the main queue.
		dc.recheck.Workers(ctx, "controller/disruption/recheck-worker", 1, "recheck", func(ctx context.Context, key string) error {
			dc.queue.Add(ctx, key)
			return nil
		})
		<-ctx.Done()
	})
	return ""
}

// newDisruptionController is NewDisruptionController: its own informers,
// queues and handlers; its event recorder comes with Run.
func newDisruptionController(ctx context.Context, c *Context) *disruptionController {
	dc := &disruptionController{c: c, pods: c.Informers.Informer("pods"),
		pdbs:  c.NewInformer("poddisruptionbudgets", disruptionResync, informer.Private),
		rcs:   c.NewInformer("replicationcontrollers", disruptionResync, informer.Private),
		rss:   c.NewInformer("replicasets", disruptionResync, informer.Private),
		deps:  c.NewInformer("deployments", disruptionResync, informer.Private),
		queue: workqueue.New(ctx, "disruption"),
	}
	dc.recheck = workqueue.New(ctx, "disruption-recheck")
	dc.pdbs.AddHandler(ctx, enqueueHandlers("disruption-controller", dc.queue))
	podChanged := func(ctx context.Context, obj any) {
		if p, ok := untomb(obj).(*corev1.Pod); ok {
			if pdb := dc.pdbFor(p); pdb != nil {
				dc.queue.Add(ctx, keyOf(pdb))
			}
		}
	}
	dc.pods.AddHandler(ctx, informer.Funcs{HandlerName: "disruption-controller", Add: podChanged, Delete: podChanged,
		Update: func(ctx context.Context, _, cur any) { podChanged(ctx, cur) }})
	for _, inf := range []*informer.Informer{dc.rcs, dc.rss, dc.deps} {
		inf.AddHandler(ctx, informer.Funcs{HandlerName: "disruption-controller"}) // cache.ResourceEventHandlerFuncs{}
	}
	return dc
}

type disruptionController struct {
	c                          *Context
	pods, pdbs, rcs, rss, deps *informer.Informer
	queue, recheck             *workqueue.Queue
	recorder                   events.Recorder
}

func (dc *disruptionController) pdbFor(p *corev1.Pod) *policyv1.PodDisruptionBudget {
	for _, pdb := range inNamespace[*policyv1.PodDisruptionBudget](dc.pdbs, p.Namespace) {
		sel, err := selectorOf(pdb.Spec.Selector)
		if err == nil && sel.Matches(labelsOf(p)) {
			return pdb
		}
	}
	return nil
}

// sync is trySync: expected, desired and current healthy pods.
func (dc *disruptionController) sync(ctx context.Context, key string) error {
	pdb, ok := get[*policyv1.PodDisruptionBudget](dc.pdbs, key)
	if !ok {
		return nil
	}
	sel, err := selectorOf(pdb.Spec.Selector)
	if err != nil {
		return err
	}
	pods := podsIn(dc.pods, pdb.Namespace, sel)
	if len(pods) == 0 {
		dc.recorder.Eventf(ctx, pdb, corev1.EventTypeNormal, "NoPods", "No matching pods found")
	}
	healthy := int32(0)
	for _, p := range pods {
		if isPodReady(p) && p.DeletionTimestamp == nil {
			healthy++
		}
	}
	expected, desired := int32(len(pods)), int32(0)
	switch {
	case pdb.Spec.MinAvailable != nil && pdb.Spec.MinAvailable.Type == intstr.Int:
		desired = pdb.Spec.MinAvailable.IntVal
	case pdb.Spec.MinAvailable != nil:
		expected = dc.expectedScale(pods)
		v, _ := intstr.GetScaledValueFromIntOrPercent(pdb.Spec.MinAvailable, int(expected), true)
		desired = int32(v)
	case pdb.Spec.MaxUnavailable != nil:
		expected = dc.expectedScale(pods)
		v, _ := intstr.GetScaledValueFromIntOrPercent(pdb.Spec.MaxUnavailable, int(expected), true)
		desired = max(0, expected-int32(v))
	}
	st := policyv1.PodDisruptionBudgetStatus{ObservedGeneration: pdb.Generation, CurrentHealthy: healthy, DesiredHealthy: desired,
		ExpectedPods: expected, DisruptionsAllowed: max(0, healthy-desired), Conditions: pdb.Status.Conditions, DisruptedPods: pdb.Status.DisruptedPods}
	cur := pdb.Status
	if cur.ObservedGeneration == st.ObservedGeneration && cur.CurrentHealthy == st.CurrentHealthy && cur.DesiredHealthy == st.DesiredHealthy &&
		cur.ExpectedPods == st.ExpectedPods && cur.DisruptionsAllowed == st.DisruptionsAllowed {
		return nil
	}
	upd := pdb.DeepCopy()
	upd.Status = st
	_, err = call(ctx, "poddisruptionbudgets.UpdateStatus", key, func(ctx context.Context) (*policyv1.PodDisruptionBudget, error) {
		return dc.c.Client.PolicyV1().PodDisruptionBudgets(pdb.Namespace).UpdateStatus(ctx, upd, metav1.UpdateOptions{})
	})
	return err
}

// expectedScale is what the pods' controllers want: the sum of the scales
// of their distinct controllers (a deployment through its replica set);
// pods without one count as one each.
func (dc *disruptionController) expectedScale(pods []*corev1.Pod) int32 {
	seen := map[string]bool{}
	total := int32(0)
	for _, p := range pods {
		ref := ownerOf(p)
		if ref == nil {
			total++
			continue
		}
		k := ref.Kind + "/" + p.Namespace + "/" + ref.Name
		if seen[k] {
			continue
		}
		seen[k] = true
		switch ref.Kind {
		case "ReplicationController":
			if rc, ok := get[*corev1.ReplicationController](dc.rcs, p.Namespace+"/"+ref.Name); ok {
				total += replicasOr1(rc.Spec.Replicas)
			}
		case "ReplicaSet":
			rs, ok := get[*appsv1.ReplicaSet](dc.rss, p.Namespace+"/"+ref.Name)
			if !ok {
				continue
			}
			if dref := ownerOf(rs); dref != nil && dref.Kind == "Deployment" {
				if d, ok := get[*appsv1.Deployment](dc.deps, p.Namespace+"/"+dref.Name); ok {
					if dk := "Deployment/" + p.Namespace + "/" + d.Name; !seen[dk] {
						seen[dk] = true
						total += replicasOr1(d.Spec.Replicas)
					}
					continue
				}
			}
			total += replicasOr1(rs.Spec.Replicas)
		default:
			total++
		}
	}
	return total
}
