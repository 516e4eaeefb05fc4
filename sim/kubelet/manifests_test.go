package kubelet

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
