package kubelet

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"

	"github.com/kubeloom/kubeloom/sim/containerruntime"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// Image GC policy (v1.5 defaults: --image-gc-high-threshold 90,
// --image-gc-low-threshold 80, --minimum-image-ttl-duration 2m).
const (
	imageGCHighThresholdPercent = 90
	imageGCLowThresholdPercent  = 80
	imageMinAge                 = 2 * time.Minute
)

// imageManager is realImageManager (pkg/kubelet/image_manager.go in
// v1.3, images/image_gc_manager.go later): a record of when each image
// was first detected and last used, kept by kubelet/image-detect, and the
// garbage collection kubelet/image-gc runs.
type imageManager struct {
	k       *Kubelet
	mu      sync.Mutex
	records map[string]*imageRecord  // by image ID
	cache   []containerruntime.Image // modern: the image list node status reports
}

type imageRecord struct {
	ref           string
	firstDetected time.Time
	lastUsed      time.Time
	size          int64
}

func newImageManager(k *Kubelet) *imageManager {
	return &imageManager{k: k, records: map[string]*imageRecord{}}
}

// start is realImageManager.Start: go wait.Until(detectImages, 5m), and
// since 1.4 (era modern) the image cache loop every 30s.
func (im *imageManager) start(ctx context.Context) {
	ctx, sp := goroutine.Start(ctx, "imageManager.Start")
	defer sp.End()
	initialized := false
	im.k.rt.Until(ctx, "kubelet/image-detect", imageDetectPeriod, func(ctx context.Context) {
		// The initial detection makes the detected time "unknown in the
		// past": images already on the node may be collected at once.
		var ts time.Time
		if initialized {
			ts = im.k.rt.Clock().Now()
		}
		initialized = true
		n := im.detectImages(ts)
		goroutine.SpanFrom(ctx).SetAttributes(attribute.Int("container.images", n))
	}, goroutine.WithIterationName("detectImages"))
	if im.k.modern {
		im.k.rt.Until(ctx, "kubelet/image-cache", imageCachePeriod, func(ctx context.Context) {
			images := im.k.o.Runtime.ListImages()
			im.mu.Lock()
			im.cache = images
			im.mu.Unlock()
			goroutine.SpanFrom(ctx).SetAttributes(attribute.Int("container.images", len(images)))
		}, goroutine.WithIterationName("imageCache.set"))
	}
}

// detectImages records new images and marks those any container (running
// or dead) uses as used now. It returns how many images there are.
func (im *imageManager) detectImages(detectTime time.Time) int {
	images := im.k.o.Runtime.ListImages()
	inUse := map[string]bool{}
	for _, c := range im.k.o.Runtime.ListContainers(true) {
		inUse[c.ImageID] = true
	}
	now := im.k.rt.Clock().Now()
	im.mu.Lock()
	defer im.mu.Unlock()
	present := map[string]bool{}
	for _, img := range images {
		present[img.ID] = true
		r, ok := im.records[img.ID]
		if !ok {
			r = &imageRecord{ref: img.Ref, firstDetected: detectTime}
			im.records[img.ID] = r
		}
		if inUse[img.ID] {
			r.lastUsed = now
		}
		r.size = img.Size
	}
	for id := range im.records {
		if !present[id] {
			delete(im.records, id)
		}
	}
	return len(images)
}

