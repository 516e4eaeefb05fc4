package containerruntime

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	oteltrace "go.opentelemetry.io/otel/trace"
)

// PauseImage is the image of every pod's infra container in v1.5, the
// kubelet's --pod-infra-container-image default.
const PauseImage = "gcr.io/google_containers/pause-amd64:3.0"

// pauseSize is the size of the pause image (docker images shows 746.9 kB).
const pauseSize = 747 << 10

// ErrNoSpace is the error wrapped when an image or a container's writable
// layer would not fit in the image filesystem (ENOSPC).
var ErrNoSpace = errors.New("no space left on device")

// Image is an image present on the node: one row of docker images, a CRI
// Image.
type Image struct {
	// ID is the content-addressed image ID ("sha256:" and 64 hex
	// characters). Like docker's since 1.10, it follows from the image
	// alone, so the same image has the same ID on every node.
	ID string
	// Ref is the image reference, with the default tag ":latest" added
	// when it has neither tag nor digest, as docker pull does.
	Ref string
	// Size is the image's size in bytes, the same on every node.
	Size int64
	// Pulled is when the image was pulled.
	Pulled time.Time
}

// FsInfo is the usage of the image filesystem (/var/lib/docker): cAdvisor's
// ImagesFsInfo, which the kubelet's image GC and eviction manager read.
type FsInfo struct {
	Capacity int64
	// Usage is ImagesBytes+ContainersBytes+OtherBytes, capped at Capacity.
	Usage int64
	// ImagesBytes is the size of all images.
	ImagesBytes int64
	// ContainersBytes is the size of the writable layers of all
	// containers, running or exited, until they are removed.
	ContainersBytes int64
	// OtherBytes is everything else on the filesystem (logs, volumes,
	// unrelated files), set by SetImageFSUsage.
	OtherBytes int64
}

// ListImages returns the images present, sorted by Ref: docker images, CRI
// ListImages.
func (r *Runtime) ListImages() []Image {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Image, 0, len(r.images))
	for _, img := range r.images {
		out = append(out, *img)
	}
	slices.SortFunc(out, func(a, b Image) int { return strings.Compare(a.Ref, b.Ref) })
	return out
}

// PullImage makes the image ref present: docker pull, CRI PullImage. Pulls
// are instantaneous. pulled is false if the image was already present. It
// fails only if the image does not fit in the image filesystem.
func (r *Runtime) PullImage(ref string) (img Image, pulled bool, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pull(ref, r.now())
}

// pull is PullImage. Requires r.mu.
func (r *Runtime) pull(ref string, now time.Time) (Image, bool, error) {
	if strings.TrimSpace(ref) == "" {
		return Image{}, false, errors.New("failed to pull image: empty image reference")
	}
	if img, ok := r.images[normalizeRef(ref)]; ok {
		return *img, false, nil
	}
	img := newImage(ref, now)
	if err := r.fits(img.Size); err != nil {
		return Image{}, false, fmt.Errorf("failed to register layer of image %q: %w; remove unused images (image GC) or free the image filesystem", img.Ref, err)
	}
	r.images[img.Ref] = &img
	return img, true, nil
}

// RemoveImage removes an image, by ID or by Ref: docker rmi, CRI
// RemoveImage. Like docker rmi without -f, it refuses while any container,
// running or exited, uses the image.
func (r *Runtime) RemoveImage(id string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.now()
	img := r.images[normalizeRef(id)]
	if img == nil {
		for _, i := range r.images {
			if i.ID == id {
				img = i
				break
			}
		}
	}
	if img == nil {
		return fmt.Errorf("no such image: %s", id)
	}
	var user *container
	for _, c := range r.sorted() {
		if c.ImageID == img.ID && (user == nil || c.State == StateRunning) {
			user = c
		}
	}
	if user != nil {
		return fmt.Errorf("conflict: unable to remove image %s: image is being used by %s container %s; remove the container first", img.Ref, user.State, user.ID[:12])
	}
	delete(r.images, img.Ref)
	return nil
}

// ImageFsInfo returns the usage of the image filesystem: cAdvisor's
// ImagesFsInfo (CRI ImageFsInfo).
func (r *Runtime) ImageFsInfo() FsInfo {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.now()
	return r.fsInfo()
}

