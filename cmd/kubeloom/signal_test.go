package main

import (
	"bufio"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/kubeloom/kubeloom/traces"
)

// TestCtrlCEndsRunWith130 builds the real binary, interrupts a run with
// SIGINT once it is under way, and checks the exit status and that the
// recording holds every span ended so far, each line valid JSON: plain,
// and compressed (the zstd stream is ended too, its checksum checked). A
// run in virtual time learns of the signal from outside its bubble (its
// Watch); a live one through its context.
func TestCtrlCEndsRunWith130(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := builtBinary(t)
	// A command that ends by itself exits 0.
	if err := exec.Command(bin, "version").Run(); err != nil {
		t.Fatalf("kubeloom version: %v, want exit status 0", err)
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		// Live: SIGINT once the kubelet is up and spans are written.
		{"live.jsonl", []string{"kubelet-startup", "--speed", "60"}},
		{"live.jsonl.zst", []string{"kubelet-startup", "--speed", "60"}},
		// Virtual time: a run long enough (ten simulated hours of two
		// nodes, seconds of CPU) to be interrupted in the middle.
		{"virtual.jsonl", []string{"cluster-basics", "--duration", "10h"}},
		{"virtual.jsonl.zst", []string{"cluster-basics", "--duration", "10h"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := filepath.Join(dir, tc.name)
			interruptRun(t, bin, rec, tc.args...)
			spans, err := traces.ReadFile(rec)
			if err != nil || len(spans) < 100 {
				t.Errorf("recording after Ctrl-C: %d spans, error %v; want every line valid and the spans so far", len(spans), err)
			}
			if isCompressedFile(t, rec) != strings.HasSuffix(tc.name, ".zst") {
				t.Errorf("%s: compressed %v", tc.name, isCompressedFile(t, rec))
			}
		})
	}
}

// interruptRun runs a scenario (args) recording to rec, sends SIGINT once
// the progress shows its second action (the run is well under way and
// spans have been written), and checks the exit status.
func interruptRun(t *testing.T, bin, rec string, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, append(append([]string{"run"}, args...), "--out", rec)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	var seen []string
	actions := 0
	for sc.Scan() {
		seen = append(seen, sc.Text())
		if strings.Contains(sc.Text(), "(goroutines ") { // an action's progress line
			if actions++; actions == 2 {
				cmd.Process.Signal(syscall.SIGINT)
				break
			}
		}
	}
	for sc.Scan() {
		seen = append(seen, sc.Text())
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Fatalf("exit = %v, want status 130\n%s", err, strings.Join(seen, "\n"))
	}
}
