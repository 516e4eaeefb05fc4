package controllers

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"testing/synctest"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeloom/kubeloom/sim/informer"
)

// TestReplicaTallyMatchesTheWalk makes random changes to the pods of two
// owners and some orphans (creations, readiness, label and owner changes,
// graceful and final deletions, failures) and checks after each that the
// tally's counts are the ones a walk of the namespace finds.
func TestReplicaTallyMatchesTheWalk(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, informer.Classic)
		pods := h.cc.Informers.Informer("pods")
		addPodControllerUIDIndex(pods)
		tally := newReplicaTally(pods)
		h.cc.Informers.Start(h.ctx)
		gvk := appsv1.SchemeGroupVersion.WithKind("ReplicaSet")
		var owners []replicaSet
		for i, name := range []string{"web", "api"} {
			rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID(fmt.Sprint("uid-", i))},
				Spec: appsv1.ReplicaSetSpec{Selector: selector(name), Template: template(name)}}
			rs.Spec.Template.Labels["tier"] = "front" // pods without it are not fully labeled
			sel, err := selectorOf(rs.Spec.Selector)
			if err != nil {
				t.Fatal(err)
			}
			owners = append(owners, replicaSet{obj: rs, meta: rs, gvk: gvk, selector: sel, template: &rs.Spec.Template})
		}
		rng := rand.New(rand.NewPCG(7, 8))
		client := h.c.Client.CoreV1().Pods("default")
		for step := range 400 {
			name := fmt.Sprint("p-", rng.IntN(40))
			p, err := client.Get(t.Context(), name, metav1.GetOptions{})
			if err != nil {
				p = &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}}
				randomize(rng, p, owners)
				if _, err := client.Create(t.Context(), p, metav1.CreateOptions{}); err != nil {
					t.Fatal(err)
				}
			} else if rng.IntN(5) == 0 {
				if err := client.Delete(t.Context(), name, metav1.DeleteOptions{}); err != nil {
					t.Fatal(err)
				}
			} else {
				randomize(rng, p, owners)
				upd, err := client.Update(t.Context(), p, metav1.UpdateOptions{})
				if err != nil {
					t.Fatal(err)
				}
				upd.Status = p.Status
				if _, err := client.UpdateStatus(t.Context(), upd, metav1.UpdateOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			h.after(time.Second)
			for _, rs := range owners {
				walked := countReplicas(ownedPods(pods, rs), rs, h.clk.Now())
				if got := tally.counts(rs); got != walked {
					t.Fatalf("step %d, owner %s: tally %+v, walk %+v", step, rs.meta.GetName(), got, walked)
				}
			}
		}
		for _, rs := range owners {
			if n := tally.counts(rs); n.replicas == 0 || n.ready == 0 || n.fullyLabeled == n.replicas {
				t.Errorf("owner %s: counts %+v: the random changes should leave some ready pods and some not fully labeled", rs.meta.GetName(), n)
			}
		}
	})
}

// randomize gives a pod a random owner (or none), labels, phase,
// readiness and, sometimes, a deletion timestamp.
func randomize(rng *rand.Rand, p *corev1.Pod, owners []replicaSet) {
	p.OwnerReferences = nil
	if i := rng.IntN(len(owners) + 1); i < len(owners) {
		p.OwnerReferences = []metav1.OwnerReference{controllerRef(owners[i].meta, owners[i].gvk)}
	}
	app := []string{"web", "api", "other"}[rng.IntN(3)]
	p.Labels = map[string]string{"app": app}
	if rng.IntN(2) == 0 {
		p.Labels["tier"] = "front"
	} else if rng.IntN(4) == 0 {
		delete(p.Labels, "app")
	}
	p.Status.Phase = []corev1.PodPhase{corev1.PodPending, corev1.PodRunning, corev1.PodRunning, corev1.PodFailed}[rng.IntN(4)]
	ready := corev1.ConditionFalse
	if rng.IntN(2) == 0 {
		ready = corev1.ConditionTrue
	}
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: ready}}
	if p.Spec.Containers == nil {
		p.Spec.Containers = []corev1.Container{{Name: "c", Image: "nginx"}}
	}
}
