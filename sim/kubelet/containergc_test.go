package kubelet

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeloom/kubeloom/sim/containerruntime"
)

// runs starts the container name of pod uid n times; each run but the
// last exits at once, the last keeps running if running is set.
func runs(t *testing.T, r *containerruntime.Runtime, uid, name string, n int, running bool) {
	t.Helper()
	for i := range n {
		c, err := r.StartContainer(uid, "default", "pod-"+uid, containerruntime.ContainerSpec{Name: name, Image: "busybox:1.25"})
		if err != nil {
			t.Fatal(err)
		}
		if i < n-1 || !running {
			if err := r.StopContainer(c.ID, "Error", 1); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// containers labels the runtime's containers "uid/name#attempt" (with a
// trailing * while running).
func containers(r *containerruntime.Runtime) []string {
	var out []string
	for _, c := range r.ListContainers(true) {
		s := fmt.Sprintf("%s/%s#%d", c.PodUID, c.Name, c.Attempt)
		if c.State == containerruntime.StateRunning {
			s += "*"
		}
		out = append(out, s)
	}
	return out
}

// TestContainerGC: the container GC keeps the newest dead container of
// each pod and container name (--maximum-dead-containers-per-container 1)
// and never touches running ones; once every source is ready, a pod the
// pod manager does not know is gone, and all its dead containers go.
func TestContainerGC(t *testing.T) {
	for _, tc := range []struct {
		name     string
		ready    bool
		want     []string
		removedN int
	}{
		{name: "sources not ready", want: []string{
			"known/POD#0*", "known/app#2", "known/app#3*", "known/sidecar#0", "known/done#1",
			"gone/POD#0", "gone/app#1"}, removedN: 4},
		{name: "sources ready", ready: true, want: []string{
			"known/POD#0*", "known/app#2", "known/app#3*", "known/sidecar#0", "known/done#1"}, removedN: 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			defer h.stop()
			r := h.runtime(0, containerruntime.PauseImage, "busybox:1.25")
			k := h.kubelet(r)
			k.config = newPodConfig()
			k.config.sources = []string{sourceAPI}
			if tc.ready {
				k.config.merge(h.ctx, sourceAPI, podUpdate{op: "SET"})
			}
			k.pods.update(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "pod-known", Namespace: "default", UID: "known"}})
			runs(t, r, "known", containerruntime.PodInfraContainerName, 1, true)
			runs(t, r, "known", "app", 4, true)      // 3 dead, the 4th running
			runs(t, r, "known", "sidecar", 1, false) // one dead
			runs(t, r, "known", "done", 2, false)    // both dead
			runs(t, r, "gone", containerruntime.PodInfraContainerName, 1, false)
			runs(t, r, "gone", "app", 2, false)
			sp := h.span("Containers/GarbageCollect", k.containerGC)
			if got := containers(r); !sameSet(got, tc.want) {
				t.Errorf("containers left %v, want %v", got, tc.want)
			}
			if got := attr(sp, "kubelet.containers_removed"); got != int64(tc.removedN) {
				t.Errorf("containers_removed = %v, want %d", got, tc.removedN)
			}
			if got := attr(sp, "kubelet.dead_containers"); got != int64(9) {
				t.Errorf("dead_containers = %v, want 9", got)
			}
			if got := attr(sp, "kubelet.all_sources_ready"); got != tc.ready {
				t.Errorf("all_sources_ready = %v, want %v", got, tc.ready)
			}
			// A second run finds nothing more to do.
			sp = h.span("Containers/GarbageCollect", k.containerGC)
			if got := attr(sp, "kubelet.containers_removed"); got != int64(0) {
				t.Errorf("second run removed %v containers, want 0", got)
			}
		})
	}
}
