//go:build unix

package kubelet

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadManifestsBounds: only regular files of at most MaxManifestBytes
// are read; a FIFO is skipped without blocking on it, a device and a larger
// file without reading them, and none stops the others from being read.
func TestReadManifestsBounds(t *testing.T) {
	dir := t.TempDir()
	pod := "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: web, image: 'nginx:1.11'}]\n"
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("web.yaml", []byte(pod))
	write("huge.yaml", []byte(pod+"# "+strings.Repeat("x", MaxManifestBytes)+"\n"))
	write("limit.yaml", []byte(pod+"# "+strings.Repeat("x", MaxManifestBytes-len(pod)-3)+"\n"))
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A device that never ends, reached by a symbolic link (os.DirFS
	// follows it, as with --allow-host-manifests).
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero")); err != nil {
		t.Fatal(err)
	}
	done := make(chan []Manifest)
	go func() {
		got, err := ReadManifests(os.DirFS(dir))
		if err != nil {
			t.Error(err)
		}
		done <- got
	}()
	var got []Manifest
	select {
	case got = <-done:
	case <-time.After(10 * time.Second):
		// Unblock the reader, so that the test ends.
		if f, err := os.OpenFile(filepath.Join(dir, "fifo"), os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		<-done
		t.Fatal("ReadManifests blocked on a FIFO")
	}
	want := map[string]string{
		"fifo":       "not a regular file (a named pipe)",
		"zero":       "not a regular file (a device)",
		"huge.yaml":  "larger than 1024 KiB, the most kubeloom reads of one manifest",
		"limit.yaml": "",
		"web.yaml":   "",
	}
	if len(got) != len(want) {
		t.Fatalf("read %d files, want %d", len(got), len(want))
	}
	for _, m := range got {
		reason := ""
		if m.Err != nil {
			reason = m.Err.Error()
		}
		if reason != want[m.Name] || (reason == "") != (m.Pod != nil) {
			t.Errorf("%s: pod %v, reason %q; want reason %q", m.Name, m.Pod != nil, reason, want[m.Name])
		}
	}
}
