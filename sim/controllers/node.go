package controllers

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/version"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/events"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
)

// nodeEvictionPeriod is how often the zone pod evictor runs.
const nodeEvictionPeriod = 100 * time.Millisecond

// NodeController (pkg/controller/node/nodecontroller.go, v1.5): every
// --node-monitor-period (5s) it looks at every node's Ready condition. A
// node whose kubelet has not posted status for --node-monitor-grace-period
// (40s) is marked Ready=Unknown and its pods NotReady; one that stays so
// for --pod-eviction-timeout (5m) is queued for eviction, and the zone pod
// evictor (every 100ms, rate-limited per zone) deletes its pods.
func startNode(ctx context.Context, c *Context) string {
	nc := &nodeController{
		c: c, nodes: c.Informers.Informer("nodes"), pods: c.Informers.Informer("pods"), daemonSets: c.Informers.Informer("daemonsets"),
		status: map[string]*nodeStatus{}, known: map[string]bool{}, evictors: map[string]*evictionQueue{}, zones: map[string]string{},
	}
	nc.recorder = c.NewEvents(ctx, "controllermanager", true, true).Recorder(ctx)
	nc.pods.AddHandler(ctx, informer.Funcs{HandlerName: "node-controller", Add: nc.maybeDeleteTerminatingPod,
		Update: func(ctx context.Context, _, cur any) { nc.maybeDeleteTerminatingPod(ctx, cur) }})
	// Without --allocate-node-cidrs the node informer gets an empty handler,
	// which still costs a listener pair.
	nc.nodes.AddHandler(ctx, informer.Funcs{HandlerName: "node-controller"})
	// nodeController.Run(): v1.5 runs everything from one goroutine that
	// waits for the caches, starts the two loops and returns.
	rt := goroutine.RuntimeFrom(ctx)
	life := ctx
	rt.Go(ctx, "controller/node/run", func(ctx context.Context) {
		if !informer.WaitForCacheSync(ctx, c.Era, "nodes, pods, daemonsets", nc.nodes.HasSynced, nc.pods.HasSynced, nc.daemonSets.HasSynced) {
			return
		}
		loops := goroutine.Outlive(ctx, life)
		rt.Until(loops, "controller/node/monitor", c.Config.NodeMonitorPeriod.Duration, nc.monitorNodeStatus, goroutine.WithIterationName("monitorNodeStatus"))
		rt.Until(loops, "controller/node/pod-evictor", nodeEvictionPeriod, nc.evictPass, goroutine.WithIterationName("zonePodEvictor"))
	})
	return ""
}

type nodeController struct {
	c                       *Context
	nodes, pods, daemonSets *informer.Informer
	recorder                events.Recorder

	mu       sync.Mutex
	status   map[string]*nodeStatus    // what the controller last saw of each node
	known    map[string]bool           // knownNodeSet
	evictors map[string]*evictionQueue // per zone
	zones    map[string]string         // zone → state
	stopAll  bool                      // every zone fully disrupted: no evictions
}

// nodeStatus is nodeStatusData: times on the controller's own clock.
type nodeStatus struct {
	probe, readyTransition time.Time
	status                 corev1.NodeStatus
}

func (nc *nodeController) now(ctx context.Context) time.Time {
	return goroutine.RuntimeFrom(ctx).Clock().Now()
}

