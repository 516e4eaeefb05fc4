package scenarios

import (
	"context"
	"strings"

	"github.com/goccy/go-yaml"
)

// InjectOOM makes the kernel OOM killer fire on a node. Without Pod it is a system OOM (a
// process outside any pod is killed), which the kubelet's OOM watcher records as a SystemOOM
// event. With Pod, a container of that pod is OOM-killed and restarts per its restartPolicy.
type InjectOOM struct {
	Node string // node-1 … node-N
	// Namespace is the pod's namespace: "default" when the file writes the pod without one;
	// "" when Pod is "".
	Namespace string
	Pod       string // the pod's name; "" for a system OOM
	Container string // the container to kill; "" for the pod's first container (always "" without Pod)
}

// Name returns "injectOOM".
func (*InjectOOM) Name() string { return "injectOOM" }

func (oom *InjectOOM) decode(vd *verbDecoder) bool {
	f, ok := vd.args("a mapping with node, and optionally pod and container, such as {node: node-1} or {node: node-1, pod: default/web-0, container: web}", "node", "pod", "container")
	if !ok {
		return false
	}
	oom.Node, ok = vd.node(f)
	// The pod is written name or namespace/name; a bare name is in the default namespace, as
	// kubectl takes it.
	pod := f.optional("pod", "a pod as name or namespace/name in lower case, such as web-0 or kube-system/etcd-node-1")
	if v, good := pod.str(func(s string) bool { ns, name := podRef(s); return isDNSLabel(ns) && isDNSSubdomain(name) }); good {
		oom.Namespace, oom.Pod = podRef(v)
	} else if f.has("pod") {
		ok = false
	}
	if c := f.optional("container", "a container name of lower-case letters, digits and '-', such as web"); c.set() {
		if !f.has("pod") {
			vd.errorf(c.fl.key, c.fl.path, "only allowed together with pod: name the pod whose container the OOM killer kills, such as pod: default/web-0; without pod, injectOOM kills a process outside any pod (a system OOM)")
			ok = false
		} else if v, good := c.str(isDNSLabel); good {
			oom.Container = v
		} else {
			ok = false
		}
	} else if f.has("container") {
		ok = false
	}
	return ok
}

// podRef splits a pod written "name" or "namespace/name".
func podRef(s string) (namespace, name string) {
	namespace, name, qualified := strings.Cut(s, "/")
	if !qualified {
		return defaultNamespace, s
	}
	return namespace, name
}

func (oom *InjectOOM) args() (any, error) {
	m := yaml.MapSlice{{Key: "node", Value: oom.Node}}
	if oom.Pod != "" {
		m = append(m, yaml.MapItem{Key: "pod", Value: oom.Namespace + "/" + oom.Pod})
	}
	if oom.Container != "" {
		m = append(m, yaml.MapItem{Key: "container", Value: oom.Container})
	}
	return m, nil
}

// Apply fires the OOM killer.
func (oom *InjectOOM) Apply(ctx context.Context, w World) error {
	return w.InjectOOM(ctx, oom.Node, oom.Namespace, oom.Pod, oom.Container)
}
