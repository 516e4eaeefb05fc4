package containerruntime

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// PodStats is the usage of one pod's running containers: the kubelet's
// summary API PodStats (stats/v1alpha1), which the eviction manager ranks
// pods by.
type PodStats struct {
	PodUID, Namespace, Name string
	// Containers are sorted by name (Stats), or in the order they were
	// created (StatsOf).
	Containers []ContainerStats
}

// ContainerStats is the usage of one container as cAdvisor measures it
// (summary API ContainerStats, CRI ContainerStats).
type ContainerStats struct {
	Name                  string
	CPUNanoCores          uint64
	MemoryWorkingSetBytes uint64
	// RootfsUsedBytes is the container's writable layer.
	RootfsUsedBytes uint64
}

// Stats returns the usage of the running containers other than the pods'
// infra containers, grouped by pod and sorted by namespace and name: the
// kubelet's /stats/summary pods, from cAdvisor. The values follow from each
// container's ID and vary from one minute after its start to the next.
func (r *Runtime) Stats() []PodStats {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	byPod := map[string]*PodStats{}
	for _, c := range r.containers {
		if c.State != StateRunning || c.Name == PodInfraContainerName {
			continue
		}
		ps := byPod[c.PodUID]
		if ps == nil {
			ps = &PodStats{PodUID: c.PodUID, Namespace: c.PodNamespace, Name: c.PodName}
			byPod[c.PodUID] = ps
		}
		ps.Containers = append(ps.Containers, c.stats(now))
	}
	out := make([]PodStats, 0, len(byPod))
	for _, ps := range byPod {
		slices.SortFunc(ps.Containers, func(a, b ContainerStats) int { return strings.Compare(a.Name, b.Name) })
		out = append(out, *ps)
	}
	slices.SortFunc(out, func(a, b PodStats) int {
		return cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name), strings.Compare(a.PodUID, b.PodUID))
	})
	return out
}

// StatsOf is the usage of one pod's running containers, as Stats reports
// them but in the order the containers were created, and false if none of
// the pod's containers runs: a pod's volume-stat calculator reads its own
// pod's, where Stats would group and sort every pod of the node for each.
// It looks at the pod's containers only, in one pass: the others catch up
// (exit if their run has ended) at the next call that lists them, as their
// exit time is their own end, whenever it is noticed.
func (r *Runtime) StatsOf(podUID string) (PodStats, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.clock.Now()
	ps := PodStats{PodUID: podUID}
	for _, c := range r.order {
		if c.PodUID != podUID {
			continue
		}
		c.reap(now)
		if c.State != StateRunning || c.Name == PodInfraContainerName {
			continue
		}
		ps.Namespace, ps.Name = c.PodNamespace, c.PodName
		ps.Containers = append(ps.Containers, c.stats(now))
	}
	return ps, len(ps.Containers) > 0
}

// MemoryAvailable is the node's memory capacity minus the working sets of
// the containers Stats reports (0 if they exceed it): the eviction
// manager's memory.available signal.
func (r *Runtime) MemoryAvailable() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	var used uint64
	for _, c := range r.containers {
		if c.State == StateRunning && c.Name != PodInfraContainerName {
			used += c.stats(now).MemoryWorkingSetBytes
		}
	}
	if used >= uint64(r.memory) {
		return 0
	}
	return uint64(r.memory) - used
}

// stats derives a running container's usage from its ID: a base level per
// container (5m to 400m CPU, 8 to 256 MiB of memory) and, for each whole
// minute since it started, a wobble of ±20% CPU and ±5% memory.
func (c *container) stats(now time.Time) ContainerStats {
	minute := strconv.FormatInt(int64(now.Sub(c.Started)/time.Minute), 10)
	cpu := between(hash64("cpu", c.ID), 5_000_000, 400_000_000)
	mem := between(hash64("memory", c.ID), 8<<20, 256<<20)
	cpu = cpu * between(hash64("cpu", c.ID, minute), 80, 120) / 100
	mem = mem * between(hash64("memory", c.ID, minute), 950, 1050) / 1000
	return ContainerStats{
		Name:                  c.Name,
		CPUNanoCores:          uint64(cpu),
		MemoryWorkingSetBytes: uint64(mem),
		RootfsUsedBytes:       uint64(c.layer),
	}
}
