package kubelet

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// secret is what the files of TestSkippedManifestsQuoteNothing hold; no
// byte of it may reach a reason.
const secret = "hunter2-SECRET"

// TestSkippedManifestsQuoteNothing: a file that is no pod is skipped with
// its name and a reason in kubeloom's words, whatever the decoder found
// wrong; the decoder's own messages quote the file (the whole of it, for a
// missing kind), and a recording is shared.
func TestSkippedManifestsQuoteNothing(t *testing.T) {
	dir := t.TempDir()
	files := map[string]struct{ body, reason string }{
		"shadow":        {"root:" + secret + ":19000:0:99999:7:::\n", "no kind: not a Kubernetes object (expected kind: Pod)"},
		"no-kind.yaml":  {"password: " + secret + "\n", "no kind: not a Kubernetes object (expected kind: Pod)"},
		"no-version":    {"kind: Pod\nmetadata: {name: " + secret + "}\n", "no apiVersion (expected apiVersion: v1)"},
		"unknown.yaml":  {"apiVersion: v1\nkind: " + secret + "\n", "a kind or apiVersion kubeloom does not know (expected kind: Pod, apiVersion: v1)"},
		"secret.yaml":   {"apiVersion: v1\nkind: Secret\nmetadata: {name: db}\nstringData: {password: " + secret + "}\n", "expected a Pod, got a v1 Secret"},
		"bad.yaml":      {"apiVersion: v1\nkind: Pod\nmetadata: {name: x\n  " + secret + ": [\n", "not valid YAML (line 3)"},
		"bad.json":      {`{"apiVersion": "v1", "kind": "Pod", "spec": ` + secret + `}`, "not valid JSON"},
		"type.yaml":     {"apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec: {containers: " + secret + "}\n", "a field holds a value of the wrong type for a v1 Pod"},
		"empty-pod.yml": {"apiVersion: v1\nkind: Pod\nmetadata: {name: " + secret + "}\n", "spec.containers: Required value"},
		"string.yaml":   {secret + "\n", "not a YAML or JSON object (expected a Pod manifest)"},
	}
	for name, f := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(f.body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ReadManifests(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(files) {
		t.Fatalf("read %d manifests, want %d", len(got), len(files))
	}
	for _, m := range got {
		if m.Pod != nil || m.Err == nil {
			t.Errorf("%s: pod %v, error %v; want no pod and a reason", m.Name, m.Pod, m.Err)
			continue
		}
		if strings.Contains(m.Err.Error(), "SECRET") || strings.Contains(m.Err.Error(), "hunter2") {
			t.Errorf("%s: the reason quotes the file: %s", m.Name, m.Err)
		}
		if want := files[m.Name].reason; m.Err.Error() != want {
			t.Errorf("%s: reason %q, want %q", m.Name, m.Err, want)
		}
	}

	// The file source's span: the same names and reasons, and no byte of
	// the files anywhere in its events.
	h := newHarness(t)
	defer h.stop()
	k := h.kubelet(nil)
	k.o.ManifestDir, k.o.Manifests = dir, os.DirFS(dir)
	ch := make(chan podUpdate, 1)
	span := h.span("run", func(ctx context.Context) { k.readManifestDir(ctx, ch) })
	if u := <-ch; len(u.pods) != 0 {
		t.Errorf("sent %d pods, want none", len(u.pods))
	}
	skipped := 0
	for _, e := range span.Events {
		if e.Name == "skipped" {
			skipped++
		}
		if s := fmt.Sprint(e.Attributes); strings.Contains(s, "SECRET") || strings.Contains(s, "hunter2") {
			t.Errorf("event %s quotes a file: %s", e.Name, s)
		}
	}
	if skipped != len(files) {
		t.Errorf("%d skipped events, want %d", skipped, len(files))
	}
}

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
