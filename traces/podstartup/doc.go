// Package podstartup measures how long each pod of a recording took to
// start, read off the recording alone: create → scheduled → Running, the
// figure Kubernetes' first scalability goal was stated in
// (kubernetes/kubernetes#3954: "99th percentile end-to-end pod startup
// < 5 s on a 100-node, 3,000-pod cluster").
//
// Three moments of a pod, each the start of one kind of span:
//
//   - created: a scenario's action/create of the pod, or a controller's
//     pods.Create request (k8s.object.key). A controller names its pods by
//     generateName ("default/web-2078879897-"), and the recording does not
//     say which name the apiserver gave: the creates of one prefix are
//     matched, in order, to the pods of that prefix in the order the
//     scheduler bound them, which is the order the apiserver created them
//     (the scheduler takes pods from its watch, in resourceVersion order).
//   - scheduled: the scheduler stand-in's scheduleOne iteration
//     (goroutine scheduler/bind) that binds the pod (k8s.object.key,
//     k8s.node.name).
//   - running: the first syncPod iteration of kubelet/status-manager whose
//     k8s.pod.phase is Running: the status manager's GET and status write
//     that first tells the apiserver the pod runs.
//
// A static pod (from a manifest file or URL; its mirror pod's pods.Create
// carries kubelet.mirror_pod) has no create and no scheduling, and a pod
// loaded before the run began has no create: they are counted apart, and
// each interval is reckoned only over the pods that have both of its
// moments. Percentiles are nearest-rank: the p-th of n sorted values is the
// ⌈p·n/100⌉-th.
//
// The package reads spans one at a time (Collector.Span) or a timeline's
// marks (Collector.Observe, which htmlview feeds), keeps a few moments per
// pod, and sorts them once: its cost grows with the pods, not the spans.
package podstartup