func (nc *nodeController) monitorNodeStatus(ctx context.Context) {
	list, err := call(ctx, "nodes.List", "", func(ctx context.Context) (*corev1.NodeList, error) {
		return nc.c.Client.CoreV1().Nodes().List(ctx, metav1.ListOptions{ResourceVersion: "0"})
	})
	if err != nil {
		return
	}
	nodes := list.Items
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].Name < nodes[j].Name })
	nc.checkAddedDeleted(ctx, nodes)
	zoneReady := map[string][2]int{} // zone → ready, not ready
	for i := range nodes {
		node := &nodes[i]
		observed, current := nc.tryUpdateNodeStatus(ctx, node)
		zone := zoneOf(node)
		counts := zoneReady[zone]
		if current != nil && current.Status == corev1.ConditionTrue {
			counts[0]++
		} else {
			counts[1]++
		}
		zoneReady[zone] = counts
		if current == nil {
			continue
		}
		nc.mu.Lock()
		saved := nc.status[node.Name]
		nc.mu.Unlock()
		now := nc.now(ctx)
		timeout := nc.c.Config.PodEvictionTimeout.Duration
		switch observed.Status {
		case corev1.ConditionFalse:
			if now.After(saved.readyTransition.Add(timeout)) {
				nc.evictPods(ctx, node)
			}
		case corev1.ConditionUnknown:
			if now.After(saved.probe.Add(timeout)) {
				nc.evictPods(ctx, node)
			}
		case corev1.ConditionTrue:
			nc.cancelPodEviction(ctx, node)
		}
		if current.Status != corev1.ConditionTrue && observed.Status == corev1.ConditionTrue {
			nc.recorder.Eventf(ctx, node, corev1.EventTypeNormal, "NodeNotReady", "Node %s status is now: %s", node.Name, "NodeNotReady")
			nc.markAllPodsNotReady(ctx, node)
		}
	}
	nc.handleDisruption(ctx, zoneReady)
}

// checkAddedDeleted registers new nodes and forgets removed ones.
func (nc *nodeController) checkAddedDeleted(ctx context.Context, nodes []corev1.Node) {
	seen := map[string]bool{}
	for i := range nodes {
		n := &nodes[i]
		seen[n.Name] = true
		nc.mu.Lock()
		isNew := !nc.known[n.Name]
		nc.known[n.Name] = true
		zone := zoneOf(n)
		if nc.evictors[zone] == nil {
			nc.evictors[zone] = newEvictionQueue(float64(nc.c.Config.NodeEvictionRate), nc.now(ctx))
			nc.zones[zone] = "Initial"
		}
		nc.mu.Unlock()
		if isNew {
			nc.recorder.Eventf(ctx, n, corev1.EventTypeNormal, "RegisteredNode", "Node %s event: Registered Node %s in NodeController", n.Name, n.Name)
			nc.cancelPodEviction(ctx, n)
		}
	}
	nc.mu.Lock()
	var gone []string
	for name := range nc.known {
		if !seen[name] {
			gone = append(gone, name)
			delete(nc.known, name)
			delete(nc.status, name)
		}
	}
	nc.mu.Unlock()
	sort.Strings(gone)
	for _, name := range gone {
		ref := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}}
		nc.recorder.Eventf(ctx, ref, corev1.EventTypeNormal, "RemovingNode", "Node %s event: Removing Node %s from NodeController", name, name)
	}
}

