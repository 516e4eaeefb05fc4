package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// TestSameSeedSameRun runs cluster-basics twice in real time, as a user
// would (its servers on real loopback ports), and compares the shapes of
// the two recordings: the same goroutines, and the same objects under the
// same generated names and UIDs. Speed 20 holds on a loaded 2-core machine
// with the race detector; the shape leaves out what real-time scheduling
// decides (times, counts, which goroutine did which piece of work).
func TestSameSeedSameRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a scenario twice in real time (9 s)")
	}
	var shapes [][]string
	var outputs []string
	for i := range 2 {
		file := filepath.Join(t.TempDir(), "run.jsonl")
		_, stderr, err := execute(t, "run", "cluster-basics", "--duration", "90s", "--speed", "20", "--out", file, "-q")
		if err != nil || strings.Contains(stderr, "exited:") {
			t.Fatalf("run %d: %v\n%s", i+1, err, stderr)
		}
		outputs = append(outputs, stderr)
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		spans, err := traces.Read(f, file)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		shapes = append(shapes, timeline.Shape(timeline.Build(spans)))
	}
	a, b := shapes[0], shapes[1]
	defer func() {
		if t.Failed() {
			t.Logf("the first run said:\n%s\nthe second:\n%s", outputs[0], outputs[1])
		}
	}()
	for _, l := range a {
		if !slices.Contains(b, l) {
			t.Errorf("only in the first run: %s", l)
		}
	}
	for _, l := range b {
		if !slices.Contains(a, l) {
			t.Errorf("only in the second run: %s", l)
		}
	}
	// The ReplicaSet's pods have generated names (web-<hash>-<5 letters>)
	// and every pod a UID: they are in the shape, so they were the same.
	generated := regexp.MustCompile(`k8s\.object\.key=default/web-\d+-[a-z0-9]{5}$`)
	var pods, uids int
	for _, l := range a {
		if generated.MatchString(l) && strings.HasPrefix(l, "kube-controller-manager") {
			pods++
		}
		if strings.Contains(l, "k8s.pod.uid=") {
			uids++
		}
	}
	if pods != 4 || uids == 0 {
		t.Errorf("the shape names %d generated pods of web (want 4) and %d pod UIDs:\n%s", pods, uids, strings.Join(a, "\n"))
	}
}
