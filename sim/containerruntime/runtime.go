package containerruntime

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"net"
	"sync"
	"time"

	oteltrace "go.opentelemetry.io/otel/trace"
	"k8s.io/utils/clock"
)

const (
	// DefaultCapacity is the default size of the image filesystem
	// (/var/lib/docker), a typical 2016 cloud node's root disk.
	DefaultCapacity int64 = 20 << 30
	// DefaultMemoryCapacity is the default memory of the node.
	DefaultMemoryCapacity int64 = 8 << 30
)

// ErrRuntimeDown is the error Status returns while the runtime is down, the
// kubelet's "container runtime is down" (pkg/kubelet/runtime.go) that turns
// the node NotReady.
var ErrRuntimeDown = errors.New("container runtime is down")

// Options configures a Runtime.
type Options struct {
	// Node is the name of the node the runtime runs on; with Seed it
	// determines every ID the runtime draws.
	Node string
	// Seed seeds the runtime's random source (PCG, mixed with an FNV hash
	// of Node), so that two runs of a scenario draw the same IDs.
	Seed int64
	// Clock gives the runtime its time. Required: the runtime never reads
	// the real clock.
	Clock clock.PassiveClock
	// Capacity is the size in bytes of the image filesystem; default
	// DefaultCapacity (20 GiB).
	Capacity int64
	// MemoryCapacity is the node's memory in bytes; default
	// DefaultMemoryCapacity (8 GiB).
	MemoryCapacity int64
	// PodCIDR is the node's pod network ("10.244.1.0/24"): each infra
	// container gets the next address of it, as the network plugin
	// (kubenet, CNI) gives each pod sandbox one. Default 10.244.0.0/24.
	PodCIDR string
	// Images are the image references present when the runtime starts,
	// as if pulled before the kubelet started (Pulled is the clock's time
	// at New). nil means the pause image only; an empty, non-nil slice
	// means no images at all. They are added even if they overflow the
	// image filesystem.
	Images []string
}

// Runtime is the container runtime of one node: the docker daemon as the
// kubelet's dockertools (v1.5) sees it. It is safe for concurrent use.
type Runtime struct {
	node     string
	clock    clock.PassiveClock
	capacity int64
	memory   int64

	mu         sync.Mutex
	seed       uint64
	rng        *rand.Rand // system OOMs' victims (InjectOOM is called by the scenario, in order)
	down       bool
	images     map[string]*Image // by Ref
	containers map[string]*container
	order      []*container          // the containers by creation time, then ID
	attempts   map[string]int        // by pod UID + "/" + container name; survives removal
	seq        uint64                // containers created so far
	other      int64                 // OtherBytes of the image filesystem
	otherCause oteltrace.SpanContext // the span that set other (OtherCause)
	podNet     net.IP                // the pod CIDR's network address
}

// New returns the runtime of node o.Node, up, with o.Images present. It
// panics if o.Clock is nil.
func New(o Options) *Runtime {
	if o.Clock == nil {
		panic("containerruntime.New: Options.Clock is nil; pass the simulation's clock")
	}
	if o.Capacity <= 0 {
		o.Capacity = DefaultCapacity
	}
	if o.MemoryCapacity <= 0 {
		o.MemoryCapacity = DefaultMemoryCapacity
	}
	if o.Images == nil {
		o.Images = []string{PauseImage}
	}
	r := &Runtime{
		node:       o.Node,
		clock:      o.Clock,
		capacity:   o.Capacity,
		memory:     o.MemoryCapacity,
		seed:       uint64(o.Seed),
		rng:        rand.New(rand.NewPCG(uint64(o.Seed), hash64(o.Node))),
		images:     map[string]*Image{},
		containers: map[string]*container{},
		attempts:   map[string]int{},
		podNet:     net.IPv4(10, 244, 0, 0).To4(),
	}
	if ip, _, err := net.ParseCIDR(o.PodCIDR); err == nil && ip.To4() != nil {
		r.podNet = ip.To4()
	}
	now := o.Clock.Now()
	for _, ref := range o.Images {
		img := newImage(ref, now)
		r.images[img.Ref] = &img
	}
	return r
}