// garbageCollect is the body of kubelet/image-gc (Images/GarbageCollect):
// when the image filesystem is at least 90% full, free space down to 80%.
func (im *imageManager) garbageCollect(ctx context.Context) {
	sp := goroutine.SpanFrom(ctx)
	fs := im.k.o.Runtime.ImageFsInfo()
	if fs.Capacity <= 0 {
		err := fmt.Errorf("invalid capacity %d on device %q", fs.Capacity, "/var/lib/docker")
		sp.RecordError(err)
		im.k.recorder.Eventf(ctx, im.k.nodeRef(), corev1.EventTypeWarning, "InvalidDiskCapacity", "%v", err)
		return
	}
	// usagePercent := 100 - int(available*100/capacity), as image_gc_manager.go computes it.
	usage := 100 - (fs.Capacity-fs.Usage)*100/fs.Capacity
	sp.SetAttributes(attribute.Int64("kubelet.imagefs.capacity_bytes", fs.Capacity), attribute.Int64("kubelet.imagefs.usage_bytes", fs.Usage),
		attribute.Int64("kubelet.imagefs.usage_percent", usage))
	if usage < imageGCHighThresholdPercent {
		return
	}
	if c := im.k.o.Runtime.OtherCause(); c.IsValid() {
		// What filled the disk (a scenario's setImageFSUsage) is why this
		// collection has to free space.
		sp.AddLink(goroutine.Cause(c, im.k.o.Node))
	}
	amountToFree := fs.Usage - fs.Capacity*imageGCLowThresholdPercent/100
	freed := im.freeSpace(ctx, amountToFree, im.k.rt.Clock().Now())
	after := im.k.o.Runtime.ImageFsInfo()
	sp.SetAttributes(attribute.Int64("kubelet.imagefs.bytes_to_free", amountToFree), attribute.Int64("kubelet.imagefs.bytes_freed", freed),
		attribute.Int64("kubelet.imagefs.usage_percent_after", 100-(after.Capacity-after.Usage)*100/after.Capacity))
	if freed < amountToFree {
		err := fmt.Errorf("failed to garbage collect required amount of images. Wanted to free %d, but freed %d", amountToFree, freed)
		sp.RecordError(err)
		// GarbageCollect's own event; since 1.5 StartGarbageCollection's
		// loop also records ImageGCFailed.
		im.k.recorder.Eventf(ctx, im.k.nodeRef(), corev1.EventTypeWarning, "FreeDiskSpaceFailed", "%v", err)
		if im.k.modern {
			im.k.recorder.Eventf(ctx, im.k.nodeRef(), corev1.EventTypeWarning, "ImageGCFailed", "%v", err)
		}
	}
}

// freeSpace deletes unused images, least recently used first, skipping
// images younger than the minimum age, until bytesToFree are freed.
func (im *imageManager) freeSpace(ctx context.Context, bytesToFree int64, freeTime time.Time) int64 {
	im.detectImages(freeTime)
	im.mu.Lock()
	type candidate struct {
		id string
		r  imageRecord
	}
	var images []candidate
	for id, r := range im.records {
		images = append(images, candidate{id, *r})
	}
	im.mu.Unlock()
	sort.Slice(images, func(i, j int) bool {
		if !images[i].r.lastUsed.Equal(images[j].r.lastUsed) {
			return images[i].r.lastUsed.Before(images[j].r.lastUsed)
		}
		return images[i].r.ref < images[j].r.ref
	})
	var freed int64
	for _, img := range images {
		// Images in use were given a newer lastUsed.
		if !img.r.lastUsed.Before(freeTime) {
			continue
		}
		// Avoid collecting an image that may have just been pulled for a container about to start.
		if freeTime.Sub(img.r.firstDetected) < imageMinAge {
			continue
		}
		_, sp := goroutine.Start(ctx, "RemoveImage", trace.WithAttributes(attribute.String("container.image.name", img.r.ref),
			attribute.Int64("container.image.size", img.r.size)))
		err := im.k.o.Runtime.RemoveImage(img.id)
		sp.RecordError(err)
		sp.End()
		if err != nil {
			continue
		}
		im.mu.Lock()
		delete(im.records, img.id)
		im.mu.Unlock()
		freed += img.r.size
		if freed >= bytesToFree {
			break
		}
	}
	return freed
}

// nodeImages is the image list of the node status: the image cache
// today, the runtime's list in v1.3.
func (im *imageManager) nodeImages() []containerruntime.Image {
	im.mu.Lock()
	cached := im.cache
	im.mu.Unlock()
	if im.k.modern && cached != nil {
		return cached
	}
	return im.k.o.Runtime.ListImages()
}