// tryUpdateNodeStatus marks a silent node's Ready condition Unknown. It
// returns the Ready condition as observed and as it is now.
func (nc *nodeController) tryUpdateNodeStatus(ctx context.Context, node *corev1.Node) (observed, current *corev1.NodeCondition) {
	now := nc.now(ctx)
	ready := condition(&node.Status, corev1.NodeReady)
	nc.mu.Lock()
	saved, found := nc.status[node.Name]
	switch {
	case !found:
		saved = &nodeStatus{probe: now, readyTransition: now, status: node.Status}
		nc.status[node.Name] = saved
	default:
		old := condition(&saved.status, corev1.NodeReady)
		if ready != nil && (old == nil || !old.LastHeartbeatTime.Equal(&ready.LastHeartbeatTime)) {
			saved.probe = now
			if old == nil || old.Status != ready.Status {
				saved.readyTransition = now
			}
		}
		saved.status = node.Status
	}
	grace := nc.c.Config.NodeMonitorGracePeriod.Duration
	if ready == nil {
		grace = nc.c.Config.NodeStartupGracePeriod.Duration
	}
	expired := now.After(saved.probe.Add(grace))
	nc.mu.Unlock()
	if ready != nil {
		o := *ready
		observed = &o
	}
	if !expired {
		return observed, ready
	}
	upd := node.DeepCopy()
	changed := false
	if r := condition(&upd.Status, corev1.NodeReady); r == nil {
		upd.Status.Conditions = append(upd.Status.Conditions, corev1.NodeCondition{Type: corev1.NodeReady, Status: corev1.ConditionUnknown,
			Reason: "NodeStatusNeverUpdated", Message: "Kubelet never posted node status.",
			LastHeartbeatTime: node.CreationTimestamp, LastTransitionTime: metav1.NewTime(now)})
		changed = true
	} else if r.Status != corev1.ConditionUnknown {
		r.Status, r.Reason, r.Message, r.LastTransitionTime = corev1.ConditionUnknown, "NodeStatusUnknown", "Kubelet stopped posting node status.", metav1.NewTime(now)
		changed = true
	}
	if d := condition(&upd.Status, "OutOfDisk"); d != nil && d.Status != corev1.ConditionUnknown {
		d.Status, d.Reason, d.Message, d.LastTransitionTime = corev1.ConditionUnknown, "NodeStatusUnknown", "Kubelet stopped posting node status.", metav1.NewTime(now)
	}
	if !changed {
		return observed, ready
	}
	out, err := call(ctx, "nodes.UpdateStatus", node.Name, func(ctx context.Context) (*corev1.Node, error) {
		return nc.c.Client.CoreV1().Nodes().UpdateStatus(ctx, upd, metav1.UpdateOptions{})
	})
	if err != nil {
		return observed, ready
	}
	goroutine.SpanFrom(ctx).AddEvent("node status unknown", attribute.String(catalog.AttrNode, node.Name),
		attribute.Float64("silent_s", now.Sub(saved.probe).Seconds()))
	nc.mu.Lock()
	nc.status[node.Name] = &nodeStatus{probe: saved.probe, readyTransition: now, status: out.Status}
	nc.mu.Unlock()
	if observed == nil {
		observed = &corev1.NodeCondition{Type: corev1.NodeReady, Status: corev1.ConditionUnknown}
	}
	return observed, condition(&out.Status, corev1.NodeReady)
}

func condition(st *corev1.NodeStatus, t corev1.NodeConditionType) *corev1.NodeCondition {
	for i := range st.Conditions {
		if st.Conditions[i].Type == t {
			return &st.Conditions[i]
		}
	}
	return nil
}

// zoneOf is utilnode.GetZoneKey: region and zone labels ("" for none).
func zoneOf(n *corev1.Node) string {
	region, zone := n.Labels["failure-domain.beta.kubernetes.io/region"], n.Labels["failure-domain.beta.kubernetes.io/zone"]
	if region == "" && zone == "" {
		return ""
	}
	return region + ":\x00:" + zone
}

// markAllPodsNotReady sets the Ready condition of every pod on the node to False.
func (nc *nodeController) markAllPodsNotReady(ctx context.Context, node *corev1.Node) {
	for _, p := range nc.podsOn(node.Name) {
		var cond *corev1.PodCondition
		for i := range p.Status.Conditions {
			if p.Status.Conditions[i].Type == corev1.PodReady {
				cond = &p.Status.Conditions[i]
			}
		}
		if cond == nil || cond.Status == corev1.ConditionFalse {
			continue
		}
		upd := p.DeepCopy()
		for i := range upd.Status.Conditions {
			if upd.Status.Conditions[i].Type == corev1.PodReady {
				upd.Status.Conditions[i].Status = corev1.ConditionFalse
			}
		}
		call(ctx, "pods.UpdateStatus", p.Namespace+"/"+p.Name, func(ctx context.Context) (*corev1.Pod, error) {
			return nc.c.Client.CoreV1().Pods(p.Namespace).UpdateStatus(ctx, upd, metav1.UpdateOptions{})
		})
	}
}

func (nc *nodeController) podsOn(node string) []*corev1.Pod {
	var out []*corev1.Pod
	for _, p := range listOf[*corev1.Pod](nc.pods) {
		if p.Spec.NodeName == node {
			out = append(out, p)
		}
	}
	return out
}

