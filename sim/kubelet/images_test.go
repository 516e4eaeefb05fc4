package kubelet

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/containerruntime"
	"github.com/kubeloom/kubeloom/sim/events"
)

const gib = 1 << 30

// refs returns the images present, by reference.
func refs(r *containerruntime.Runtime) []string {
	var out []string
	for _, img := range r.ListImages() {
		out = append(out, img.Ref)
	}
	return out
}

func usagePercent(r *containerruntime.Runtime) int64 {
	fs := r.ImageFsInfo()
	return 100 - (fs.Capacity-fs.Usage)*100/fs.Capacity
}

// use runs a container of image in a pod of its own and removes it, so
// that the image was last used now; image-detect records it.
func use(t *testing.T, k *Kubelet, image string) {
	t.Helper()
	r := k.o.Runtime
	c, err := r.StartContainer("uid-"+image, "default", "user", containerruntime.ContainerSpec{Name: "c", Image: image})
	if err != nil {
		t.Fatal(err)
	}
	k.images.detectImages(k.rt.Clock().Now())
	if err := r.StopContainer(c.ID, "Completed", 0); err != nil {
		t.Fatal(err)
	}
	if err := r.RemoveContainer(c.ID); err != nil {
		t.Fatal(err)
	}
}

// withRecorder gives k an event pipeline, for the events image GC records.
func withRecorder(h *harness, k *Kubelet) {
	k.events = events.Start(h.ctx, events.Options{Prefix: "kubelet", Component: "kubelet", Host: k.o.Node})
	k.recorder = k.events.Recorder(h.ctx)
}

// lruImages are images present when the kubelet starts, and the order in
// which test pods last use them (the pause image is never used).
func lruImages() []string {
	return []string{containerruntime.PauseImage, "golang:1.7", "mongo:3.2", "nginx:1.10", "postgres:9.5", "node:6.9"}
}

// TestImageGC: image GC does nothing below 90% usage; from 90% it removes
// unused images, least recently used first, until usage is at most 80%,
// and records FreeDiskSpaceFailed (v1.3) when removing every candidate is not enough.
// The images' sizes follow from their references (0.7, 182, 151, 134, 87
// and 206 MiB in LRU order): on a 4 GiB filesystem 90% leaves 410 MiB to
// free, which the first four give.
func TestImageGC(t *testing.T) {
	for _, tc := range []struct {
		percent int
		removed []string // nil: GC does not run
		failed  bool
	}{
		{percent: 20},
		{percent: 50},
		{percent: 89},
		{percent: 90, removed: lruImages()[:4]},
		{percent: 95, removed: lruImages()},
		{percent: 100, removed: lruImages(), failed: true},
	} {
		t.Run(fmt.Sprintf("%d%%", tc.percent), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := newHarness(t)
				defer h.stop()
				r := h.runtime(4*gib, lruImages()...)
				k := h.kubelet(r)
				withRecorder(h, k)
				defer k.shutdown()
				k.images.detectImages(h.clk.Now()) // kubelet/image-detect's first run
				for _, img := range lruImages()[1:] {
					h.clk.Sleep(10 * time.Second)
					use(t, k, img)
				}
				h.clk.Sleep(3 * time.Minute)
				if _, err := r.SetImageFSUsage(tc.percent, trace.SpanContext{}); err != nil {
					t.Fatal(err)
				}
				sp := h.span("Images/GarbageCollect", k.images.garbageCollect)
				if got := attr(sp, "kubelet.imagefs.usage_percent"); got != int64(tc.percent) {
					t.Errorf("usage_percent = %v, want %d", got, tc.percent)
				}
				var removed []string // in the order GC removed them
				for _, s := range h.spansNamed("RemoveImage") {
					removed = append(removed, attr(s, "container.image.name").(string))
				}
				if !slices.Equal(removed, tc.removed) {
					t.Errorf("removed %v, want %v", removed, tc.removed)
				}
				for _, ref := range refs(r) {
					if slices.Contains(tc.removed, ref) {
						t.Errorf("%s is still present", ref)
					}
				}
				ran := attr(sp, "kubelet.imagefs.bytes_to_free") != nil
				if ran != (tc.percent >= imageGCHighThresholdPercent) {
					t.Errorf("at %d%%: bytes_to_free set = %v, want %v", tc.percent, ran, !ran)
				}
				if !ran {
					return
				}
				after := usagePercent(r)
				if got := attr(sp, "kubelet.imagefs.usage_percent_after"); got != after {
					t.Errorf("usage_percent_after = %v, the runtime says %d", got, after)
				}
				if freed, want := attr(sp, "kubelet.imagefs.bytes_freed"), attr(sp, "kubelet.imagefs.bytes_to_free"); !tc.failed && freed.(int64) < want.(int64) {
					t.Errorf("freed %v bytes, wanted %v", freed, want)
				}
				if (after <= imageGCLowThresholdPercent) == tc.failed {
					t.Errorf("usage after GC %d%%; want ≤ %d%% unless GC fails", after, imageGCLowThresholdPercent)
				}
				failedEvents := 0
				for _, s := range h.spansNamed("distribute") {
					if attr(s, "k8s.event.reason") == "FreeDiskSpaceFailed" {
						failedEvents++
					}
				}
				if tc.failed != (sp.Status.Code == codes.Error) || tc.failed != (failedEvents == 1) {
					t.Errorf("status %v and %d FreeDiskSpaceFailed events; want failed = %v", sp.Status, failedEvents, tc.failed)
				}
			})
		})
	}
}

