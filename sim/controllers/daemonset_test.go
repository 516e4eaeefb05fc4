package controllers

import (
	"context"
	"testing"
	"testing/synctest"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	k8stesting "k8s.io/client-go/testing"

	"github.com/kubeloom/kubeloom/sim/informer"
)

func newDaemonSet(name string) *appsv1.DaemonSet {
	return &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name)},
		Spec: appsv1.DaemonSetSpec{Selector: selector(name), Template: template(name)}}
}

func newNode(name string, labels map[string]string) *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}}
}

// TestDaemonSetSync is syncDaemonSet of one key: a pod, created with its
// node set (v1.5 bypasses the scheduler), on every node that should run
// one and has none; the pods of nodes that should not run one, or are gone,
// deleted; and the status counted.
func TestDaemonSetSync(t *testing.T) {
	dsKind := appsv1.SchemeGroupVersion.WithKind("DaemonSet")
	agent := newDaemonSet("agent")
	onSSD := newDaemonSet("agent")
	onSSD.Spec.Template.Spec.NodeSelector = map[string]string{"disk": "ssd"}
	selectsAll := newDaemonSet("agent")
	selectsAll.Spec.Selector = &metav1.LabelSelector{}
	podOn := func(name, node string, ready bool) *corev1.Pod {
		p := ownedPod(name, "agent", agent, dsKind, ready)
		p.Spec.NodeName = node
		return p
	}
	for _, tc := range []struct {
		name  string
		ds    *appsv1.DaemonSet
		nodes []*corev1.Node
		pods  []*corev1.Pod
		want  func(ds *appsv1.DaemonSet) []k8stesting.Action
	}{{
		name:  "a pod on each node",
		ds:    agent,
		nodes: []*corev1.Node{newNode("node-1", nil), newNode("node-2", nil)},
		want: func(ds *appsv1.DaemonSet) []k8stesting.Action {
			on := func(node string) *corev1.Pod {
				p := podFor(ds, dsKind, template("agent"))
				p.Spec.NodeName = node
				return p
			}
			st := ds.DeepCopy()
			st.Status = appsv1.DaemonSetStatus{DesiredNumberScheduled: 2, ObservedGeneration: 1}
			return []k8stesting.Action{creates("pods", on("node-1")), creates("pods", on("node-2")), updatesStatus("daemonsets", st)}
		},
	}, {
		name:  "only on the nodes its node selector picks; the others' pods go",
		ds:    onSSD,
		nodes: []*corev1.Node{newNode("node-1", map[string]string{"disk": "ssd"}), newNode("node-2", nil), newNode("node-3", map[string]string{"disk": "ssd"})},
		pods:  []*corev1.Pod{podOn("agent-1", "node-1", true), podOn("agent-2", "node-2", true), podOn("agent-9", "node-9", true)},
		want: func(ds *appsv1.DaemonSet) []k8stesting.Action {
			p := podFor(ds, dsKind, ds.Spec.Template)
			p.Spec.NodeName = "node-3"
			st := ds.DeepCopy()
			st.Status = appsv1.DaemonSetStatus{DesiredNumberScheduled: 2, CurrentNumberScheduled: 1, NumberMisscheduled: 1, NumberReady: 1, ObservedGeneration: 1}
			return []k8stesting.Action{creates("pods", p), deletes("pods", "default", "agent-2", metav1.DeleteOptions{}),
				deletes("pods", "default", "agent-9", metav1.DeleteOptions{}), updatesStatus("daemonsets", st)}
		},
	}, {
		name:  "selects every pod: an event, no request",
		ds:    selectsAll,
		nodes: []*corev1.Node{newNode("node-1", nil)},
		want:  func(*appsv1.DaemonSet) []k8stesting.Action { return nil },
	}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t, informer.Classic)
				dsc := newDaemonSetController(f.ctx, f.cc)
				ds := add(f, dsc.dsInf, tc.ds)
				for _, n := range tc.nodes {
					add(f, dsc.nodes, n)
				}
				for _, p := range tc.pods {
					add(f, dsc.pods, p)
				}
				f.check(func(ctx context.Context) error { return dsc.sync(ctx, "default/agent") }, tc.want(ds))
			})
		})
	}
}
