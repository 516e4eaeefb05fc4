package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubeloom/kubeloom/scenarios"
)

// TestRunSummaryGolden runs every built-in as a user does, `kubeloom run
// NAME --out recordings/NAME.jsonl -q` with the built binary (in virtual
// time, in a process of its own), and compares what run tells the user at
// the end — the simulated time, the actions, each instance's goroutines
// started and stopped by family, how it exited, the leftovers, the failed
// actions, where the recording is and how to replay it — with
// testdata/NAME.summary.golden.
//
// -update rewrites the goldens: commit them only when you understand the
// change (docs/design.md, "Tests").
func TestRunSummaryGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs every built-in")
	}
	bin := builtBinary(t)
	builtins := scenarios.Builtins()
	for _, b := range builtins {
		t.Run(b.Name, func(t *testing.T) {
			// Absolute: runSummary runs in a folder of its own.
			golden, err := filepath.Abs(filepath.Join("testdata", b.Name+".summary.golden"))
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, golden, runSummary(t, bin, b.Name))
		})
	}
	goldens, err := filepath.Glob(filepath.Join("testdata", "*.summary.golden"))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range goldens {
		name := strings.TrimSuffix(filepath.Base(g), ".summary.golden")
		if !slices.ContainsFunc(builtins, func(b scenarios.Summary) bool { return b.Name == name }) {
			t.Errorf("%s is the golden of no built-in: remove it", g)
		}
	}
}

// runSummary runs a built-in with bin, called as "kubeloom", in a fresh
// folder and returns the summary it prints at the end, normalised.
func runSummary(t *testing.T, bin, name string) string {
	dir := t.TempDir()
	out := filepath.Join("recordings", name+".jsonl")
	cmd := exec.Command(bin, "run", name, "--out", out, "-q")
	cmd.Args[0] = "kubeloom" // as the user typed it, for the commands it prints
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "OTEL_EXPORTER_OTLP_ENDPOINT=", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=") // whatever the environment says
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("kubeloom run %s: %v\n%s", name, err, stderr.String())
	}
	sum, spans, err := normaliseSummary(stderr.String(), name)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	// The span count is left out of the golden (see normaliseSummary),
	// but what it says must be the recording's: one span a line.
	if lines := countLines(t, filepath.Join(dir, out)); lines != spans {
		t.Errorf("the summary says %d spans, the recording has %d", spans, lines)
	}
	return sum
}

// summaryHead is the summary's first line: "finished NAME: 30s simulated
// in 21ms real (virtual time, ×1,428), 4 actions, 87 spans".
var summaryHead = regexp.MustCompile(`(?m)^finished (\S+): (\S+) simulated in (\S+) real \((virtual time|live at speed \S+), ×[\d,.]+\), (\d+) actions, (\d+) spans$`)

// normaliseSummary cuts what run printed down to the summary (from its
// "finished" line on) and replaces in its first line what a run does not
// repeat with placeholders:
//
//   - the real time the run took, and so the speed it reached: the
//     machine's;
//   - the number of spans: on one core a run repeats, but a run of a
//     large built-in uses every core, where how often controllers sync and
//     write status depends on which goroutine the scheduler runs first
//     (docs/design.md, "Determinism"). TestSameRunEveryTime compares runs
//     span name by span name.
//
// Everything else — the goroutines each instance started and stopped,
// their exits, the leftovers and the failed actions — is the same in every
// run, and the paths are the test's own (recordings/NAME.jsonl).
func normaliseSummary(stderr, name string) (sum string, spans int, err error) {
	loc := summaryHead.FindStringSubmatchIndex(stderr)
	if loc == nil {
		return "", 0, fmt.Errorf("no summary (a line %q) in what run printed", "finished "+name+": … spans")
	}
	head := summaryHead.FindStringSubmatch(stderr[loc[0]:loc[1]])
	if head[1] != name {
		return "", 0, fmt.Errorf("the summary is of %s, not %s", head[1], name)
	}
	spans, err = strconv.Atoi(head[6])
	if err != nil {
		return "", 0, err
	}
	first := fmt.Sprintf("finished %s: %s simulated in <real> real (%s, ×<speed>), %s actions, <spans> spans", head[1], head[2], head[4], head[5])
	return first + stderr[loc[1]:], spans, nil
}

// countLines counts the lines of a file.
func countLines(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	buf := make([]byte, 1<<20)
	for {
		k, err := f.Read(buf)
		n += bytes.Count(buf[:k], []byte{'\n'})
		if err == io.EOF {
			return n
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// checkGolden compares got with the golden file at path (absolute), or
// with -update writes it.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	name := filepath.Join("testdata", filepath.Base(path)) // for messages
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", name)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no golden summary: %v; write it with `go test ./cmd/kubeloom -run '%s' -update`", err, t.Name())
	}
	// Line by line: a summary is read by its lines.
	if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(got, "\n")); diff != "" {
		t.Errorf("%s differs from the run (-want +got):\n%s\n"+
			"If the change is meant, rewrite it with `go test ./cmd/kubeloom -run '%s' -update` "+
			"and commit it only when you understand the change.", name, diff, t.Name())
	}
}
