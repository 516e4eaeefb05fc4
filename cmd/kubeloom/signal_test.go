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
// and compressed (the zstd stream is ended too, its checksum checked).
func TestCtrlCEndsRunWith130(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "kubeloom")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// A command that ends by itself exits 0.
	if err := exec.Command(bin, "version").Run(); err != nil {
		t.Fatalf("kubeloom version: %v, want exit status 0", err)
	}
	for _, name := range []string{"cut.jsonl", "cut.jsonl.zst"} {
		t.Run(name, func(t *testing.T) {
			rec := filepath.Join(dir, name)
			interruptRun(t, bin, rec)
			spans, err := traces.ReadFile(rec)
			if err != nil || len(spans) < 100 {
				t.Errorf("recording after Ctrl-C: %d spans, error %v; want every line valid and the spans so far", len(spans), err)
			}
			if isCompressedFile(t, rec) != strings.HasSuffix(name, ".zst") {
				t.Errorf("%s: compressed %v", name, isCompressedFile(t, rec))
			}
		})
	}
}

// interruptRun runs kubelet-startup recording to rec, sends SIGINT once
// the progress shows the first action (the kubelet is up and spans have
// been written), and checks the exit status.
func interruptRun(t *testing.T, bin, rec string) {
	t.Helper()
	cmd := exec.Command(bin, "run", "kubelet-startup", "--speed", "60", "--out", rec)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	var seen []string
	for sc.Scan() {
		seen = append(seen, sc.Text())
		if strings.Contains(sc.Text(), "injectOOM at") {
			cmd.Process.Signal(syscall.SIGINT)
			break
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
