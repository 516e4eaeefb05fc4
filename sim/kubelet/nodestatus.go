package kubelet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sort"
	"strconv"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// nodeStatusState is what syncNodeStatus remembers between calls.
type nodeStatusState struct {
	registered bool
}

// Versions the simulated kubelet reports.
const (
	classicKubeletVersion = "v1.3.10"
	modernKubeletVersion  = "v1.37.2"
)

// syncNodeStatus is the body of kubelet/node-status: register the node
// if needed, then write its status (updateNodeStatus, up to 5 tries).
func (k *Kubelet) syncNodeStatus(ctx context.Context) {
	sp := goroutine.SpanFrom(ctx)
	if !k.nodeStatus.registered {
		if !k.registerWithAPIServer(ctx) {
			return
		}
		k.nodeStatus.registered = true
	}
	var err error
	for i := range nodeStatusUpdateRetry {
		if err = k.tryUpdateNodeStatus(ctx); err == nil {
			sp.SetAttributes(attribute.Int("kubelet.node_status.tries", i+1))
			return
		}
	}
	sp.RecordError(fmt.Errorf("update node status exceeds retry count: %w", err))
}

// registerWithAPIServer creates the Node; one that exists already is
// taken as this kubelet's (v1.5 compares the external ID, which today's
// API no longer has).
func (k *Kubelet) registerWithAPIServer(ctx context.Context) bool {
	ctx, sp := goroutine.Start(ctx, "registerWithApiServer", trace.WithAttributes(attribute.String("k8s.node.name", k.o.Node)))
	defer sp.End()
	node := k.initialNode()
	err := api(ctx, "nodes.Create", func(ctx context.Context) error {
		_, err := k.o.Cluster.Client.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{})
		return err
	})
	if err == nil {
		sp.AddEvent("Successfully registered node")
		return true
	}
	if !apierrors.IsAlreadyExists(err) {
		return false
	}
	err = api(ctx, "nodes.Get", func(ctx context.Context) error {
		_, err := k.o.Cluster.Client.CoreV1().Nodes().Get(ctx, k.o.Node, metav1.GetOptions{})
		return err
	})
	return err == nil
}

func (k *Kubelet) initialNode() *corev1.Node {
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: k.o.Node, Labels: map[string]string{
			"kubernetes.io/hostname": k.o.Node, "beta.kubernetes.io/os": "linux", "beta.kubernetes.io/arch": "amd64"}},
		Spec: corev1.NodeSpec{PodCIDR: k.o.PodCIDR},
	}
}

// tryUpdateNodeStatus GETs the node, applies the status setters and
// writes the status: PUT nodes/<n>/status in v1.3, a PATCH today.
func (k *Kubelet) tryUpdateNodeStatus(ctx context.Context) error {
	client := k.o.Cluster.Client.CoreV1().Nodes()
	var node *corev1.Node
	if err := api(ctx, "nodes.Get", func(ctx context.Context) (err error) {
		node, err = client.Get(ctx, k.o.Node, metav1.GetOptions{})
		return err
	}); err != nil {
		if apierrors.IsNotFound(err) {
			k.nodeStatus.registered = false // deleted: register again next time
		}
		return err
	}
	updated := node.DeepCopy()
	k.setNodeStatus(ctx, updated)
	if k.modern {
		return api(ctx, "nodes.PatchStatus", func(ctx context.Context) error {
			patch, err := json.Marshal(map[string]any{"status": updated.Status})
			if err != nil {
				return err
			}
			_, err = client.Patch(ctx, k.o.Node, types.StrategicMergePatchType, patch, metav1.PatchOptions{}, "status")
			return err
		})
	}
	return api(ctx, "nodes.UpdateStatus", func(ctx context.Context) error {
		_, err := client.UpdateStatus(ctx, updated, metav1.UpdateOptions{})
		return err
	})
}

