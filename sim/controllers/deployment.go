package controllers

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/adler32"
	"hash/fnv"
	"sort"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/rand"

	"github.com/kubeloom/kubeloom/sim/events"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
	"github.com/kubeloom/kubeloom/sim/workqueue"
)

// podTemplateHashLabel marks a deployment's replica sets and their pods
// (extensions.DefaultDeploymentUniqueLabelKey).
const podTemplateHashLabel = "pod-template-hash"

// DeploymentController (pkg/controller/deployment, v1.5): shared
// Deployments, ReplicaSets and Pods informers, workers syncDeployment. It
// creates a replica set "<deployment>-<hash of the pod template>" and scales
// replica sets by the deployment's strategy.
func startDeployment(ctx context.Context, c *Context) string {
	if !c.APIEnabled(c.groupVersion("extensions/v1beta1", "apps/v1")) {
		return "deployments are not served"
	}
	dc := newDeploymentController(ctx, c)
	goroutine.RuntimeFrom(ctx).Go(ctx, "controller/deployment/run", func(ctx context.Context) {
		if !informer.WaitForCacheSync(ctx, c.Era, "deployments, replicasets, pods", dc.dInf.HasSynced, dc.rsInf.HasSynced, dc.pods.HasSynced) {
			return
		}
		dc.queue.Workers(ctx, "controller/deployment/worker", int(c.Config.ConcurrentDeploymentSyncs), "syncDeployment", dc.sync)
		<-ctx.Done()
	})
	return ""
}

// newDeploymentController is NewDeploymentController: its event pipeline,
// queue and handlers on the shared informers.
func newDeploymentController(ctx context.Context, c *Context) *deploymentController {
	dc := &deploymentController{c: c, dInf: c.Informers.Informer("deployments"), rsInf: c.Informers.Informer("replicasets"), pods: c.Informers.Informer("pods")}
	dc.recorder = c.NewEvents(ctx, "deployment-controller", true, true).Recorder(ctx)
	dc.queue = workqueue.New(ctx, "deployment")
	dc.dInf.AddHandler(ctx, enqueueHandlers("deployment-controller", dc.queue))
	byOwner := func(ctx context.Context, obj any) {
		if rs, ok := untomb(obj).(*appsv1.ReplicaSet); ok {
			if ref := ownerOf(rs); ref != nil && ref.Kind == "Deployment" {
				dc.queue.Add(ctx, rs.Namespace+"/"+ref.Name)
			}
		}
	}
	dc.rsInf.AddHandler(ctx, informer.Funcs{HandlerName: "deployment-controller", Add: byOwner, Delete: byOwner,
		Update: func(ctx context.Context, old, cur any) {
			if accessor(old).GetResourceVersion() != accessor(cur).GetResourceVersion() {
				byOwner(ctx, cur)
			}
		}})
	dc.pods.AddHandler(ctx, informer.Funcs{HandlerName: "deployment-controller", Delete: func(ctx context.Context, obj any) {
		if p, ok := untomb(obj).(*corev1.Pod); ok {
			if ref := ownerOf(p); ref != nil && ref.Kind == "ReplicaSet" {
				if rs, ok := get[*appsv1.ReplicaSet](dc.rsInf, p.Namespace+"/"+ref.Name); ok {
					byOwner(ctx, rs)
				}
			}
		}
	}})
	return dc
}

type deploymentController struct {
	c        *Context
	dInf     *informer.Informer
	rsInf    *informer.Informer
	pods     *informer.Informer
	queue    *workqueue.Queue
	recorder events.Recorder
}

func (dc *deploymentController) sync(ctx context.Context, key string) error {
	d, ok := get[*appsv1.Deployment](dc.dInf, key)
	if !ok {
		return nil // "Deployment has been deleted"
	}
	if d.Spec.Selector == nil || len(d.Spec.Selector.MatchLabels)+len(d.Spec.Selector.MatchExpressions) == 0 {
		dc.recorder.Eventf(ctx, d, corev1.EventTypeWarning, "SelectingAll", "This deployment is selecting all pods. A non-empty selector is required.")
		return nil
	}
	hash := dc.templateHash(&d.Spec.Template)
	var newRS *appsv1.ReplicaSet
	var oldRSs []*appsv1.ReplicaSet
	for _, rs := range inNamespace[*appsv1.ReplicaSet](dc.rsInf, d.Namespace) {
		if ref := ownerOf(rs); ref == nil || ref.UID != d.UID {
			continue
		}
		if rs.Labels[podTemplateHashLabel] == hash {
			newRS = rs
		} else {
			oldRSs = append(oldRSs, rs)
		}
	}
	sort.Slice(oldRSs, func(i, j int) bool { return oldRSs[i].CreationTimestamp.Before(&oldRSs[j].CreationTimestamp) })
	if d.DeletionTimestamp == nil && !d.Spec.Paused {
		var err error
		if d.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType {
			newRS, err = dc.recreate(ctx, d, newRS, oldRSs, hash)
		} else {
			newRS, err = dc.rolling(ctx, d, newRS, oldRSs, hash)
		}
		if err != nil {
			return err
		}
	}
	return dc.syncStatus(ctx, d, newRS, oldRSs)
}

