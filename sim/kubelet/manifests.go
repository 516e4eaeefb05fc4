package kubelet

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// MaxManifestBytes is the most the file source reads of one manifest. The
// real kubelet reads a file whatever its size; kubeloom runs scenarios
// written by others, whose folder may hold anything, so it stops here. A
// static pod's manifest is a few KB, and etcd refuses a request over
// 1.5 MiB, so no pod the apiserver stores comes near.
const MaxManifestBytes = 1 << 20

// Manifest is one file of a manifest folder as the file source reads it:
// a pod, or why the file gives none.
type Manifest struct {
	Name string      // the file's name in the folder
	Pod  *corev1.Pod // nil when the file gives no pod
	// Err says why there is no pod: an *InvalidManifest for a file read but
	// not usable, another error (from the file system) for one not read.
	Err error
}

// InvalidManifest is a file that is not a pod kubeloom can run. Its reason
// is in kubeloom's words and never quotes the file: the decoder's own
// messages do (apimachinery's "Object 'Kind' is missing in '<the whole
// file>'"), and a recording is made to be shared.
type InvalidManifest struct{ Reason string }

func (e *InvalidManifest) Error() string { return e.Reason }

// ReadManifests reads the files directly in fsys, by name (fs.ReadDir sorts), as
// extractFromDir does: sub-folders and hidden files are left out. Only
// regular files are read (a FIFO or a device would block or never end),
// of at most MaxManifestBytes. A folder that does not exist holds none.
func ReadManifests(fsys fs.FS) ([]Manifest, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	var out []Manifest
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		m := Manifest{Name: e.Name()}
		data, err := readManifest(fsys, e.Name())
		if err == nil {
			m.Pod, err = decodeManifest(data)
		}
		m.Err = err
		out = append(out, m)
	}
	return out, nil
}

// readManifest reads one file of the folder, if it is a regular one of at
// most MaxManifestBytes. A symbolic link counts as what it points to; fsys
// decides where it may point (engine confines it to the scenario's folder).
func readManifest(fsys fs.FS, name string) ([]byte, error) {
	// Stat before opening: opening a FIFO for reading blocks until a
	// writer comes.
	fi, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &InvalidManifest{Reason: "not a regular file" + fileType(fi.Mode())}
	}
	if fi.Size() > MaxManifestBytes {
		return nil, tooLarge()
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The limit again: the file may have grown since Stat.
	data, err := io.ReadAll(io.LimitReader(f, MaxManifestBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxManifestBytes {
		return nil, tooLarge()
	}
	return data, nil
}

func tooLarge() error {
	return &InvalidManifest{Reason: fmt.Sprintf("larger than %d KiB, the most kubeloom reads of one manifest", MaxManifestBytes>>10)}
}

// fileType says what a file that is not a regular one is, when it is one
// of the kinds that would block or never end: " (a named pipe)".
func fileType(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return " (a named pipe)"
	case m&fs.ModeSocket != 0:
		return " (a socket)"
	case m&fs.ModeDevice != 0:
		return " (a device)"
	}
	return ""
}

// decodeManifest decodes a pod the file source can run: a Pod with
// containers (filterInvalidPods drops one without).
func decodeManifest(data []byte) (*corev1.Pod, error) {
	pod, err := decodePod(data)
	if err != nil {
		return nil, &InvalidManifest{Reason: manifestReason(err)}
	}
	if len(pod.Spec.Containers) == 0 {
		return nil, &InvalidManifest{Reason: "spec.containers: Required value"}
	}
	return pod, nil
}
