package timelinetest

import (
	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
)

// PodStarts is a recording with known pod starts, for the tests of
// traces/podstartup and the views of its figures (seconds from 0):
//
//	pod                 created  scheduled      Running
//	default/solo        1 (run)  1.5 node-2     3.5
//	default/web-abc-aaaaa 10     10   node-1    11 (and 20, not the first)
//	default/web-abc-bbbbb 10     10.5 node-2    13.5
//	default/web-abc-ccccc 12     12.25 node-1   never
//	default/static-node-1 static (mirror created at 2)  2.5
//	default/pre         loaded before the run, Running at 4 on node-1
//	default/job-x-?????  created at 30 by generateName, never seen again
func PodStarts() []traces.Span {
	r := New("hand")
	r.Instance("kubeloom", "scenario")
	r.Span(Root, "action/create", 1, 1, catalog.AttrObjectKey, "default/solo")
	r.Span(Root, "action/create", 10, 10, catalog.AttrObjectKey, "default/web") // a Deployment: no pod has its name
	bind := r.Goroutine(Root, "scheduler/bind", catalog.KindGo, 0, 60)
	sched := func(n int, key, node string, at float64) {
		r.Iteration(bind, "scheduler/bind", "scheduleOne", n, at, at, catalog.AttrObjectKey, key, catalog.AttrNode, node)
	}
	sched(1, "default/solo", "node-2", 1.5)
	sched(2, "default/web-abc-aaaaa", "node-1", 10)
	sched(3, "default/web-abc-bbbbb", "node-2", 10.5)
	sched(4, "default/web-abc-ccccc", "node-1", 12.25)

	r.Instance("kube-controller-manager", "cm-0")
	for _, at := range []float64{10, 10, 12} {
		r.Span(Root, "pods.Create", at, at, catalog.AttrObjectKey, "default/web-abc-")
	}
	r.Span(Root, "pods.Create", 30, 30, catalog.AttrObjectKey, "default/job-x-")

	status := func(node string, writes ...any) {
		r.Instance("kubelet", node)
		sm := r.Goroutine(Root, "kubelet/status-manager", catalog.KindForever, 0, 60)
		for i := 0; i < len(writes); i += 3 {
			at := writes[i+2].(float64)
			r.Iteration(sm, "kubelet/status-manager", "syncPod", i/3+1, at, at,
				catalog.AttrObjectKey, writes[i], "k8s.pod.phase", writes[i+1])
		}
	}
	status("node-1",
		"default/static-node-1", "Running", 2.5,
		"default/pre", "Running", 4.0,
		"default/web-abc-aaaaa", "Pending", 10.1,
		"default/web-abc-aaaaa", "Running", 11.0,
		"default/web-abc-ccccc", "Pending", 12.5,
		"default/web-abc-aaaaa", "Running", 20.0)
	r.Span(Root, "pods.Create", 2, 2, "kubelet.mirror_pod", "default/static-node-1")
	status("node-2",
		"default/solo", "Running", 3.5,
		"default/web-abc-bbbbb", "Running", 13.5)
	return r.Spans()
}