// rolling is rolloutRolling: scale the new replica set up within maxSurge,
// then the old ones down within maxUnavailable. Without available pods
// (nothing runs them), old replica sets are never scaled down: the rollout
// waits, as it would in a cluster without nodes.
func (dc *deploymentController) rolling(ctx context.Context, d *appsv1.Deployment, newRS *appsv1.ReplicaSet, old []*appsv1.ReplicaSet, hash string) (*appsv1.ReplicaSet, error) {
	want := replicasOr1(d.Spec.Replicas)
	surge, unavailable := dc.surgeAndUnavailable(d, want)
	total := int32(0)
	for _, rs := range append(old, newRS) {
		if rs != nil {
			total += replicasOr1(rs.Spec.Replicas)
		}
	}
	if newRS == nil {
		n := min(want, max(0, want+surge-total))
		if len(old) == 0 {
			n = want
		}
		return dc.createRS(ctx, d, hash, n)
	}
	cur := replicasOr1(newRS.Spec.Replicas)
	switch {
	case cur > want:
		return dc.scale(ctx, d, newRS, want)
	case cur < want:
		if up := min(want, cur+max(0, want+surge-total)); up > cur {
			var err error
			if newRS, err = dc.scale(ctx, d, newRS, up); err != nil {
				return nil, err
			}
		}
	}
	// Scale old replica sets down, never below want - maxUnavailable available pods.
	available := newRS.Status.AvailableReplicas
	for _, rs := range old {
		available += rs.Status.AvailableReplicas
	}
	canDrop := available - (want - unavailable)
	for _, rs := range old {
		r := replicasOr1(rs.Spec.Replicas)
		if r == 0 || canDrop <= 0 {
			continue
		}
		// Pods that are not available can go at once; available ones within the budget.
		drop := min(r, r-rs.Status.AvailableReplicas+canDrop)
		canDrop -= min(drop, rs.Status.AvailableReplicas)
		if _, err := dc.scale(ctx, d, rs, r-drop); err != nil {
			return nil, err
		}
	}
	return newRS, nil
}

// recreate is rolloutRecreate: old replica sets to zero first, the new one
// up once their pods are gone.
func (dc *deploymentController) recreate(ctx context.Context, d *appsv1.Deployment, newRS *appsv1.ReplicaSet, old []*appsv1.ReplicaSet, hash string) (*appsv1.ReplicaSet, error) {
	waiting := false
	for _, rs := range old {
		if replicasOr1(rs.Spec.Replicas) != 0 {
			if _, err := dc.scale(ctx, d, rs, 0); err != nil {
				return nil, err
			}
		}
		waiting = waiting || rs.Status.Replicas > 0
	}
	if waiting {
		return newRS, nil
	}
	want := replicasOr1(d.Spec.Replicas)
	if newRS == nil {
		return dc.createRS(ctx, d, hash, want)
	}
	if replicasOr1(newRS.Spec.Replicas) != want {
		return dc.scale(ctx, d, newRS, want)
	}
	return newRS, nil
}

func (dc *deploymentController) createRS(ctx context.Context, d *appsv1.Deployment, hash string, replicas int32) (*appsv1.ReplicaSet, error) {
	tmpl := d.Spec.Template.DeepCopy()
	if tmpl.Labels == nil {
		tmpl.Labels = map[string]string{}
	}
	tmpl.Labels[podTemplateHashLabel] = hash
	sel := d.Spec.Selector.DeepCopy()
	if sel.MatchLabels == nil {
		sel.MatchLabels = map[string]string{}
	}
	sel.MatchLabels[podTemplateHashLabel] = hash
	rs := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{
			Name: d.Name + "-" + hash, Namespace: d.Namespace, Labels: copyMap(tmpl.Labels),
			OwnerReferences: []metav1.OwnerReference{controllerRef(d, appsv1.SchemeGroupVersion.WithKind("Deployment"))},
		},
		Spec: appsv1.ReplicaSetSpec{Replicas: &replicas, Selector: sel, Template: *tmpl, MinReadySeconds: d.Spec.MinReadySeconds},
	}
	created, err := call(ctx, "replicasets.Create", rs.Namespace+"/"+rs.Name, func(ctx context.Context) (*appsv1.ReplicaSet, error) {
		return dc.c.Client.AppsV1().ReplicaSets(rs.Namespace).Create(ctx, rs, metav1.CreateOptions{})
	})
	if err != nil {
		return nil, err
	}
	if replicas > 0 {
		dc.recorder.Eventf(ctx, d, corev1.EventTypeNormal, "ScalingReplicaSet", "Scaled up replica set %s to %d", created.Name, replicas)
	}
	return created, nil
}

