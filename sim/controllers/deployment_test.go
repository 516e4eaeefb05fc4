package controllers

import (
	"cmp"
	"context"
	"testing"
	"testing/synctest"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/utils/ptr"

	"github.com/kubeloom/kubeloom/sim/informer"
)

func newDeployment(name string, replicas int32, image string) *appsv1.Deployment {
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name)},
		Spec: appsv1.DeploymentSpec{Replicas: ptr.To(replicas), Selector: selector(name), Template: template(name)}}
	d.Spec.Template.Spec.Containers[0].Image = image
	return d
}

// replicaSetOf is the replica set a deployment makes for its template:
// "<deployment>-<hash>", the hash in its labels, selector and template.
func replicaSetOf(d *appsv1.Deployment, hash string, replicas int32) *appsv1.ReplicaSet {
	tmpl := d.Spec.Template.DeepCopy()
	tmpl.Labels[podTemplateHashLabel] = hash
	sel := d.Spec.Selector.DeepCopy()
	sel.MatchLabels[podTemplateHashLabel] = hash
	return &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: d.Name + "-" + hash, Namespace: d.Namespace, Labels: map[string]string{"app": d.Name, podTemplateHashLabel: hash},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: d.Name, UID: d.UID, Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}}},
		Spec: appsv1.ReplicaSetSpec{Replicas: ptr.To(replicas), Selector: sel, Template: *tmpl},
	}
}

func withDeploymentStatus(d *appsv1.Deployment, st appsv1.DeploymentStatus) *appsv1.Deployment {
	d = d.DeepCopy()
	d.Status = st
	return d
}

// TestDeploymentSync is syncDeployment of one key: a new deployment gets
// its replica set; a changed template starts a rolling update within
// maxSurge and maxUnavailable (1 and 1 in v1.5, 25% and 25% today); a
// paused one only has its status written; one that selects everything is
// refused with an event.
func TestDeploymentSync(t *testing.T) {
	old := newDeployment("web", 3, "web:1")
	oldRS := replicaSetOf(old, "1111", 3)
	oldRS.Status = appsv1.ReplicaSetStatus{Replicas: 3, ReadyReplicas: 3, AvailableReplicas: 3}
	paused := newDeployment("web", 3, "web:1")
	paused.Spec.Paused = true
	selectsAll := newDeployment("web", 3, "web:1")
	selectsAll.Spec.Selector = &metav1.LabelSelector{}
	for _, tc := range []struct {
		name string
		era  informer.Era // default classic
		d    *appsv1.Deployment
		rss  []*appsv1.ReplicaSet
		// newRS > 0 adds a replica set of the deployment's template with
		// that many replicas (none ready yet).
		newRS int32
		// want is given the deployment and its replica sets as the
		// apiserver stored them, and the hash of its template.
		want func(d *appsv1.Deployment, rss []*appsv1.ReplicaSet, hash string) []k8stesting.Action
	}{{
		name: "creates the replica set of a new deployment",
		d:    newDeployment("web", 3, "web:1"),
		want: func(d *appsv1.Deployment, _ []*appsv1.ReplicaSet, hash string) []k8stesting.Action {
			return []k8stesting.Action{creates("replicasets", replicaSetOf(d, hash, 3)),
				updatesStatus("deployments", withDeploymentStatus(d, appsv1.DeploymentStatus{ObservedGeneration: 1, UnavailableReplicas: 3}))}
		},
	}, {
		name: "a new template: a replica set of one surge pod; the old one waits for the next sync",
		d:    newDeployment("web", 3, "web:2"), rss: []*appsv1.ReplicaSet{oldRS},
		want: func(d *appsv1.Deployment, _ []*appsv1.ReplicaSet, hash string) []k8stesting.Action {
			return []k8stesting.Action{creates("replicasets", replicaSetOf(d, hash, 1)),
				updatesStatus("deployments", withDeploymentStatus(d, appsv1.DeploymentStatus{ObservedGeneration: 1, Replicas: 3, ReadyReplicas: 3, AvailableReplicas: 3}))}
		},
	}, {
		name: "mid-rollout: the old replica set goes down within maxUnavailable",
		d:    newDeployment("web", 3, "web:2"), rss: []*appsv1.ReplicaSet{oldRS}, newRS: 1,
		want: func(d *appsv1.Deployment, rss []*appsv1.ReplicaSet, _ string) []k8stesting.Action {
			down := rss[0].DeepCopy()
			down.Spec.Replicas = ptr.To[int32](2)
			return []k8stesting.Action{updates("replicasets", down),
				updatesStatus("deployments", withDeploymentStatus(d, appsv1.DeploymentStatus{ObservedGeneration: 1, Replicas: 3, ReadyReplicas: 3, AvailableReplicas: 3}))}
		},
	}, {
		name: "mid-rollout today: 25% of 3 may be unavailable, which rounds down to none",
		era:  informer.Modern,
		d:    newDeployment("web", 3, "web:2"), rss: []*appsv1.ReplicaSet{oldRS}, newRS: 1,
		want: func(d *appsv1.Deployment, _ []*appsv1.ReplicaSet, _ string) []k8stesting.Action {
			return []k8stesting.Action{
				updatesStatus("deployments", withDeploymentStatus(d, appsv1.DeploymentStatus{ObservedGeneration: 1, Replicas: 3, ReadyReplicas: 3, AvailableReplicas: 3}))}
		},
	}, {
		name: "paused: no rollout, only the status",
		d:    paused,
		want: func(d *appsv1.Deployment, _ []*appsv1.ReplicaSet, _ string) []k8stesting.Action {
			return []k8stesting.Action{updatesStatus("deployments", withDeploymentStatus(d, appsv1.DeploymentStatus{ObservedGeneration: 1, UnavailableReplicas: 3}))}
		},
	}, {
		name: "selects every pod: an event, no request",
		d:    selectsAll,
		want: func(*appsv1.Deployment, []*appsv1.ReplicaSet, string) []k8stesting.Action { return nil },
	}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t, cmp.Or(tc.era, informer.Classic))
				dc := newDeploymentController(f.ctx, f.cc)
				d := add(f, dc.dInf, tc.d)
				hash := dc.templateHash(&d.Spec.Template)
				var rss []*appsv1.ReplicaSet
				for _, rs := range tc.rss {
					rss = append(rss, add(f, dc.rsInf, rs))
				}
				if tc.newRS > 0 {
					rss = append(rss, add(f, dc.rsInf, replicaSetOf(d, hash, tc.newRS)))
				}
				f.check(func(ctx context.Context) error { return dc.sync(ctx, "default/web") }, tc.want(d, rss, hash))
			})
		})
	}
}
