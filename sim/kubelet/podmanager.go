package kubelet

import (
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"

	"github.com/kubeloom/kubeloom/sim/containerruntime"
)

// podManager is pkg/kubelet/pod.basicManager: the desired pods by UID, and
// the mirror pods the apiserver holds for static pods, by full name.
type podManager struct {
	mu      sync.RWMutex
	pods    map[types.UID]*corev1.Pod
	mirrors map[string]*corev1.Pod // namespace/name → mirror pod
	// sorted is pods sorted by namespace and name, built by the first list
	// after a change: the loops that walk every pod (volume-dswp every
	// 100ms, housekeeping every 2s) then share one slice instead of each
	// sorting a fresh copy (GetPods copies the map; kubeloom keeps the
	// order for reproducible runs).
	sorted []*corev1.Pod
	gen    uint64 // counts the changes to pods
}

func newPodManager() *podManager {
	return &podManager{pods: map[types.UID]*corev1.Pod{}, mirrors: map[string]*corev1.Pod{}}
}

func isMirror(p *corev1.Pod) bool { _, ok := p.Annotations[annotationMirror]; return ok }

func isStatic(p *corev1.Pod) bool {
	s := p.Annotations[annotationSource]
	return s == sourceFile || s == sourceHTTP
}

func fullName(p *corev1.Pod) string { return p.Namespace + "/" + p.Name }

// update adds or updates a pod (AddPod / UpdatePod).
func (m *podManager) update(p *corev1.Pod) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if isMirror(p) {
		m.mirrors[fullName(p)] = p
		return
	}
	m.pods[p.UID] = p
	m.sorted = nil
	m.gen++
}

// remove forgets a pod (DeletePod).
func (m *podManager) remove(p *corev1.Pod) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if isMirror(p) {
		if cur, ok := m.mirrors[fullName(p)]; ok && cur.UID == p.UID {
			delete(m.mirrors, fullName(p))
		}
		return
	}
	delete(m.pods, p.UID)
	m.sorted = nil
	m.gen++
}

func (m *podManager) get(uid types.UID) (*corev1.Pod, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	p, ok := m.pods[uid]
	return p, ok
}

func (m *podManager) mirrorOf(p *corev1.Pod) (*corev1.Pod, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	mp, ok := m.mirrors[fullName(p)]
	return mp, ok
}

// mirrorPods returns the mirror pods, sorted by namespace and name.
func (m *podManager) mirrorPods() []*corev1.Pod {
	m.mu.RLock()
	out := make([]*corev1.Pod, 0, len(m.mirrors))
	for _, p := range m.mirrors {
		out = append(out, p)
	}
	m.mu.RUnlock()
	return sortedPods(out)
}

// list returns the desired pods, sorted by namespace and name. The slice
// is shared: callers must not change it.
func (m *podManager) list() []*corev1.Pod {
	m.mu.RLock()
	out := m.sorted
	m.mu.RUnlock()
	if out != nil || m.count() == 0 {
		return out
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.sorted == nil {
		all := make([]*corev1.Pod, 0, len(m.pods))
		for _, p := range m.pods {
			all = append(all, p)
		}
		m.sorted = sortedPods(all)
	}
	return m.sorted
}

// generation counts the changes to the desired pods: a loop that saw
// the same generation saw the same pods.
func (m *podManager) generation() uint64 {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.gen
}

func (m *podManager) count() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.pods)
}

// podCache is pkg/kubelet/container.cache: each pod's containers as the
// last relist saw them, and the time of that relist. A pod worker waits
// until the cache is newer than its last sync (GetNewerThan).
type podCache struct {
	mu        sync.Mutex
	pods      map[types.UID][]containerruntime.Container
	timestamp time.Time
	newer     chan struct{} // closed and replaced at each relist
}

func newPodCache() *podCache {
	return &podCache{pods: map[types.UID][]containerruntime.Container{}, newer: make(chan struct{})}
}

// set replaces the cache with a relist's view, taken at t (UpdateTime).
func (c *podCache) set(pods map[types.UID][]containerruntime.Container, t time.Time) {
	c.mu.Lock()
	c.pods, c.timestamp = pods, t
	close(c.newer)
	c.newer = make(chan struct{})
	c.mu.Unlock()
}

// touch is UpdateTime alone: a relist that found nothing changed moves
// the cache's time on, and pod workers waiting for it go on.
func (c *podCache) touch(t time.Time) {
	c.mu.Lock()
	c.timestamp = t
	close(c.newer)
	c.newer = make(chan struct{})
	c.mu.Unlock()
}

// snapshot returns the pods' containers as the last relist saw them.
func (c *podCache) snapshot() map[types.UID][]containerruntime.Container {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pods
}

func (c *podCache) get(uid types.UID) []containerruntime.Container {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pods[uid]
}

// newerThan returns a channel closed once the cache is newer than t, or
// nil if it already is.
func (c *podCache) newerThan(t time.Time) <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timestamp.After(t) {
		return nil
	}
	return c.newer
}

// workQueue is pkg/kubelet/util/queue: when each pod is next due a sync.
type workQueue struct {
	clk   clock.PassiveClock
	mu    sync.Mutex
	queue map[types.UID]time.Time
}

func newWorkQueue(clk clock.PassiveClock) *workQueue {
	return &workQueue{clk: clk, queue: map[types.UID]time.Time{}}
}

func (q *workQueue) enqueue(uid types.UID, delay time.Duration) {
	q.mu.Lock()
	q.queue[uid] = q.clk.Now().Add(delay)
	q.mu.Unlock()
}

// getWork returns (and removes) the pods that are due.
func (q *workQueue) getWork() []types.UID {
	q.mu.Lock()
	defer q.mu.Unlock()
	now := q.clk.Now()
	var out []types.UID
	for uid, t := range q.queue {
		if !t.After(now) {
			out = append(out, uid)
			delete(q.queue, uid)
		}
	}
	return out
}