// evictPods queues the node for its zone's evictor.
func (nc *nodeController) evictPods(ctx context.Context, node *corev1.Node) {
	nc.mu.Lock()
	defer nc.mu.Unlock()
	if nc.evictors[zoneOf(node)].add(node.Name, string(node.UID), nc.now(ctx)) {
		goroutine.SpanFrom(ctx).AddEvent("node queued for eviction", attribute.String(catalog.AttrNode, node.Name))
	}
}

func (nc *nodeController) cancelPodEviction(ctx context.Context, node *corev1.Node) {
	nc.mu.Lock()
	defer nc.mu.Unlock()
	if q := nc.evictors[zoneOf(node)]; q != nil && q.remove(node.Name) {
		goroutine.SpanFrom(ctx).AddEvent("cancelled eviction", attribute.String(catalog.AttrNode, node.Name))
	}
}

// handleDisruption sets each zone's eviction rate from how many of its
// nodes are ready; when every zone is fully disrupted the controller
// assumes the problem is its own (the master's network) and evicts nothing.
func (nc *nodeController) handleDisruption(ctx context.Context, counts map[string][2]int) {
	nc.mu.Lock()
	defer nc.mu.Unlock()
	allFull := len(counts) > 0
	states := map[string]string{}
	for zone, c := range counts {
		ready, notReady := c[0], c[1]
		state := "Normal"
		switch {
		case ready == 0 && notReady > 0:
			state = "FullDisruption"
		case notReady > 2 && float32(notReady)/float32(ready+notReady) >= nc.c.Config.UnhealthyZoneThreshold:
			state = "PartialDisruption"
		}
		states[zone] = state
		allFull = allFull && state == "FullDisruption"
	}
	sp := goroutine.SpanFrom(ctx)
	if allFull != nc.stopAll {
		nc.stopAll = allFull
		if allFull {
			sp.AddEvent("NodeController detected that all Nodes are not-Ready. Entering master disruption mode.")
		} else {
			sp.AddEvent("NodeController detected that some Nodes are Ready. Exiting master disruption mode.")
		}
	}
	// By zone, not in map order: so that a run repeats (a few zones, every 5s).
	for _, zone := range slices.Sorted(maps.Keys(states)) {
		state := states[zone]
		if nc.zones[zone] != state {
			sp.AddEvent(fmt.Sprintf("NodeController detected that zone %q is now in state %s.", zone, state))
			nc.zones[zone] = state
		}
		rate := float64(nc.c.Config.NodeEvictionRate)
		switch {
		case allFull:
			rate = 0
		case state == "PartialDisruption":
			rate = 0
			if zoneSize := counts[zone][0] + counts[zone][1]; zoneSize > int(nc.c.Config.LargeClusterSizeThreshold) {
				rate = float64(nc.c.Config.SecondaryNodeEvictionRate)
			}
		}
		nc.evictors[zone].setRate(rate)
	}
}

// evictPass is one run of the zone pod evictor: each zone's queue hands
// out the nodes whose time has come, as its rate limiter allows, and their
// pods are deleted.
func (nc *nodeController) evictPass(ctx context.Context) {
	now := nc.now(ctx)
	nc.mu.Lock()
	var due []evictee
	zones := make([]string, 0, len(nc.evictors))
	for z := range nc.evictors {
		zones = append(zones, z)
	}
	sort.Strings(zones)
	for _, z := range zones {
		due = append(due, nc.evictors[z].take(now)...)
	}
	nc.mu.Unlock()
	for _, e := range due {
		if remaining := nc.deletePods(ctx, e.node); remaining {
			goroutine.SpanFrom(ctx).AddEvent("Pods awaiting deletion due to NodeController eviction", attribute.String(catalog.AttrNode, e.node))
		}
	}
}

