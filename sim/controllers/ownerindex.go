package controllers

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeloom/kubeloom/sim/informer"
)

// podControllerUIDIndex indexes the pods of a cache by the UID of their
// controller, and the pods without one under orphanKey(namespace): today's
// controller.AddPodControllerUIDIndexer (pkg/controller/controller_utils.go),
// which the ReplicaSet controller's getRSPods reads. v1.5's
// syncReplicaSet lists the whole namespace and classifies every pod; both
// find the same pods (those the owner controls, and matching orphans), but
// the index costs one map lookup where the list walks every pod of the
// namespace: with 30,000 pods and a sync per pod event, the walk was the
// controller-manager's largest cost (docs/design.md, "Scale").
const podControllerUIDIndex = "podControllerUID"

// addPodControllerUIDIndex adds the index to a pods informer once (the
// replica set controller and the replication manager share the informer).
func addPodControllerUIDIndex(inf *informer.Informer) {
	err := inf.AddIndex(podControllerUIDIndex, func(obj any) ([]string, error) {
		p, ok := obj.(*corev1.Pod)
		if !ok {
			return nil, nil
		}
		if ref := metav1.GetControllerOfNoCopy(p); ref != nil {
			return []string{string(ref.UID)}, nil
		}
		return []string{orphanKey(p.Namespace)}, nil
	})
	if err != nil {
		panic(err) // only a second index of the same name fails, which AddIndex rules out
	}
}

func orphanKey(namespace string) string { return "orphan/" + namespace }

// controlledOrOrphan returns the pods an owner controls and the orphans of
// its namespace, in no particular order.
func controlledOrOrphan(inf *informer.Informer, namespace string, uid types.UID) []*corev1.Pod {
	var out []*corev1.Pod
	for _, key := range []string{string(uid), orphanKey(namespace)} {
		objs, _ := inf.Indexer().ByIndex(podControllerUIDIndex, key)
		for _, o := range objs {
			if p := o.(*corev1.Pod); p.Namespace == namespace {
				out = append(out, p)
			}
		}
	}
	return out
}
