package engine

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/containerruntime"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
	"github.com/kubeloom/kubeloom/sim/kubelet"
	"github.com/kubeloom/kubeloom/sim/tracing"
)

// errStopped is why a kubelet stopped by the scenario ended.
var errStopped = errors.New("stopped by the scenario (stopKubelet)")

// nodeImages are the images a node has pulled before the scenario starts,
// as a v1.5-era node that has run a few workloads would: image GC has
// something to delete once the image filesystem fills up. Each node gets
// its own list.
func nodeImages() []string {
	return []string{
		containerruntime.PauseImage,
		"gcr.io/google_containers/kube-proxy-amd64:v1.5.8",
		"gcr.io/google_containers/fluentd-elasticsearch:1.20",
		"nginx:1.11", "nginx:1.10", "redis:3.2", "busybox:1.25", "mysql:5.6", "mongo:3.2",
		"node:6.9", "python:2.7", "golang:1.7", "ubuntu:16.04", "postgres:9.5",
	}
}

// nodeImageFSCapacity is a node's image filesystem: small, so that the
// preloaded images fill a fair part of it.
const nodeImageFSCapacity = 8 << 30

// kubeletNode is one node: its container runtime, which lives as long as
// the run, and its kubelet process, which the scenario may stop and start.
type kubeletNode struct {
	w       *world
	name    string
	index   int
	rt      *goroutine.Runtime
	runtime *containerruntime.Runtime
	addrs   map[string]string // server → the host:port the kubelet binds

	mu     sync.Mutex
	cancel context.CancelCauseFunc
	done   chan struct{}
	oom    chan containerruntime.OOMEvent
	exit   error
	taken  map[string]net.Listener      // takePort
	takers map[string]trace.SpanContext // by address: the takePort that holds it
	held   map[string]net.Listener      // by address: the ports reservePorts opened, until a server takes them
}

// reservePorts picks the node's three server ports: fixed for the run, so
// that a restarted kubelet binds the same ones and a scenario can take one.
// The listeners stay open until the kubelet's servers (or a takePort) take
// them over: closed in between, a free port could go to another process
// (another run) before the kubelet binds it, and the kubelet would exit.
func (n *kubeletNode) reservePorts(listen func(network, address string) (net.Listener, error)) error {
	n.addrs, n.held = map[string]string{}, map[string]net.Listener{}
	for _, s := range []string{kubelet.ServerHealthz, kubelet.ServerKubelet, kubelet.ServerReadOnly} {
		ln, err := listen("tcp", "127.0.0.1:0")
		if err != nil {
			n.releasePorts()
			return fmt.Errorf("%s: failed to pick a port for the kubelet's %s server: %w", n.name, s, err)
		}
		n.addrs[s] = ln.Addr().String()
		n.held[ln.Addr().String()] = ln
	}
	return nil
}

// listener is listen for the node's servers: a port reservePorts still
// holds is handed over, any other address is bound anew. Failing on a port
// a takePort holds, the error names that action as its cause, so the
// server's span that records it links to the action.
func (n *kubeletNode) listener(listen func(network, address string) (net.Listener, error)) func(network, address string) (net.Listener, error) {
	return func(network, address string) (net.Listener, error) {
		n.mu.Lock()
		ln, ok := n.held[address]
		delete(n.held, address)
		taker := n.takers[address]
		n.mu.Unlock()
		if ok {
			return ln, nil
		}
		ln, err := listen(network, address)
		return ln, goroutine.CausedBy(err, taker, address)
	}
}

// podCIDR is the node's pod network, which its runtime's sandboxes take
// their addresses from.
func (n *kubeletNode) podCIDR() string { return fmt.Sprintf("10.244.%d.0/24", n.index) }