func (dc *deploymentController) scale(ctx context.Context, d *appsv1.Deployment, rs *appsv1.ReplicaSet, to int32) (*appsv1.ReplicaSet, error) {
	from := replicasOr1(rs.Spec.Replicas)
	upd := rs.DeepCopy()
	upd.Spec.Replicas = &to
	out, err := call(ctx, "replicasets.Update", rs.Namespace+"/"+rs.Name, func(ctx context.Context) (*appsv1.ReplicaSet, error) {
		return dc.c.Client.AppsV1().ReplicaSets(rs.Namespace).Update(ctx, upd, metav1.UpdateOptions{})
	})
	if err != nil {
		return nil, err
	}
	dir := "up"
	if to < from {
		dir = "down"
	}
	dc.recorder.Eventf(ctx, d, corev1.EventTypeNormal, "ScalingReplicaSet", "Scaled %s replica set %s to %d", dir, rs.Name, to)
	return out, nil
}

func (dc *deploymentController) syncStatus(ctx context.Context, d *appsv1.Deployment, newRS *appsv1.ReplicaSet, old []*appsv1.ReplicaSet) error {
	st := appsv1.DeploymentStatus{ObservedGeneration: d.Generation}
	for _, rs := range append(old, newRS) {
		if rs == nil {
			continue
		}
		st.Replicas += rs.Status.Replicas
		st.ReadyReplicas += rs.Status.ReadyReplicas
		st.AvailableReplicas += rs.Status.AvailableReplicas
	}
	if newRS != nil {
		st.UpdatedReplicas = newRS.Status.Replicas
	}
	st.UnavailableReplicas = max(0, replicasOr1(d.Spec.Replicas)-st.AvailableReplicas)
	cur := d.Status
	if cur.ObservedGeneration == st.ObservedGeneration && cur.Replicas == st.Replicas && cur.UpdatedReplicas == st.UpdatedReplicas &&
		cur.ReadyReplicas == st.ReadyReplicas && cur.AvailableReplicas == st.AvailableReplicas && cur.UnavailableReplicas == st.UnavailableReplicas {
		return nil
	}
	upd := d.DeepCopy()
	conds := upd.Status.Conditions
	upd.Status = st
	upd.Status.Conditions = conds
	_, err := call(ctx, "deployments.UpdateStatus", d.Namespace+"/"+d.Name, func(ctx context.Context) (*appsv1.Deployment, error) {
		return dc.c.Client.AppsV1().Deployments(d.Namespace).UpdateStatus(ctx, upd, metav1.UpdateOptions{})
	})
	return err
}

// surgeAndUnavailable resolves maxSurge and maxUnavailable: absent, they
// are 1 and 1 in v1.5's extensions/v1beta1 and 25% and 25% today.
func (dc *deploymentController) surgeAndUnavailable(d *appsv1.Deployment, want int32) (int32, int32) {
	def := intstr.FromInt32(1)
	if dc.c.Era == informer.Modern {
		def = intstr.FromString("25%")
	}
	surge, unavail := def, def
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		if ru.MaxSurge != nil {
			surge = *ru.MaxSurge
		}
		if ru.MaxUnavailable != nil {
			unavail = *ru.MaxUnavailable
		}
	}
	s, _ := intstr.GetScaledValueFromIntOrPercent(&surge, int(want), true)
	u, _ := intstr.GetScaledValueFromIntOrPercent(&unavail, int(want), false)
	if s == 0 && u == 0 {
		u = 1 // the validation rule: both cannot be 0
	}
	return int32(s), int32(u)
}

// templateHash names a replica set: v1.5 printed an adler32 of the pod
// template in decimal (GetPodTemplateSpecHash); today an fnv32a, encoded
// to avoid bad words (ComputeHash + SafeEncodeString).
func (dc *deploymentController) templateHash(t *corev1.PodTemplateSpec) string {
	b, _ := json.Marshal(t)
	if dc.c.Era == informer.Modern {
		h := fnv.New32a()
		h.Write(b)
		return rand.SafeEncodeString(fmt.Sprint(h.Sum32()))
	}
	return fmt.Sprint(adler32.Checksum(b))
}
