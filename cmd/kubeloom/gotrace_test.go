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
	// Live, in this process.
	dir := t.TempDir()
	file := filepath.Join(dir, "live.trace")
	err := runRun(context.Background(), &runOptions{io: streams{out: &bytes.Buffer{}, err: &bytes.Buffer{}}, clock: clock.RealClock{},
		scenario: "informer-basics", out: filepath.Join(dir, "live.jsonl"), quiet: true, goTrace: file, speed: 200, duration: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	checkGoTrace(t, file)
	// In virtual time, as a user runs it: the Go trace starts outside the
	// run's bubble (the runtime's trace reader is no goroutine of it).
	file = filepath.Join(dir, "virtual.trace")
	if out, err := exec.Command(builtBinary(t), "run", "informer-basics", "-q", "--go-trace", file, "--out", filepath.Join(dir, "virtual.jsonl")).CombinedOutput(); err != nil {
		t.Fatalf("kubeloom run --go-trace: %v\n%s", err, out)
	}
	checkGoTrace(t, file)
}

// checkGoTrace reads a Go execution trace with `go tool trace` and looks
// for the informer's goroutines as regions.
func checkGoTrace(t *testing.T, file string) {
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
