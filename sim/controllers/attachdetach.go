package controllers

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/events"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
)

const (
	reconcilerLoopPeriod = 100 * time.Millisecond
	dswpLoopPeriod       = time.Minute
	// controllerManagedAnnotation on a node says its kubelet leaves
	// attaching and detaching to this controller.
	controllerManagedAnnotation = "volumes.kubernetes.io/controller-managed-attach-detach"
)

// AttachDetachController (pkg/controller/volume/attachdetach, v1.5): its
// pod and node handlers keep a desired state of the world — which attachable
// volumes (cloud disks, directly or through a bound claim) the pods of
// controller-managed nodes need — and its reconciler, every 100ms, attaches
// what is desired and not attached, detaches what is attached and no longer
// desired, and writes each node's status.volumesAttached (a PATCH). A
// populator drops deleted pods every minute.
func startAttachDetach(ctx context.Context, c *Context) string {
	adc := &attachDetachController{c: c, pods: c.Informers.Informer("pods"), nodes: c.Informers.Informer("nodes"),
		pvcs: c.Informers.Informer("persistentvolumeclaims"), pvs: c.Informers.Informer("persistentvolumes"),
		desired: map[string]map[string]podSet{}, attached: map[string]map[string]bool{}, dirty: map[string]bool{}}
	if c.Era == informer.Classic {
		// v1.5's StartControllers passes the controller manager's own
		// recorder: NewAttachDetachController(…, ProbeAttachableVolumePlugins(…), recorder).
		adc.recorder = c.Events.Recorder(ctx)
	} else {
		// Since 1.6 NewAttachDetachController builds its own broadcaster.
		adc.recorder = c.NewEvents(ctx, "attachdetach", true, true).Recorder(ctx)
	}
	podChanged := func(ctx context.Context, obj any) { adc.processPod(ctx, obj.(*corev1.Pod), true) }
	adc.pods.AddHandler(ctx, informer.Funcs{HandlerName: "attachdetach-controller", Add: podChanged,
		Update: func(ctx context.Context, _, cur any) { podChanged(ctx, cur) },
		Delete: func(ctx context.Context, obj any) {
			if p, ok := untomb(obj).(*corev1.Pod); ok {
				adc.processPod(ctx, p, false)
			}
		}})
	nodeChanged := func(ctx context.Context, obj any) { adc.nodeUpdate(obj.(*corev1.Node)) }
	adc.nodes.AddHandler(ctx, informer.Funcs{HandlerName: "attachdetach-controller", Add: nodeChanged,
		Update: func(ctx context.Context, _, cur any) { nodeChanged(ctx, cur) },
		Delete: func(ctx context.Context, obj any) {
			if n, ok := untomb(obj).(*corev1.Node); ok {
				adc.mu.Lock()
				delete(adc.desired, n.Name)
				adc.mu.Unlock()
			}
		}})
	rt := goroutine.RuntimeFrom(ctx)
	rt.Go(ctx, "controller/attachdetach/run", func(ctx context.Context) {
		rt.Until(ctx, "controller/attachdetach/reconciler", reconcilerLoopPeriod, adc.reconcile, goroutine.WithIterationName("reconcile"))
		rt.Until(ctx, "controller/attachdetach/dswp", dswpLoopPeriod, adc.findAndRemoveDeletedPods, goroutine.WithIterationName("populatorLoopFunc"))
		<-ctx.Done()
	})
	return ""
}

type podSet map[string]bool // pod keys

type attachDetachController struct {
	c                      *Context
	pods, nodes, pvcs, pvs *informer.Informer
	recorder               events.Recorder

	mu       sync.Mutex
	desired  map[string]map[string]podSet // node → volume → pods (desired state of the world)
	attached map[string]map[string]bool   // node → volume (actual state of the world)
	dirty    map[string]bool              // nodes whose status needs volumesAttached written
}

// nodeUpdate adds a controller-managed node to the desired state.
func (adc *attachDetachController) nodeUpdate(n *corev1.Node) {
	adc.mu.Lock()
	defer adc.mu.Unlock()
	if n.Annotations[controllerManagedAnnotation] == "true" {
		if adc.desired[n.Name] == nil {
			adc.desired[n.Name] = map[string]podSet{}
		}
	} else {
		delete(adc.desired, n.Name)
	}
}

// processPod adds (or removes) a scheduled pod's attachable volumes.
func (adc *attachDetachController) processPod(ctx context.Context, p *corev1.Pod, add bool) {
	if p.Spec.NodeName == "" {
		return
	}
	key := keyOf(p)
	adc.mu.Lock()
	defer adc.mu.Unlock()
	node, managed := adc.desired[p.Spec.NodeName]
	if !managed {
		return
	}
	for _, v := range p.Spec.Volumes {
		name, ok := adc.attachable(p.Namespace, v)
		if !ok {
			continue
		}
		if add && p.DeletionTimestamp == nil && isPodActive(p) {
			if node[name] == nil {
				node[name] = podSet{}
			}
			node[name][key] = true
		} else if node[name] != nil {
			delete(node[name], key)
			if len(node[name]) == 0 {
				delete(node, name)
			}
		}
	}
}

// attachable names a volume that is attached to a node before use: a cloud
// disk given directly, or through a claim bound to a volume with one.
func (adc *attachDetachController) attachable(ns string, v corev1.Volume) (string, bool) {
	src := v.VolumeSource
	if c := src.PersistentVolumeClaim; c != nil {
		claim, ok := get[*corev1.PersistentVolumeClaim](adc.pvcs, ns+"/"+c.ClaimName)
		if !ok || claim.Spec.VolumeName == "" {
			return "", false
		}
		pv, ok := get[*corev1.PersistentVolume](adc.pvs, claim.Spec.VolumeName)
		if !ok {
			return "", false
		}
		return diskName(pv.Spec.PersistentVolumeSource.GCEPersistentDisk, pv.Spec.PersistentVolumeSource.AWSElasticBlockStore, pv.Spec.PersistentVolumeSource.AzureDisk)
	}
	return diskName(src.GCEPersistentDisk, src.AWSElasticBlockStore, src.AzureDisk)
}

