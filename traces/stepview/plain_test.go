package stepview_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces/stepview"
	"github.com/kubeloom/kubeloom/traces/timeline"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// Regenerate with `go test ./traces/stepview -update`; commit the new files
// only when you understand why the output changed.
var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func TestPlainGolden(t *testing.T) {
	tl := timeline.Build(lesson())
	for _, tc := range []struct {
		file     string
		lang     string
		from, to time.Duration
	}{
		{"lesson.en.txt", "en", 0, 0},
		{"lesson.zh.txt", "zh", 0, 0},
		{"lesson.window.en.txt", "en", 10 * time.Second, 11 * time.Second},
	} {
		t.Run(tc.file, func(t *testing.T) {
			var b bytes.Buffer
			if err := stepview.Plain(&b, tl, tc.lang, tc.from, tc.to); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", tc.file)
			if *update {
				if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run `go test ./traces/stepview -update` to create it)", err)
			}
			if got := b.String(); got != string(want) {
				t.Errorf("output differs from %s (-update rewrites it)\ngot:\n%s", path, got)
			}
		})
	}
}

var blockHeader = regexp.MustCompile(`^── step (\d+) of (\d+) · \+(\S+) · (.+) ──$`)

// TestPlainShape checks the layout every block has, whatever the steps.
func TestPlainShape(t *testing.T) {
	tl := timeline.Build(lesson())
	steps := timeline.Steps(tl)
	var b bytes.Buffer
	if err := stepview.Plain(&b, tl, "en", 0, 0); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.HasPrefix(out, "kubeloom step · lesson · ") || !strings.HasSuffix(out, "\n") || strings.HasSuffix(out, "\n\n") {
		t.Errorf("output does not start with its title or end with one newline:\n%s", out)
	}
	blocks := strings.Split(strings.TrimSuffix(out, "\n"), "\n\n")[1:]
	if len(blocks) != len(steps) {
		t.Fatalf("%d blocks for %d steps", len(blocks), len(steps))
	}
	for i, block := range blocks {
		ls := strings.Split(block, "\n")
		m := blockHeader.FindStringSubmatch(ls[0])
		if m == nil {
			t.Fatalf("block %d starts with %q", i+1, ls[0])
		}
		s := steps[i]
		// Where: the instance, then the lane inside its group (a lane alone
		// in its component by its label).
		want := s.Instance.Name() + " · " + s.Lane.Label
		if c := s.Lane.Component(); len(c.Lanes) > 1 {
			want = s.Instance.Name() + " · " + c.Name + " › "
			if s.Lane.Group != c {
				want += s.Lane.Group.Name + " › "
			}
			want += s.Lane.Short
		}
		if m[4] != want {
			t.Errorf("block %d is on %q, want %q", i+1, m[4], want)
		}
		if d, err := time.ParseDuration(m[3]); err != nil || d != s.At.Sub(tt.Origin) {
			t.Errorf("block %d is at %q, want %s", i+1, m[3], s.At.Sub(tt.Origin))
		}
		if !strings.HasSuffix(ls[1], " · "+s.Name()) && !strings.Contains(ls[1], " · "+s.Name()+" #") {
			t.Errorf("block %d: %q does not name the step %q", i+1, ls[1], s.Name())
		}
		if !strings.Contains(block, "\nWhat it does\n  ") {
			t.Errorf("block %d has no narrative:\n%s", i+1, block)
		}
		if s.HasEntry && !strings.Contains(block, "\n  "+s.Entry.Story("en").Summary+"\n") {
			t.Errorf("block %d lacks the catalog's summary of %s", i+1, s.Lane.Goroutine)
		}
	}
}

func TestPlainErrors(t *testing.T) {
	tl := timeline.Build(lesson())
	for _, tc := range []struct {
		lang     string
		from, to time.Duration
		want     string
	}{
		{"de", 0, 0, `unknown language "de"`},
		{"en", -time.Second, 0, "cannot be negative"},
		{"en", 5 * time.Minute, 0, "no step between 5m0s and 0s"},
		{"en", 20 * time.Second, 11 * time.Second, "--to must be after --from"},
	} {
		if err := stepview.Plain(&bytes.Buffer{}, tl, tc.lang, tc.from, tc.to); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Plain(%q, %s, %s): %v, want %q", tc.lang, tc.from, tc.to, err, tc.want)
		}
	}
}

func ExamplePlain() {
	r := tt.New("example").Instance("kubelet", "node-1")
	run := r.Span(tt.Root, "run", 0, 120)
	gc := r.Goroutine(run, "kubelet/container-gc", catalog.KindUntil, 0, 120, catalog.AttrGoroutinePeriod, 60.0)
	r.Loop(gc, "kubelet/container-gc", "Containers/GarbageCollect", 60, 120, 60, 0.5)

	// The first step: the goroutine starts.
	var b bytes.Buffer
	stepview.Plain(&b, timeline.Build(r.Spans()), "en", 0, 59*time.Second)
	block := strings.Split(b.String(), "\n\n")[1]
	for _, l := range strings.Split(block, "\n")[:4] {
		os.Stdout.WriteString(l + "\n")
	}
	// Output:
	// ── step 1 of 4 · +0s · kubelet node-1 · kubelet/container-gc ──
	// goroutine started · kubelet/container-gc
	//   until every 1m0s
	//   goroutines so far: 1 running, 0 stopped
}
