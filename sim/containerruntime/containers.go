package containerruntime

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	oteltrace "go.opentelemetry.io/otel/trace"
)

// State is a container's state, docker's State.Status (CRI ContainerState).
type State string

// The states a container goes through. Containers start at once, so
// StateCreated (docker create without start) is never observed.
const (
	StateCreated State = "created"
	StateRunning State = "running"
	StateExited  State = "exited"
)

// PodInfraContainerName is the name of a pod's infra container, which holds
// the pod's network namespace (dockertools.PodInfraContainerName).
const PodInfraContainerName = "POD"

// Container is a container of a pod: docker inspect as dockertools reads
// it, a CRI Container with its ContainerStatus.
type Container struct {
	// ID is docker's container ID, 64 hex characters.
	ID string
	// PodUID, PodName and PodNamespace are the pod the container belongs
	// to (dockertools keeps them in the container's name and labels).
	PodUID                string
	PodName, PodNamespace string
	// Name is the container's name in the pod spec; the pod's infra
	// container is named "POD" and runs PauseImage.
	Name string
	// Image is the image as the spec names it; ImageID is the ID of the
	// image it runs.
	Image   string
	ImageID string
	State   State
	// ExitCode and Reason are set once the container exited. Reason is
	// one of "Completed", "Error", "OOMKilled", or what StopContainer was
	// given (e.g. "Killed").
	ExitCode int
	Reason   string
	Created  time.Time
	Started  time.Time
	Finished time.Time
	// Attempt is the restart count of this container name in the pod: the
	// number of containers of the same pod and name started before it
	// (dockertools' io.kubernetes.container.restartCount label).
	Attempt int
	// IP is the pod's address, set on its infra container: an address of
	// the pod CIDR no running sandbox holds (see Runtime.newIP).
	IP string
}

// ContainerSpec is what the kubelet asks the runtime to run: the part of a
// pod's container spec (docker create + start, CRI CreateContainer +
// StartContainer) the simulation needs.
type ContainerSpec struct {
	Name  string
	Image string
	// RunFor is how long the container's process runs before it exits by
	// itself with ExitCode (Reason "Completed" if 0, else "Error"); 0
	// means until it is stopped or killed.
	RunFor   time.Duration
	ExitCode int
}

// OOMEvent is a kernel OOM kill as cAdvisor's OOM watcher reports it from
// /dev/kmsg (oomparser.OomInstance), which the kubelet's OOMWatcher turns
// into a SystemOOM event on the node.
type OOMEvent struct {
	Time time.Time
	// ContainerName is the cgroup of the killed process: "/" for a system
	// OOM, else "/kubepods/<pod UID>/<container ID>".
	ContainerName string
	ProcessName   string
	// PodUID and ContainerID name the killed container; empty for a
	// system OOM.
	PodUID, ContainerID string
	// Cause is the span that made the kernel kill (InjectOOM's cause),
	// which the OOM watcher's iteration names as its cause. cAdvisor has
	// no such thing.
	Cause oteltrace.SpanContext
}

// container is a Container and what the runtime keeps beside it.
type container struct {
	Container
	runFor   time.Duration
	exitWith int
	layer    int64                 // writable layer bytes
	seq      uint64                // creation order, which Created cannot tell apart within one instant
	killedBy oteltrace.SpanContext // the span that OOM-killed it (ExitCause)
}

// reap moves c to exited if its run ended by now.
func (c *container) reap(now time.Time) {
	if c.State != StateRunning || c.runFor == 0 {
		return
	}
	end := c.Started.Add(c.runFor)
	if now.Before(end) {
		return
	}
	c.exit(end, c.exitWith, "Completed")
	if c.exitWith != 0 {
		c.Reason = "Error"
	}
}

func (c *container) exit(at time.Time, code int, reason string) {
	c.State, c.Finished, c.ExitCode, c.Reason = StateExited, at, code, reason
}

