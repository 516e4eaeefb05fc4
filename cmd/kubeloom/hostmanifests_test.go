package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
)

// TestAllowHostManifests: a scenario whose manifestDir is outside its own
// folder is refused by scenarios validate and by run (at its line and
// column, naming the flag, before a recording is made), and accepted by
// both with --allow-host-manifests, whose run reads the pods there.
func TestAllowHostManifests(t *testing.T) {
	dir := t.TempDir()
	host := filepath.Join(dir, "host")
	if err := os.MkdirAll(host, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(host, "web.yaml"), []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: web, image: 'nginx:1.11'}]\n"), 0o644)
	sc := filepath.Join(dir, "s.yaml")
	os.WriteFile(sc, []byte("apiVersion: kubeloom.dev/v1\nkind: Scenario\nmetadata: {name: s}\nspec:\n  duration: 30s\n  kubelets: {manifestDir: "+host+"}\n"), 0o644)
	want := sc + ":6:27: spec.kubelets.manifestDir: \"" + host + "\" is an absolute path, and a scenario reads manifests only under its own folder"

	out, _, err := execute(t, "scenarios", "validate", sc)
	if err == nil || !strings.HasPrefix(out, want) || !strings.Contains(out, "--allow-host-manifests") {
		t.Errorf("scenarios validate: %v\n%s\nwant it to start:\n%s", err, out, want)
	}
	if out, _, err := execute(t, "scenarios", "validate", "--allow-host-manifests", sc); err != nil || out != sc+": ok\n" {
		t.Errorf("scenarios validate --allow-host-manifests: %v\n%s", err, out)
	}

	rec := filepath.Join(dir, "s.jsonl")
	if _, _, err := execute(t, "run", sc, "--out", rec); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("run: %v\nwant it to start:\n%s", err, want)
	}
	if _, err := os.Stat(rec); !os.IsNotExist(err) {
		t.Errorf("a refused run left a recording behind: %v", err)
	}
	synctest.Test(t, func(t *testing.T) {
		if _, stderr, err := executeInBubble(t, "run", sc, "--allow-host-manifests", "--out", rec); err != nil {
			t.Fatalf("run --allow-host-manifests: %v\n%s", err, stderr)
		}
	})
	if data, err := os.ReadFile(rec); err != nil || !bytes.Contains(data, []byte(`"web-node-1"`)) {
		t.Errorf("run --allow-host-manifests: the recording lacks the pod web-node-1 of %s (%v)", host, err)
	}
}