// setNodeStatus applies the setters of v1.3's setNodeStatus: addresses,
// machine info and capacity, version info, images, daemon endpoints,
// volumes in use and the conditions, the Ready condition last.
func (k *Kubelet) setNodeStatus(ctx context.Context, node *corev1.Node) {
	now := metav1.NewTime(k.rt.Clock().Now().Truncate(time.Second))
	s := &node.Status
	s.Addresses = []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: k.nodeIP()}, {Type: corev1.NodeHostName, Address: k.o.Node}}
	s.Capacity = corev1.ResourceList{
		corev1.ResourceCPU: resource.MustParse("4"), corev1.ResourceMemory: resource.MustParse("8Gi"), corev1.ResourcePods: resource.MustParse("110")}
	s.Allocatable = s.Capacity.DeepCopy()
	version := classicKubeletVersion
	if k.modern {
		version = modernKubeletVersion
	}
	s.NodeInfo = corev1.NodeSystemInfo{MachineID: k.o.Node, SystemUUID: k.o.Node, BootID: k.o.Node + "-boot",
		KernelVersion: "4.4.0-kubeloom", OSImage: "kubeloom simulated node", ContainerRuntimeVersion: k.o.Runtime.Version(),
		//lint:ignore SA1019 v1.3's kubelet reports its version as KubeProxyVersion too (setNodeStatus), as a node of that era did
		KubeletVersion: version, KubeProxyVersion: version, OperatingSystem: "linux", Architecture: "amd64"}
	s.DaemonEndpoints.KubeletEndpoint.Port = int32(portOf(k.o.ServerAddr))
	images := k.images.nodeImages()
	sort.SliceStable(images, func(i, j int) bool { return images[i].Size > images[j].Size })
	s.Images = nil
	for i, img := range images {
		if i == 50 { // maxImagesInNodeStatus
			break
		}
		s.Images = append(s.Images, corev1.ContainerImage{Names: []string{img.Ref}, SizeBytes: img.Size})
	}
	s.VolumesInUse = k.volumes.inUse()

	memoryPressure := k.eviction.underMemoryPressure()
	if !k.modern {
		// OutOfDisk (v1.3–1.12); client-go no longer names the type.
		setCondition(node, corev1.NodeCondition{Type: "OutOfDisk", Status: corev1.ConditionFalse,
			Reason: "KubeletHasSufficientDisk", Message: "kubelet has sufficient disk space available"}, now)
	}
	mp := corev1.NodeCondition{Type: corev1.NodeMemoryPressure, Status: corev1.ConditionFalse,
		Reason: "KubeletHasSufficientMemory", Message: "kubelet has sufficient memory available"}
	if memoryPressure {
		mp.Status, mp.Reason, mp.Message = corev1.ConditionTrue, "KubeletHasInsufficientMemory", "kubelet has insufficient memory available"
	}
	setCondition(node, mp, now)
	setCondition(node, corev1.NodeCondition{Type: corev1.NodeDiskPressure, Status: corev1.ConditionFalse,
		Reason: "KubeletHasNoDiskPressure", Message: "kubelet has no disk pressure"}, now)
	ready := corev1.NodeCondition{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady",
		Message: "kubelet is posting ready status"}
	if err := errors.Join(k.state.runtimeErrors(k.rt.Clock().Now()), k.state.networkErrors()); err != nil {
		ready.Status, ready.Reason, ready.Message = corev1.ConditionFalse, "KubeletNotReady", err.Error()
	}
	setCondition(node, ready, now)
	// recordNodeStatusEvent: each condition that is new or changed.
	for _, c := range node.Status.Conditions {
		if c.LastTransitionTime.Equal(&now) {
			if reason := nodeStatusEvent(c.Type, c.Status); reason != "" {
				k.recorder.Eventf(ctx, k.nodeRef(), corev1.EventTypeNormal, reason, "Node %s status is now: %s", k.o.Node, reason)
			}
		}
	}
}

// nodeStatusEvent is the reason of the event a condition's new status
// records (pkg/kubelet/events), or "" for none.
func nodeStatusEvent(t corev1.NodeConditionType, s corev1.ConditionStatus) string {
	switch string(t) + "=" + string(s) {
	case "Ready=True":
		return "NodeReady"
	case "Ready=False":
		return "NodeNotReady"
	case "OutOfDisk=False":
		return "NodeHasSufficientDisk"
	case "OutOfDisk=True":
		return "NodeOutOfDisk"
	case "MemoryPressure=False":
		return "NodeHasSufficientMemory"
	case "MemoryPressure=True":
		return "NodeHasInsufficientMemory"
	case "DiskPressure=False":
		return "NodeHasNoDiskPressure"
	case "DiskPressure=True":
		return "NodeHasDiskPressure"
	}
	return ""
}

// setCondition sets a condition with a fresh heartbeat; the transition
// time moves only when the status changes.
func setCondition(node *corev1.Node, c corev1.NodeCondition, now metav1.Time) {
	c.LastHeartbeatTime = now
	c.LastTransitionTime = now
	for i, old := range node.Status.Conditions {
		if old.Type == c.Type {
			if old.Status == c.Status {
				c.LastTransitionTime = old.LastTransitionTime
			}
			node.Status.Conditions[i] = c
			return
		}
	}
	node.Status.Conditions = append(node.Status.Conditions, c)
}

// nodeIP is the node's address: from its number, 10.0.0.<n>.
func (k *Kubelet) nodeIP() string {
	var n int
	fmt.Sscanf(k.o.Node, "node-%d", &n)
	return net.IPv4(10, 0, byte(n/250), byte(n%250+1)).String()
}

func portOf(addr string) int {
	_, p, err := net.SplitHostPort(addr)
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(p)
	return n
}