// deletePods deletes the pods of a node, except daemon set pods, and says
// whether some are still there (being deleted gracefully).
func (nc *nodeController) deletePods(ctx context.Context, node string) (remaining bool) {
	pods := nc.podsOn(node)
	if len(pods) > 0 {
		ref := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: node}}
		nc.recorder.Eventf(ctx, ref, corev1.EventTypeNormal, "DeletingAllPods", "Node %s event: Deleting all Pods from Node %s.", node, node)
	}
	for _, p := range pods {
		if p.DeletionGracePeriodSeconds != nil {
			remaining = true
			continue
		}
		if ref := ownerOf(p); ref != nil && ref.Kind == "DaemonSet" {
			continue
		}
		upd := p.DeepCopy()
		upd.Status.Reason, upd.Status.Message = "NodeLost", fmt.Sprintf("Node %v which was running pod %v is unresponsive", node, p.Name)
		call(ctx, "pods.UpdateStatus", p.Namespace+"/"+p.Name, func(ctx context.Context) (*corev1.Pod, error) {
			return nc.c.Client.CoreV1().Pods(p.Namespace).UpdateStatus(ctx, upd, metav1.UpdateOptions{})
		})
		nc.recorder.Eventf(ctx, p, corev1.EventTypeNormal, "NodeControllerEviction", "Marking for deletion Pod %s from Node %s", p.Name, node)
		err := do(ctx, "pods.Delete", p.Namespace+"/"+p.Name, func(ctx context.Context) error {
			return nc.c.Client.CoreV1().Pods(p.Namespace).Delete(ctx, p.Name, metav1.DeleteOptions{})
		})
		if err == nil {
			remaining = true // a pod on a node goes only when its kubelet confirms
		}
	}
	return remaining
}

// maybeDeleteTerminatingPod force-deletes a pod being deleted on a node
// whose kubelet is too old (before v1.1.0) or unknown to finish the job.
func (nc *nodeController) maybeDeleteTerminatingPod(ctx context.Context, obj any) {
	p, ok := obj.(*corev1.Pod)
	if !ok || p.DeletionTimestamp == nil || p.Spec.NodeName == "" {
		return
	}
	node, ok := get[*corev1.Node](nc.nodes, p.Spec.NodeName)
	if !ok {
		return // left to PodGC
	}
	v, err := version.ParseGeneric(node.Status.NodeInfo.KubeletVersion)
	if err == nil && v.AtLeast(version.MustParseGeneric("v1.1.0")) {
		return
	}
	zero := int64(0)
	do(ctx, "pods.Delete", p.Namespace+"/"+p.Name, func(ctx context.Context) error {
		return nc.c.Client.CoreV1().Pods(p.Namespace).Delete(ctx, p.Name, metav1.DeleteOptions{GracePeriodSeconds: &zero})
	})
}

// evictionQueue is a zone's RateLimitedTimedQueue: nodes to evict, handed
// out no faster than a token bucket allows (--node-eviction-rate, burst 1).
// Like its UniqueQueue it remembers every node ever added until removed, so
// a node stays evicted once, however many monitor passes find it down.
type evictionQueue struct {
	rate   float64
	tokens float64
	last   time.Time
	queue  []evictee
	set    map[string]bool
}

type evictee struct {
	node, uid string
	added     time.Time
}

func newEvictionQueue(rate float64, now time.Time) *evictionQueue {
	return &evictionQueue{rate: rate, tokens: 1, last: now, set: map[string]bool{}}
}

func (q *evictionQueue) add(node, uid string, now time.Time) bool {
	if q.set[node] {
		return false
	}
	q.set[node] = true
	q.queue = append(q.queue, evictee{node: node, uid: uid, added: now})
	return true
}

// remove forgets a node (cancelPodEviction), queued or already evicted.
func (q *evictionQueue) remove(node string) bool {
	had := q.set[node]
	delete(q.set, node)
	for i, e := range q.queue {
		if e.node == node {
			q.queue = append(q.queue[:i], q.queue[i+1:]...)
			break
		}
	}
	return had
}

func (q *evictionQueue) setRate(r float64) { q.rate = r }

// take hands out the nodes the token bucket allows now.
func (q *evictionQueue) take(now time.Time) []evictee {
	q.tokens = min(1, q.tokens+now.Sub(q.last).Seconds()*q.rate)
	q.last = now
	var out []evictee
	for len(q.queue) > 0 && q.rate > 0 && q.tokens >= 1 {
		q.tokens--
		out = append(out, q.queue[0])
		q.queue = q.queue[1:]
	}
	return out
}
