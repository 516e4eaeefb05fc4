package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"

	"github.com/kubeloom/kubeloom/internal/memnet"
	"github.com/kubeloom/kubeloom/scenarios"
)

// largeBuiltins are the built-ins too large to run under the race
// detector: cluster-scale's run in virtual time takes about 40 s of CPU
// and 1.4 GB without it, ten times that with it. `make test` (-race) skips
// their goldens, as it skips their figures in docs/ (largeBuiltins in
// docs/figures_scale_test.go); `make docs-check-large`, which CI runs
// after it, checks both without -race, and so does `go test ./...`.
var largeBuiltins = []string{"cluster-scale"}

// TestRunSummaryGolden runs every built-in as `kubeloom run NAME --out
// recordings/NAME.jsonl -q` would, in a synctest bubble, and compares what
// run tells the user at the end — the simulated time, the actions, each
// instance's goroutines started and stopped by family, how it exited, the
// leftovers, the failed actions, where the recording is and how to replay
// it — with testdata/NAME.summary.golden.
//
// -update rewrites the goldens: commit them only when you understand the
// change (docs/design.md, "Tests").
func TestRunSummaryGolden(t *testing.T) {
	builtins := scenarios.Builtins()
	for _, b := range builtins {
		t.Run(b.Name, func(t *testing.T) {
			if slices.Contains(largeBuiltins, b.Name) {
				if raceDetector {
					t.Skip("too large for the race detector: `make docs-check-large` checks it without")
				}
				if testing.Short() {
					t.Skip("a large built-in: -short leaves it out")
				}
			}
			// Absolute: runSummary runs in a folder of its own.
			golden, err := filepath.Abs(filepath.Join("testdata", b.Name+".summary.golden"))
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, golden, runSummary(t, b.Name))
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

// runSummary runs a built-in through `kubeloom run` in a fresh folder and
// returns the summary it prints at the end, normalised.
func runSummary(t *testing.T, name string) string {
	t.Chdir(t.TempDir())
	out := filepath.Join("recordings", name+".jsonl")
	var stderr bytes.Buffer
	synctest.Test(t, func(t *testing.T) {
		n := memnet.New()
		d := deps{
			streams: streams{in: strings.NewReader(""), out: io.Discard, err: &stderr},
			network: network{listen: n.Listen, dial: n.Dial},
			otlpEnv: func() string { return "" }, // whatever the environment says
		}
		cmd := newRunCmd(d, nil)
		cmd.SetArgs([]string{name, "--out", out, "-q"})
		cmd.SilenceUsage = true
		if err := cmd.ExecuteContext(context.Background()); err != nil {
			t.Fatalf("kubeloom run %s: %v\n%s", name, err, stderr.String())
		}
	})
	sum, spans, err := normaliseSummary(stderr.String(), name)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	// The span count is left out of the golden (see normaliseSummary),
	// but what it says must be the recording's: one span a line.
	if lines := countLines(t, out); lines != spans {
		t.Errorf("the summary says %d spans, the recording has %d", spans, lines)
	}
	return sum
}

// summaryHead is the summary's first line: "finished NAME: 30s simulated
// in 3s real, 4 actions, 87 spans".
var summaryHead = regexp.MustCompile(`(?m)^finished (\S+): (\S+) simulated in (\S+) real, (\d+) actions, (\d+) spans$`)

// normaliseSummary cuts what run printed down to the summary (from its
// "finished" line on: the lines before, servers and their ports, come in
// the order the goroutines ran) and replaces in its first line what a run
// does not repeat with placeholders:
//
//   - the real time the run took: the machine's, in a bubble the virtual
//     time the grace period took;
//   - the number of spans: how often controllers sync and write status
//     depends on which goroutine the scheduler runs first (docs/design.md,
//     "Determinism"); cm-startup records 3,980 to 4,004.
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
	spans, err = strconv.Atoi(head[5])
	if err != nil {
		return "", 0, err
	}
	first := fmt.Sprintf("finished %s: %s simulated in <real> real, %s actions, <spans> spans", head[1], head[2], head[4])
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
