package docs

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// docRuns are the runs the docs' figures come from: each built-in (and
// each other seed, era, duration a figure asks for) run once as a user
// runs it, `bin/kubeloom run NAME --out recordings/NAME.jsonl`, with this
// tree's binary: in virtual time, the run a reader's own command repeats.
type docRuns struct {
	t    *testing.T
	root string // the repository
	dir  string // recordings/<scenario>.jsonl, and bin/kubeloom

	mu   sync.Mutex
	runs map[string]*docRun
}

// docRun is one recorded run.
type docRun struct {
	name    string
	seed    int64
	sum     runSummary // what the run printed at its end
	spans   []traces.Span
	tl      *timeline.Timeline
	steps   []timeline.Step
	file    string // the recording, relative to docRuns.dir
	started time.Time
}

func newDocRuns(t *testing.T, root string) *docRuns {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(kubeloomBinary(t, root), filepath.Join(dir, "bin", "kubeloom")); err != nil {
		t.Fatal(err)
	}
	return &docRuns{t: t, root: root, dir: dir, runs: map[string]*docRun{}}
}

// of returns the run of a built-in with its own seed.
func (d *docRuns) of(name string) *docRun { return d.seeded(name, 0) }

// seeded returns the run of a built-in with another seed (0: its own).
func (d *docRuns) seeded(name string, seed int64) *docRun {
	d.t.Helper()
	variant, args := "", []string(nil)
	if seed != 0 {
		variant, args = fmt.Sprintf("seed-%d", seed), []string{"--seed", fmt.Sprint(seed)}
	}
	r := d.variant(name, variant, args...)
	r.seed = seed
	return r
}

// variant returns the run of a built-in with more flags of `run` (another
// seed, era, duration, every iteration recorded), recorded once per name
// and variant ("" is the built-in as it is) in
// recordings/NAME[-VARIANT].jsonl.
func (d *docRuns) variant(name, variant string, flags ...string) *docRun {
	d.t.Helper()
	key := name + "@" + variant
	d.mu.Lock()
	defer d.mu.Unlock()
	if r, ok := d.runs[key]; ok {
		return r
	}
	base := name
	if variant != "" {
		base += "-" + variant
	}
	file := filepath.Join("recordings", base+".jsonl")
	cmd := exec.Command(filepath.Join(d.dir, "bin", "kubeloom"), append([]string{"run", name, "--out", file, "-q"}, flags...)...)
	cmd.Dir = d.dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		d.t.Fatalf("bin/kubeloom run %s %s: %v\n%s", name, strings.Join(flags, " "), err, stderr.String())
	}
	sum, err := parseRunSummary(stderr.String())
	if err != nil {
		d.t.Fatalf("bin/kubeloom run %s %s: %v", name, strings.Join(flags, " "), err)
	}
	spans, err := traces.ReadFile(filepath.Join(d.dir, file))
	if err != nil {
		d.t.Fatal(err)
	}
	tl := timeline.Build(spans)
	r := &docRun{name: name, sum: sum, spans: spans, tl: tl, steps: timeline.Steps(tl), file: file, started: tl.Start}
	d.runs[key] = r
	return r
}

// output runs a command of the docs (bin/kubeloom …) where the recordings
// of the runs are, recordings/<scenario>.jsonl, and returns its stdout.
func (d *docRuns) output(scenario, command string) (string, error) {
	d.of(scenario) // recorded before the command reads it
	cmd := exec.Command("bash", "-e", "-o", "pipefail", "-c", command)
	cmd.Dir = d.dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "COLUMNS=100")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%v\n%s", err, errOut.String())
	}
	return strings.TrimRight(out.String(), "\n"), nil
}

var (
	binaryOnce sync.Once
	binaryDir  string // removed by TestMain
	binaryPath string
	binaryErr  error
)

// kubeloomBinary builds this tree's kubeloom once for the package's tests.
func kubeloomBinary(t *testing.T, root string) string {
	t.Helper()
	binaryOnce.Do(func() {
		binaryDir, binaryErr = os.MkdirTemp("", "kubeloom-docs-")
		if binaryErr != nil {
			return
		}
		binaryPath = filepath.Join(binaryDir, "kubeloom")
		build := exec.Command("go", "build", "-o", binaryPath, "./cmd/kubeloom")
		build.Dir = root
		if out, err := build.CombinedOutput(); err != nil {
			binaryErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binaryErr != nil {
		t.Fatal(binaryErr)
	}
	return binaryPath
}

// Questions a figure asks of a run.

// at is how far into the run t is.
func (r *docRun) at(t time.Time) time.Duration { return t.Sub(r.started) }

// instance finds an instance by its ID ("cm-0", "node-1", "informers",
// "scenario"; with eras "classic/cm-0").
func (r *docRun) instance(id string) (*timeline.Instance, error) {
	for _, in := range r.tl.Instances {
		if in.ID == id {
			return in, nil
		}
	}
	return nil, fmt.Errorf("%s has no instance %s", r.name, id)
}

// lane finds a lane of an instance by its label.
func (r *docRun) lane(instance, label string) (*timeline.Lane, error) {
	in, err := r.instance(instance)
	if err != nil {
		return nil, err
	}
	if l := in.Lane(label); l != nil {
		return l, nil
	}
	var labels []string
	for _, l := range in.Lanes {
		labels = append(labels, l.Label)
	}
	return nil, fmt.Errorf("%s %s has no lane %q; it has %s", r.name, instance, label, strings.Join(labels, ", "))
}

// lanes returns the lanes of an instance ("" for all) running a goroutine.
func (r *docRun) lanes(instance, goroutine string) []*timeline.Lane {
	var out []*timeline.Lane
	for _, in := range r.tl.Instances {
		if instance != "" && in.ID != instance {
			continue
		}
		for _, l := range in.Lanes {
			if l.Goroutine == goroutine {
				out = append(out, l)
			}
		}
	}
	return out
}

// marks returns a lane's iterations, calls or events named name.
func marks(ms []timeline.Mark, name string) []timeline.Mark {
	var out []timeline.Mark
	for _, m := range ms {
		if m.Name == name {
			out = append(out, m)
		}
	}
	return out
}

// firstMark is the first of marks named name, or an error saying so.
func (r *docRun) firstMark(l *timeline.Lane, ms []timeline.Mark, name string) (timeline.Mark, error) {
	if found := marks(ms, name); len(found) > 0 {
		return found[0], nil
	}
	return timeline.Mark{}, fmt.Errorf("%s: lane %s has no %q", r.name, l.Label, name)
}

// spansNamed are the spans of an instance ("" for all) named name.
func (r *docRun) spansNamed(instance, name string) []traces.Span {
	var out []traces.Span
	for _, s := range r.spans {
		if s.Name == name && (instance == "" || s.Resource.String("service.instance.id") == instance) {
			out = append(out, s)
		}
	}
	return out
}

// events are the span events named name on spans of an instance ("" for
// all), in time order.
func (r *docRun) events(instance, name string) []traces.Event {
	var out []traces.Event
	for _, s := range r.spans {
		if instance != "" && s.Resource.String("service.instance.id") != instance {
			continue
		}
		for _, e := range s.Events {
			if e.Name == name {
				out = append(out, e)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b traces.Event) int { return a.Time.Compare(b.Time) })
	return out
}
