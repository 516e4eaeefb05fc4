package main

import (
	"fmt"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// largeBuiltins are the built-ins whose recordings are too large to read
// back under the race detector (cluster-scale: 770,000 spans, 1.3 GB):
// TestSameRunEveryTime leaves them to `make docs-check-large`, which CI
// runs without -race.
var largeBuiltins = []string{"cluster-scale"}

// repeatRuns is how many times TestSameRunEveryTime runs each built-in.
const repeatRuns = 3

// TestSameRunEveryTime runs every built-in three times as a user runs it
// (the built binary, `kubeloom run NAME`, in virtual time) and compares the
// recordings goroutine family by goroutine family (timeline.FamilySpans:
// how many lanes, and the name of every span and span event with how many
// of each). On one core a run repeats: at most 2 % of a built-in's
// families may differ (none of the small ones'). A built-in that uses
// every core (cluster-scale) repeats only as well as the Go scheduler lets
// it, within the same 2 %. `kubeloom diff` of two runs reports no
// difference (issue 33): two of these, or for cluster-scale two runs with
// --cores 1.
func TestSameRunEveryTime(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every built-in three times")
	}
	bin := builtBinary(t)
	for _, b := range scenarios.Builtins() {
		t.Run(b.Name, func(t *testing.T) {
			if raceDetector && slices.Contains(largeBuiltins, b.Name) {
				t.Skip("too large to read back under the race detector: `make docs-check-large` runs it without")
			}
			var runs []map[string]string
			var recs []string
			for i := range repeatRuns {
				rec := filepath.Join(t.TempDir(), fmt.Sprintf("%s-%d.jsonl", b.Name, i+1))
				if r := runProcess(t, bin, "", "run", b.Name, "-q", "--out", rec); r.exitErr != nil {
					t.Fatalf("run %d: %v\n%s", i+1, r.exitErr, r.stderr)
				}
				recs = append(recs, rec)
				spans, err := traces.ReadFile(rec)
				if err != nil {
					t.Fatal(err)
				}
				runs = append(runs, timeline.FamilySpans(timeline.Build(spans)))
			}
			differ := map[string][]string{}
			for i := 1; i < len(runs); i++ {
				for _, d := range timeline.DiffFamilySpans(runs[0], runs[i]) {
					differ[d.Family] = append(differ[d.Family], fmt.Sprintf("run 1: %s\n      run %d: %s", d.A, i+1, d.B))
				}
			}
			allowed := len(runs[0]) * 2 / 100
			t.Logf("%d of %d goroutine families differ across %d runs (allowed: %d)", len(differ), len(runs[0]), repeatRuns, allowed)
			if len(differ) > allowed {
				var lines []string
				for _, f := range slices.Sorted(maps.Keys(differ)) {
					lines = append(lines, "  "+f+"\n      "+strings.Join(differ[f], "\n      "))
				}
				t.Errorf("%d of %d goroutine families differ across %d runs, more than %d:\n%s", len(differ), len(runs[0]), repeatRuns, allowed, strings.Join(lines, "\n"))
			}
			// What a user sees of it: `kubeloom diff` of two runs finds no
			// difference, and says so with exit status 0. A run on every
			// core repeats only as the scheduler lets it, which diff shows
			// (and says why): two runs in turns on one core must agree.
			if slices.Contains(largeBuiltins, b.Name) {
				recs = nil
				for i := range 2 {
					rec := filepath.Join(t.TempDir(), fmt.Sprintf("%s-one-core-%d.jsonl", b.Name, i+1))
					if r := runProcess(t, bin, "", "run", b.Name, "-q", "--cores", "1", "--out", rec); r.exitErr != nil {
						t.Fatalf("run on one core: %v\n%s", r.exitErr, r.stderr)
					}
					recs = append(recs, rec)
				}
			}
			out, err := exec.Command(bin, "diff", recs[0], recs[1], "--width", "120").Output()
			if err != nil || !strings.HasPrefix(string(out), "no difference\n") {
				t.Errorf("kubeloom diff of two runs: %v\n%s", err, out)
			}
		})
	}
}