// start starts the node's kubelet process; cause is the span that starts
// it (a startKubelet action), invalid at the start of the run.
func (n *kubeletNode) start(ctx context.Context, o *Options, clk clock.Sim, cause trace.SpanContext) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.done != nil {
		select {
		case <-n.done:
		default:
			return fmt.Errorf("the kubelet of %s is running already", n.name)
		}
	}
	k := n.w.sc.Spec.Kubelets
	opts := kubelet.Options{
		Node: n.name, Era: informer.Era(n.w.era), Cluster: n.w.cluster, Runtime: n.runtime,
		HealthzAddr: n.addrs[kubelet.ServerHealthz], ServerAddr: n.addrs[kubelet.ServerKubelet],
		ReadOnlyAddr: n.addrs[kubelet.ServerReadOnly], PodCIDR: n.podCIDR(),
		Listen: n.listener(o.Listen), Dial: o.Dial, Cause: cause,
	}
	if m := n.w.manifests; m != nil {
		opts.Manifests, opts.ManifestDir = m.fsys, m.dir
	}
	if k.ManifestURL {
		opts.ManifestURL = n.w.manifestURL
	}
	if o.Serving != nil {
		id := n.rt.Instance()
		opts.OnServing = func(server, addr string, paths []string) { o.Serving(id+" "+server, addr, paths) }
	}
	n.oom = make(chan containerruntime.OOMEvent, 16)
	opts.OOM = n.oom
	pctx, cancel := context.WithCancelCause(tracing.Process(n.rt.Context(ctx)))
	done := make(chan struct{})
	n.cancel, n.done, n.exit = cancel, done, nil
	go func() {
		defer close(done)
		if !execWait(pctx, clk, execTime(n.name)) {
			return
		}
		err := kubelet.Main(pctx, opts)
		n.mu.Lock()
		n.exit = err
		n.mu.Unlock()
	}()
	return nil
}

// stop ends the kubelet process and waits (up to grace, simulated) for it.
func (n *kubeletNode) stop(cause error, clk clock.Clock, grace time.Duration) error {
	n.mu.Lock()
	cancel, done := n.cancel, n.done
	n.mu.Unlock()
	if done == nil {
		return fmt.Errorf("the kubelet of %s is not running", n.name)
	}
	select {
	case <-done:
		return fmt.Errorf("the kubelet of %s is not running", n.name)
	default:
	}
	cancel(cause)
	t := clk.NewTimer(grace)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C():
		return nil
	}
	// The process is over once its last goroutine has returned: a pod
	// worker in the middle of a sync must not touch the runtime when the
	// kubelet is started again.
	for len(n.rt.Live()) > 0 {
		poll := clk.NewTimer(10 * time.Millisecond)
		select {
		case <-poll.C():
		case <-t.C():
			poll.Stop()
			return nil
		}
	}
	return nil
}

// running reports whether the kubelet process runs.
func (n *kubeletNode) running() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.done == nil {
		return false
	}
	select {
	case <-n.done:
		return false
	default:
		return true
	}
}

// exited says how the kubelet ended, if it ended on its own (a fatal
// server error) rather than at the end of the run.
func (n *kubeletNode) exited() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.exit == nil || errors.Is(n.exit, context.Canceled) {
		return ""
	}
	return n.exit.Error()
}

// oomEvent hands an OOM event to the running kubelet's OOM watcher, as
// cAdvisor does; with no kubelet running nobody hears it.
func (n *kubeletNode) oomEvent(ev containerruntime.OOMEvent) bool {
	if !n.running() {
		return false
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	select {
	case n.oom <- ev:
		return true
	default:
		return false
	}
}

// takePort binds one of the kubelet's server ports, for d (0: until the
// end of the run); cause is the action's span.
func (n *kubeletNode) takePort(server string, d time.Duration, listen func(network, address string) (net.Listener, error), clk clock.Sim, cause trace.SpanContext) (string, error) {
	addr := n.addrs[server]
	ln, err := n.listener(listen)("tcp", addr)
	if err != nil {
		return addr, fmt.Errorf("cannot take %s of %s: %w (a running kubelet holds its ports: stop it first)", addr, n.name, err)
	}
	n.mu.Lock()
	if n.taken == nil {
		n.taken, n.takers = map[string]net.Listener{}, map[string]trace.SpanContext{}
	}
	n.taken[server] = ln
	n.takers[addr] = cause
	n.mu.Unlock()
	if d > 0 {
		clk.AfterFunc(d, func() { n.releasePort(server, ln) })
	}
	return addr, nil
}

func (n *kubeletNode) releasePort(server string, ln net.Listener) {
	n.mu.Lock()
	if n.taken[server] == ln {
		delete(n.taken, server)
		delete(n.takers, n.addrs[server])
	}
	n.mu.Unlock()
	ln.Close()
}

// releasePorts gives back every taken or still held port (at the end of
// the run).
func (n *kubeletNode) releasePorts() {
	n.mu.Lock()
	taken, held := n.taken, n.held
	n.taken, n.takers, n.held = nil, nil, nil
	n.mu.Unlock()
	for _, ln := range taken {
		ln.Close()
	}
	for _, ln := range held {
		ln.Close()
	}
}

// node returns the world's node of a name.
func (w *world) node(name string) (*kubeletNode, error) {
	for _, n := range w.nodes {
		if n.name == name {
			return n, nil
		}
	}
	return nil, fmt.Errorf("no kubelet runs on %s", name)
}