// Node is the name of the node the runtime belongs to.
func (r *Runtime) Node() string { return r.node }

// Version is the runtime's name and version as the kubelet reports it in
// NodeStatus.NodeInfo.ContainerRuntimeVersion (docker version / CRI
// Version).
func (r *Runtime) Version() string { return "docker://1.11.2" }

// Status is nil while the runtime is up and ErrRuntimeDown while it is not:
// the kubelet's periodic docker ping (dockertools' Version call, CRI Status).
func (r *Runtime) Status() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.down {
		return fmt.Errorf("%w: docker daemon on node %q does not answer", ErrRuntimeDown, r.node)
	}
	return nil
}

// SetUp brings the runtime up or down, as stopping and starting the docker
// daemon would, for scenarios. Only Status notices: the other calls keep
// working and containers keep their state, because the kubelet checks Status
// (its runtime health check) before it syncs pods.
func (r *Runtime) SetUp(up bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.down = !up
}

// newID draws a docker-style ID: 64 hex characters (32 random bytes). The
// draw is keyed by the container (its pod, name and attempt) rather than
// taken from one shared source, so that pod workers that start containers
// at the same moment, in a different order each run, still give every
// container the same ID in every run. Requires r.mu.
func (r *Runtime) newID(podUID, name string, attempt int) string {
	rng := r.keyed("id", podUID, name, fmt.Sprint(attempt))
	for {
		id := fmt.Sprintf("%016x%016x%016x%016x", rng.Uint64(), rng.Uint64(), rng.Uint64(), rng.Uint64())
		if _, taken := r.containers[id]; !taken {
			return id
		}
	}
}

// newIP picks a sandbox's address in the pod CIDR: .2 to .254 (.1 is the
// node's bridge, cbr0), not held by another running sandbox. Docker's
// bridge and v1.5's kubenet hand out the next free address; kubeloom starts
// looking at a place keyed by the pod and the sandbox's attempt instead, for
// the same reason as newID: the same address in every run. Requires r.mu.
func (r *Runtime) newIP(podUID string, attempt int) string {
	held := map[string]bool{}
	for _, c := range r.containers {
		if c.IP != "" && c.State == StateRunning {
			held[c.IP] = true
		}
	}
	const first, hosts = 2, 253
	start := r.keyed("ip", podUID, fmt.Sprint(attempt)).IntN(hosts)
	var ip string
	for i := range hosts {
		ip = net.IPv4(r.podNet[0], r.podNet[1], r.podNet[2], byte(first+(start+i)%hosts)).String()
		if !held[ip] {
			break
		}
	}
	return ip // a full /24 of running sandboxes shares its last address
}

// keyed is a random source for one draw, seeded by the scenario's seed, the
// node and the parts.
func (r *Runtime) keyed(parts ...string) *rand.Rand {
	return rand.New(rand.NewPCG(r.seed, hash64(append([]string{r.node}, parts...)...)))
}

// now is the clock's time, after moving containers whose run has ended to
// exited: the runtime has no goroutine of its own, so every method catches
// up on entry. Requires r.mu.
func (r *Runtime) now() time.Time {
	now := r.clock.Now()
	for _, c := range r.order {
		c.reap(now)
	}
	return now
}

// hash64 is FNV-1a over the parts, separated by NUL bytes.
func hash64(parts ...string) uint64 {
	h := fnv.New64a()
	for i, p := range parts {
		if i > 0 {
			h.Write([]byte{0})
		}
		h.Write([]byte(p))
	}
	return h.Sum64()
}

// between maps h onto [lo, hi].
func between(h uint64, lo, hi int64) int64 {
	return lo + int64(h%uint64(hi-lo+1))
}
