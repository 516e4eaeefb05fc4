package main

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/utils/clock"
)

// TestGoTraceNamesRegionsAfterGoroutines runs a scenario with --go-trace
// and reads the Go execution trace back with `go tool trace`: each
// simulated goroutine is a region named by its catalog name, so the Go
// tooling tells the same story as the recording.
func TestGoTraceNamesRegionsAfterGoroutines(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go tool trace")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "run.trace")
	err := runRun(context.Background(),
		&runOptions{io: streams{out: &bytes.Buffer{}, err: &bytes.Buffer{}}, clock: clock.RealClock{}, scenario: "informer-basics", out: filepath.Join(dir, "run.jsonl"), quiet: true, goTrace: file, speed: 200, duration: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "tool", "trace", "-d=parsed", file).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool trace: %v\n%.500s", err, out)
	}
	for _, g := range []string{"informer/run", "informer/listener-run", "informer/listener-pop", "reflector/list-watch", "watch/stream-receive"} {
		if !strings.Contains(string(out), `RegionBegin`) || !strings.Contains(string(out), `Type="`+g+`"`) {
			t.Errorf("no region named %s in the Go execution trace", g)
		}
	}
}
