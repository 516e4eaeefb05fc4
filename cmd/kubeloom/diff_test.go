package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/synctest"

	"github.com/charmbracelet/x/ansi"
)

// record runs a built-in in virtual time with the given flags and returns
// its recording.
func record(t *testing.T, scenario string, flags ...string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), scenario+".jsonl")
	synctest.Test(t, func(t *testing.T) {
		if _, stderr, err := execute(t, append([]string{"run", scenario, "-q", "--out", file}, flags...)...); err != nil {
			t.Fatalf("run %s: %v\n%s", scenario, err, stderr)
		}
	})
	return file
}

// statusOf is the exit status main gives err.
func statusOf(err error) int { return exitCode(err, syscall.Signal(0), false) }

// `kubeloom diff` says "no difference" and exits 0 for a recording against
// itself and against a second run with the same seed; for two eras of one
// recording it names what differs (the FIFO each reflector fills, the
// listeners' fewer calls) and exits 1, as diff does; unreadable input
// exits 2.
func TestDiff(t *testing.T) {
	a, b := record(t, "informer-eras"), record(t, "informer-eras")
	for _, pair := range [][2]string{{a, a}, {a, b}} {
		out, _, err := execute(t, "diff", pair[0], pair[1], "--width", "100")
		if statusOf(err) != 0 || !strings.HasPrefix(out, "no difference\n") {
			t.Errorf("diff of two runs of one seed: status %d, %v\n%s", statusOf(err), err, out)
		}
	}

	out, stderr, err := execute(t, "diff", a, a, "--a", "classic", "--b", "modern", "--width", "100")
	if statusOf(err) != 1 || stderr != "" {
		t.Errorf("diff of the two eras: status %d, %v, stderr %q; want 1, nothing on stderr", statusOf(err), err, stderr)
	}
	for _, want := range []string{
		"B: 5 families that ran differently",
		"A: " + a + " (classic)",
		"reflector/list-watch",
		"calls only in A: DeltaFIFO.Add ×1",
		"calls only in B: RealFIFO.Add ×1",
		"informer/listener-run pods handler-1",
		"iterations   9  6  -3 ×0.67",
		"STARTUP STEPS: no difference",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the eras' diff lacks %q:\n%s", want, out)
		}
	}
	for i, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if w := ansi.StringWidth(line); w > 100 {
			t.Errorf("line %d is %d columns wide, more than --width 100: %q", i+1, w, line)
		}
	}
	// --all lists what does not differ too.
	all, _, _ := execute(t, "diff", a, a, "--a", "classic", "--b", "modern", "--all", "--width", "100")
	if !strings.Contains(all, "informer/run") || !strings.Contains(all, "first start") {
		t.Errorf("--all does not list the families that do not differ:\n%s", all)
	}

	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(bad, []byte("not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = execute(t, "diff", a, bad)
	var st exitStatus
	if statusOf(err) != 2 || !errors.As(err, &st) || !strings.Contains(err.Error(), "bad.jsonl") {
		t.Errorf("diff with an unreadable file: status %d, %v; want 2, naming the file", statusOf(err), err)
	}
	if _, _, err := execute(t, "diff", a, a, "--threshold", "-1"); statusOf(err) != 2 {
		t.Errorf("a negative threshold: status %d, %v; want 2", statusOf(err), err)
	}
}