// SetImageFSUsage fills the image filesystem with other files (OtherBytes)
// so that its usage is percent% of its capacity, for scenarios that drive
// image GC (--image-gc-high-threshold, default 90%) or disk-pressure
// eviction. If images and containers alone already use more, OtherBytes
// becomes 0 and the error says the lowest usage possible. cause is the
// span that asks (a scenario's setImageFSUsage; may be invalid), which
// OtherCause returns while those files are there.
func (r *Runtime) SetImageFSUsage(percent int, cause oteltrace.SpanContext) (FsInfo, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.now()
	if percent < 0 || percent > 100 {
		return r.fsInfo(), fmt.Errorf("invalid image filesystem usage %d%%: expected 0 to 100", percent)
	}
	fs := r.fsInfo()
	used := fs.ImagesBytes + fs.ContainersBytes
	target := percentOf(r.capacity, percent)
	r.otherCause = cause
	if used > target {
		r.other = 0
		lowest := 101
		for p := 0; p <= 100; p++ {
			if percentOf(r.capacity, p) >= used {
				lowest = p
				break
			}
		}
		return r.fsInfo(), fmt.Errorf("image filesystem usage cannot go below %d%%: images (%d bytes) and containers (%d bytes) use that much; remove images or containers first", lowest, fs.ImagesBytes, fs.ContainersBytes)
	}
	r.other = target - used
	return r.fsInfo(), nil
}

// OtherCause is the span that put the image filesystem's OtherBytes there
// (SetImageFSUsage's cause): the image GC that has to free space because
// of them names it as its cause. Invalid when there are none.
func (r *Runtime) OtherCause() oteltrace.SpanContext {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.other == 0 {
		return oteltrace.SpanContext{}
	}
	return r.otherCause
}

// fsInfo computes FsInfo. Requires r.mu.
func (r *Runtime) fsInfo() FsInfo {
	fs := FsInfo{Capacity: r.capacity, OtherBytes: r.other}
	for _, img := range r.images {
		fs.ImagesBytes += img.Size
	}
	for _, c := range r.containers {
		fs.ContainersBytes += c.layer
	}
	fs.Usage = min(fs.ImagesBytes+fs.ContainersBytes+fs.OtherBytes, fs.Capacity)
	return fs
}

// fits reports ErrNoSpace if size more bytes would overflow the image
// filesystem. Requires r.mu.
func (r *Runtime) fits(size int64) error {
	fs := r.fsInfo()
	used := fs.ImagesBytes + fs.ContainersBytes + fs.OtherBytes
	if used+size > fs.Capacity {
		return fmt.Errorf("%w (%d bytes needed, %d of %d free)", ErrNoSpace, size, max(fs.Capacity-used, 0), fs.Capacity)
	}
	return nil
}

// percentOf is floor(n*p/100) without overflow.
func percentOf(n int64, p int) int64 {
	return n/100*int64(p) + n%100*int64(p)/100
}

// newImage describes image ref, pulled at now. Its ID and size follow from
// the reference alone.
func newImage(ref string, now time.Time) Image {
	ref = normalizeRef(ref)
	sum := sha256.Sum256([]byte(ref))
	size := between(hash64("size", ref), 5<<20, 400<<20)
	if isPause(ref) {
		size = pauseSize
	}
	return Image{ID: "sha256:" + hex.EncodeToString(sum[:]), Ref: ref, Size: size, Pulled: now}
}

// normalizeRef adds the default tag to a reference without tag or digest,
// as the kubelet (applyDefaultImageTag) and docker pull do.
func normalizeRef(ref string) string {
	ref = strings.TrimSpace(ref)
	if ref == "" || strings.Contains(ref, "@") || strings.Contains(ref[strings.LastIndex(ref, "/")+1:], ":") {
		return ref
	}
	return ref + ":latest"
}

// repoBase is the last path element of ref's repository, without tag or
// digest: "nginx" for "docker.io/library/nginx:1.11". It stands for the
// image's main process.
func repoBase(ref string) string {
	if i := strings.Index(ref, "@"); i >= 0 {
		ref = ref[:i]
	}
	ref = ref[strings.LastIndex(ref, "/")+1:]
	if i := strings.Index(ref, ":"); i >= 0 {
		ref = ref[:i]
	}
	return ref
}

// isPause reports whether ref is a pause image (pause, pause-amd64, ...).
func isPause(ref string) bool {
	b := repoBase(ref)
	return b == "pause" || strings.HasPrefix(b, "pause-")
}
