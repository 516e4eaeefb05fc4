package cluster

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
)

// The fake clientset ignores field selectors; a real apiserver does not,
// and the kubelet depends on it: its pod source lists and watches
// `spec.nodeName=<node>` (pkg/kubelet/config/apiserver.go). This apiserver
// supports the fields every resource has and the pod fields the simulated
// components select on (pkg/registry/core/pod/strategy.go PodToSelectableFields).

// selectableFields are the fields of obj a field selector can match.
func selectableFields(obj runtime.Object) fields.Set {
	set := fields.Set{}
	if m, err := meta.Accessor(obj); err == nil {
		set["metadata.name"] = m.GetName()
		set["metadata.namespace"] = m.GetNamespace()
	}
	if p, ok := obj.(*corev1.Pod); ok {
		set["spec.nodeName"] = p.Spec.NodeName
		set["spec.restartPolicy"] = string(p.Spec.RestartPolicy)
		set["status.phase"] = string(p.Status.Phase)
	}
	return set
}

// filterList keeps the items of list that sel matches.
func filterList(list runtime.Object, sel fields.Selector) error {
	if sel == nil || sel.Empty() {
		return nil
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return err
	}
	kept := items[:0]
	for _, it := range items {
		if sel.Matches(selectableFields(it)) {
			kept = append(kept, it)
		}
	}
	return meta.SetList(list, kept)
}
