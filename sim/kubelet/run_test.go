package kubelet

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeloom/kubeloom/internal/memnet"
	"github.com/kubeloom/kubeloom/sim/cluster"
	"github.com/kubeloom/kubeloom/sim/informer"
)

// TestMainRunsPod runs the whole kubelet, as the engine does, against a fake
// apiserver and a container runtime, its servers on an in-memory network:
// it registers its node, runs a pod bound to it, and stops without leaving
// a goroutine behind.
func TestMainRunsPod(t *testing.T) {
	for _, era := range []informer.Era{informer.Classic, informer.Modern} {
		t.Run(string(era), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) { testMainRunsPod(t, era) })
			goleak.VerifyNone(t)
		})
	}
}

func testMainRunsPod(t *testing.T, era informer.Era) {
	h := newHarness(t)
	c := cluster.New(cluster.WithClock(h.clk))
	r := h.runtime(0) // the pause image only
	var mu sync.Mutex
	served := map[string]bool{}
	opts := Options{Node: "node-1", Era: era, Cluster: c, Runtime: r, PodCIDR: "10.244.1.0/24", Listen: memnet.New().Listen,
		OnServing: func(server, _ string, _ []string) { mu.Lock(); served[server] = true; mu.Unlock() }}

	// As the engine starts a kubelet: Main on a goroutine of its own, with
	// a context that carries the node's Runtime.
	ctx, cancel := context.WithCancel(h.rt.Context(context.Background()))
	done := make(chan error, 1)
	go func() { done <- Main(ctx, opts) }()
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		// As the engine stops: the kubelet first (up to a grace period),
		// then every goroutine of the run.
		cancel()
		grace := h.clk.NewTimer(10 * time.Second)
		defer grace.Stop()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Main returned %v after its context was cancelled, want nil", err)
			}
		case <-grace.C():
			t.Error("Main did not return within 10s of its context's end")
		}
		h.stop()
	}
	defer stop()

	h.clk.Sleep(30 * time.Second)
	node, err := c.Client.CoreV1().Nodes().Get(context.Background(), "node-1", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("the kubelet did not register node-1: %v", err)
	}
	if !nodeReady(node) {
		t.Errorf("node-1 is not Ready after 30s: %+v", node.Status.Conditions)
	}
	mu.Lock()
	for _, s := range []string{ServerHealthz, ServerKubelet, ServerReadOnly} {
		if !served[s] {
			t.Errorf("the %s server is not serving", s)
		}
	}
	mu.Unlock()

	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: corev1.PodSpec{NodeName: "node-1", Containers: []corev1.Container{{Name: "web", Image: "nginx:1.11"}}}}
	if _, err := c.Client.CoreV1().Pods("default").Create(context.Background(), pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	h.clk.Sleep(30 * time.Second)
	got, err := c.Client.CoreV1().Pods("default").Get(context.Background(), "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Status.Phase != corev1.PodRunning || got.Status.PodIP == "" || got.Status.HostIP == "" {
		t.Errorf("pod web: phase %q, pod IP %q, host IP %q; want Running with both IPs", got.Status.Phase, got.Status.PodIP, got.Status.HostIP)
	}
	if len(got.Status.ContainerStatuses) != 1 || got.Status.ContainerStatuses[0].State.Running == nil {
		t.Errorf("pod web: container statuses %+v, want web running", got.Status.ContainerStatuses)
	}
	running := 0
	for _, ct := range r.ListContainers(false) {
		if ct.PodName == "web" {
			running++
		}
	}
	if running != 2 {
		t.Errorf("%d containers of pod web running, want 2 (POD and web)", running)
	}
	if n := h.rt.Live()["kubelet/pod-worker"]; n != 1 {
		t.Errorf("%d pod workers alive, want 1", n)
	}

	stop()
	if live := h.rt.Live(); len(live) != 0 {
		t.Errorf("goroutines alive after stop: %v", live)
	}
	// The containers outlive the kubelet, as docker's do.
	if n := len(r.ListContainers(false)); n != 2 {
		t.Errorf("%d containers running after the kubelet stopped, want 2", n)
	}
}

func nodeReady(n *corev1.Node) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}