// StartContainer creates and starts a container of a pod, pulling its image
// first if it is missing: docker run, CRI CreateContainer + StartContainer.
// It fails if the image or the container's writable layer does not fit in
// the image filesystem.
func (r *Runtime) StartContainer(podUID, podNamespace, podName string, spec ContainerSpec) (Container, error) {
	switch {
	case podUID == "":
		return Container{}, errors.New("failed to start container: empty pod UID")
	case spec.Name == "":
		return Container{}, fmt.Errorf("failed to start container of pod %s/%s: empty container name", podNamespace, podName)
	case spec.RunFor < 0:
		return Container{}, fmt.Errorf("failed to start container %q of pod %s/%s: negative RunFor %v", spec.Name, podNamespace, podName, spec.RunFor)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	img, _, err := r.pull(spec.Image, now)
	if err != nil {
		return Container{}, fmt.Errorf("failed to start container %q of pod %s/%s: %w", spec.Name, podNamespace, podName, err)
	}
	key := podUID + "/" + spec.Name
	id := r.newID(podUID, spec.Name, r.attempts[key])
	layer := between(hash64("layer", id), 1<<20, 20<<20)
	if err := r.fits(layer); err != nil {
		return Container{}, fmt.Errorf("failed to create the writable layer of container %q of pod %s/%s: %w; remove exited containers or unused images", spec.Name, podNamespace, podName, err)
	}
	c := &container{
		Container: Container{
			ID: id, PodUID: podUID, PodName: podName, PodNamespace: podNamespace,
			Name: spec.Name, Image: spec.Image, ImageID: img.ID,
			State: StateRunning, Created: now, Started: now,
			Attempt: r.attempts[key],
		},
		runFor:   spec.RunFor,
		exitWith: spec.ExitCode,
		layer:    layer,
		seq:      r.seq,
	}
	if spec.Name == PodInfraContainerName {
		c.IP = r.newIP(podUID, r.attempts[key])
	}
	r.seq++
	r.attempts[key]++
	r.containers[id] = c
	r.insertSorted(c)
	return c.Container, nil
}

// StopContainer stops a running container now with the given reason and
// exit code (e.g. "Killed", 137 for docker stop's SIGKILL): docker stop, CRI
// StopContainer. Stopping an exited container does nothing.
func (r *Runtime) StopContainer(id string, reason string, exitCode int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	c, ok := r.containers[id]
	if !ok {
		return fmt.Errorf("no such container: %s", id)
	}
	if c.State == StateRunning {
		c.exit(now, exitCode, reason)
	}
	return nil
}

// RemoveContainer removes an exited container and frees its writable
// layer: docker rm, CRI RemoveContainer (the kubelet's container GC).
func (r *Runtime) RemoveContainer(id string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.now()
	c, ok := r.containers[id]
	switch {
	case !ok:
		return fmt.Errorf("no such container: %s", id)
	case c.State == StateRunning:
		return fmt.Errorf("conflict: cannot remove running container %s of pod %s/%s; stop the container first", id[:12], c.PodNamespace, c.PodName)
	}
	delete(r.containers, id)
	i, _ := slices.BinarySearchFunc(r.order, c, byCreation)
	r.order = slices.Delete(r.order, i, i+1)
	return nil
}

// ListContainers returns the running containers, or with all every
// container including exited ones, sorted by creation time then ID: docker
// ps (-a), CRI ListContainers.
func (r *Runtime) ListContainers(all bool) []Container {
	return r.AppendContainers(nil, all)
}

// AppendContainers is ListContainers into buf's storage: the PLEG lists
// every container each second and reuses one buffer.
func (r *Runtime) AppendContainers(buf []Container, all bool) []Container {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.now()
	out := buf[:0]
	for _, c := range r.sorted() {
		if all || c.State == StateRunning {
			out = append(out, c.Container)
		}
	}
	return out
}

// Container returns one container by ID: docker inspect, CRI
// ContainerStatus.
func (r *Runtime) Container(id string) (Container, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.now()
	c, ok := r.containers[id]
	if !ok {
		return Container{}, false
	}
	return c.Container, true
}

// oomProcesses are the processes a system OOM kills: something outside the
// pods' cgroups.
func oomProcesses() []string {
	return []string{"java", "mysqld", "chrome", "node", "python", "postgres"}
}

// InjectOOM makes the kernel's OOM killer strike, as a scenario wants it,
// and returns the OOMEvent that cAdvisor would read from /dev/kmsg (the
// caller hands it to the kubelet's OOM watcher, as cAdvisor's channel does).
//
// With podUID "" it is a system OOM: a process outside the pods (its name
// drawn from the runtime's random source) is killed and no container is.
// Otherwise the newest running container of the pod named containerName
// exits with code 137 and Reason "OOMKilled"; containerName "" picks the
// pod's first-started running container other than "POD". It fails if no
// such container is running. cause is the span that asks (a scenario's
// injectOOM; may be invalid): the event carries it, and ExitCause names
// it for the killed container.
func (r *Runtime) InjectOOM(podUID, containerName string, cause oteltrace.SpanContext) (OOMEvent, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	if podUID == "" {
		ps := oomProcesses()
		return OOMEvent{Time: now, ContainerName: "/", ProcessName: ps[r.rng.IntN(len(ps))], Cause: cause}, nil
	}
	var victim *container
	for _, c := range r.containers {
		if c.PodUID != podUID || c.State != StateRunning {
			continue
		}
		switch {
		case containerName == "" && c.Name != PodInfraContainerName:
			if victim == nil || c.seq < victim.seq { // the first started
				victim = c
			}
		case containerName != "" && c.Name == containerName:
			if victim == nil || c.seq > victim.seq { // the newest
				victim = c
			}
		}
	}
	if victim == nil {
		what := fmt.Sprintf("container %q", containerName)
		if containerName == "" {
			what = "application container"
		}
		return OOMEvent{}, fmt.Errorf("failed to inject an OOM kill: no running %s in pod %s; start the pod first", what, podUID)
	}
	victim.exit(now, 137, "OOMKilled")
	victim.killedBy = cause
	return OOMEvent{
		Time:          now,
		ContainerName: "/kubepods/" + podUID + "/" + victim.ID,
		ProcessName:   repoBase(victim.Image),
		PodUID:        podUID,
		ContainerID:   victim.ID,
		Cause:         cause,
	}, nil
}

// ExitCause is the span that made a container exit, if InjectOOM was
// given one: the PLEG relist that reports the container dead names it as
// its cause. Invalid for containers that ended otherwise or are gone.
func (r *Runtime) ExitCause(containerID string) oteltrace.SpanContext {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c, ok := r.containers[containerID]; ok {
		return c.killedBy
	}
	return oteltrace.SpanContext{}
}

// sorted returns the containers by creation time, then ID. Requires r.mu.
func (r *Runtime) sorted() []*container { return r.order }

// insertSorted adds a new container to r.order, which the listings walk
// (docker ps sorts by creation): kept sorted as containers come and go,
// not sorted again at each of the PLEG's relists.
func (r *Runtime) insertSorted(c *container) {
	i, _ := slices.BinarySearchFunc(r.order, c, byCreation)
	r.order = slices.Insert(r.order, i, c)
}

func byCreation(a, b *container) int {
	if c := a.Created.Compare(b.Created); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}