func diskName(gce *corev1.GCEPersistentDiskVolumeSource, aws *corev1.AWSElasticBlockStoreVolumeSource, az *corev1.AzureDiskVolumeSource) (string, bool) {
	switch {
	case gce != nil:
		return "kubernetes.io/gce-pd/" + gce.PDName, true
	case aws != nil:
		return "kubernetes.io/aws-ebs/" + aws.VolumeID, true
	case az != nil:
		return "kubernetes.io/azure-disk/" + az.DiskName, true
	}
	return "", false
}

// reconcile is one reconciler pass: detach, attach, then update node statuses.
func (adc *attachDetachController) reconcile(ctx context.Context) {
	adc.mu.Lock()
	type op struct{ node, volume string }
	var detach, attach []op
	for node, vols := range adc.attached {
		for vol := range vols {
			if _, ok := adc.desired[node][vol]; !ok {
				detach = append(detach, op{node, vol})
			}
		}
	}
	for node, vols := range adc.desired {
		for vol := range vols {
			if !adc.attached[node][vol] {
				attach = append(attach, op{node, vol})
			}
		}
	}
	adc.mu.Unlock()
	sortOps := func(ops []op) {
		sort.Slice(ops, func(i, j int) bool {
			return ops[i].node < ops[j].node || ops[i].node == ops[j].node && ops[i].volume < ops[j].volume
		})
	}
	sortOps(detach)
	sortOps(attach)
	for _, o := range detach {
		adc.operate(ctx, "DetachVolume", o.node, o.volume, false)
	}
	for _, o := range attach {
		adc.operate(ctx, "AttachVolume", o.node, o.volume, true)
	}
	adc.updateNodeStatuses(ctx)
}

// operate attaches or detaches one volume. In Kubernetes the operation
// executor runs it on a goroutine of its own and calls the cloud; kubeloom's
// cluster has no cloud, so the operation succeeds at once.
func (adc *attachDetachController) operate(ctx context.Context, name, node, volume string, attach bool) {
	_, sp := goroutine.Start(ctx, name)
	sp.SetAttributes(attribute.String(catalog.AttrNode, node), attribute.String("volume", volume))
	sp.End()
	adc.mu.Lock()
	if adc.attached[node] == nil {
		adc.attached[node] = map[string]bool{}
	}
	if attach {
		adc.attached[node][volume] = true
	} else {
		delete(adc.attached[node], volume)
	}
	adc.dirty[node] = true
	adc.mu.Unlock()
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: node}}
	verb := "SuccessfulDetachVolume"
	if attach {
		verb = "SuccessfulAttachVolume"
	}
	adc.recorder.Eventf(ctx, n, corev1.EventTypeNormal, verb, "%s volume %q on node %q succeeded", name, volume, node)
}

// updateNodeStatuses PATCHes status.volumesAttached of every changed node.
func (adc *attachDetachController) updateNodeStatuses(ctx context.Context) {
	adc.mu.Lock()
	updates := map[string][]corev1.AttachedVolume{}
	for node := range adc.dirty {
		var vols []corev1.AttachedVolume
		for v := range adc.attached[node] {
			vols = append(vols, corev1.AttachedVolume{Name: corev1.UniqueVolumeName(v), DevicePath: "/dev/disk/by-id/" + v[len(v)-min(len(v), 12):]})
		}
		sort.Slice(vols, func(i, j int) bool { return vols[i].Name < vols[j].Name })
		updates[node] = vols
		delete(adc.dirty, node)
	}
	adc.mu.Unlock()
	nodes := make([]string, 0, len(updates))
	for n := range updates {
		nodes = append(nodes, n)
	}
	sort.Strings(nodes)
	for _, node := range nodes {
		patch, _ := json.Marshal(map[string]any{"status": map[string]any{"volumesAttached": updates[node]}})
		_, err := call(ctx, "nodes.PatchStatus", node, func(ctx context.Context) (*corev1.Node, error) {
			return adc.c.Client.CoreV1().Nodes().PatchStatus(ctx, node, patch)
		})
		if err != nil {
			adc.mu.Lock()
			adc.dirty[node] = true
			adc.mu.Unlock()
		}
	}
}

// findAndRemoveDeletedPods is the populator: pods gone from the cache
// leave the desired state.
func (adc *attachDetachController) findAndRemoveDeletedPods(ctx context.Context) {
	adc.mu.Lock()
	defer adc.mu.Unlock()
	type removal struct{ node, volume, pod string }
	var removed []removal
	for node, vols := range adc.desired {
		for vol, pods := range vols {
			for key := range pods {
				if _, ok := get[*corev1.Pod](adc.pods, key); !ok {
					delete(pods, key)
					removed = append(removed, removal{node, vol, key})
				}
			}
			if len(pods) == 0 {
				delete(vols, vol)
			}
		}
	}
	// The span's events by node, volume and pod, not in map order: so that
	// a run repeats.
	sort.Slice(removed, func(i, j int) bool {
		a, b := removed[i], removed[j]
		return a.node < b.node || a.node == b.node && (a.volume < b.volume || a.volume == b.volume && a.pod < b.pod)
	})
	for _, r := range removed {
		goroutine.SpanFrom(ctx).AddEvent(fmt.Sprintf("removing volume %s from the desired state of node %s: pod %s is gone", r.volume, r.node, r.pod))
	}
}