// TestImageGCKeeps: freeSpace never removes an image a container uses,
// running or exited, nor one first detected less than 2m ago (it may be
// about to be used); one detected exactly 2m ago may go.
func TestImageGCKeeps(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t)
		defer h.stop()
		r := h.runtime(20*gib, containerruntime.PauseImage, "redis:3.2", "mysql:5.6", "python:2.7")
		k := h.kubelet(r)
		k.images.detectImages(h.clk.Now())
		h.clk.Sleep(time.Minute)
		mustPull(t, r, "nginx:1.10")
		k.images.detectImages(h.clk.Now()) // first detected 2m before the GC
		h.clk.Sleep(time.Second)
		mustPull(t, r, "mongo:3.2")
		k.images.detectImages(h.clk.Now()) // 1m59s before
		h.clk.Sleep(time.Minute)
		if _, err := r.StartContainer("uid-a", "default", "a", containerruntime.ContainerSpec{Name: "db", Image: "redis:3.2"}); err != nil {
			t.Fatal(err)
		}
		dead, err := r.StartContainer("uid-b", "default", "b", containerruntime.ContainerSpec{Name: "db", Image: "mysql:5.6"})
		if err != nil {
			t.Fatal(err)
		}
		r.StopContainer(dead.ID, "Error", 1)
		h.clk.Sleep(59 * time.Second)
		mustPull(t, r, "alpine:3.4") // pulled now, never detected before
		freed := k.images.freeSpace(h.ctx, 1<<40, h.clk.Now())
		want := []string{containerruntime.PauseImage, "python:2.7", "nginx:1.10"}
		kept := []string{"redis:3.2", "mysql:5.6", "mongo:3.2", "alpine:3.4"}
		if got := refs(r); !sameSet(got, kept) {
			t.Errorf("images left %v, want %v (removed: %v)", got, kept, want)
		}
		var size int64
		for _, ref := range want {
			size += sizeOf(ref)
		}
		if freed != size {
			t.Errorf("freed %d bytes, want %d (the sizes of %v)", freed, size, want)
		}
	})
}

// TestImageGCStartupImagesAreOld: realImageManager.Start detects the
// images present at start with the zero time ("unknown in the past"), so
// they may be collected at once; only images that appear later must wait
// out the minimum age.
func TestImageGCStartupImagesAreOld(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t)
		defer h.stop()
		r := h.runtime(4*gib, lruImages()...)
		if _, err := r.SetImageFSUsage(95, trace.SpanContext{}); err != nil {
			t.Fatal(err)
		}
		k := h.kubelet(r)
		withRecorder(h, k)
		defer k.shutdown()
		ctx, cancel := context.WithCancel(h.ctx)
		defer cancel()
		k.images.start(ctx)
		h.clk.Sleep(30 * time.Second)
		h.span("Images/GarbageCollect", k.images.garbageCollect)
		if after := usagePercent(r); after > imageGCLowThresholdPercent {
			t.Errorf("30s after kubelet start at 95%%: usage after GC %d%%, want ≤ %d%% (images left: %v)",
				after, imageGCLowThresholdPercent, refs(r))
		}
	})
}

func mustPull(t *testing.T, r *containerruntime.Runtime, ref string) {
	t.Helper()
	if _, pulled, err := r.PullImage(ref); err != nil || !pulled {
		t.Fatalf("PullImage(%s): pulled %v, %v", ref, pulled, err)
	}
}

// sizeOf is an image's size, which follows from its reference.
func sizeOf(ref string) int64 {
	r := containerruntime.New(containerruntime.Options{Clock: fixedClock{}, Images: []string{ref}})
	return r.ListImages()[0].Size
}

type fixedClock struct{}

func (fixedClock) Now() time.Time                  { return time.Time{} }
func (fixedClock) Since(t time.Time) time.Duration { return 0 }

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
