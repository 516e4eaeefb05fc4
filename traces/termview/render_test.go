package termview_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/termview"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// Regenerate with `go test ./traces/termview -update`; commit the new files
// only when you have read the diff and understand why it changed.
var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

var fixtures = map[string]func() []traces.Span{
	"basic":     basic,
	"truncated": truncated,
	"startup":   startup,
	"long":      long,
	"wide":      wide,
}

func render(t *testing.T, fixture string, opt termview.Options) string {
	t.Helper()
	var b bytes.Buffer
	if err := termview.Render(&b, timeline.Build(fixtures[fixture]()), opt); err != nil {
		t.Fatalf("Render: %v", err)
	}
	return b.String()
}

func TestGolden(t *testing.T) {
	tests := []struct {
		file    string
		fixture string
		opt     termview.Options
	}{
		{"basic.w80.txt", "basic", termview.Options{Width: 80}},
		{"basic.w100.txt", "basic", termview.Options{Width: 100}},
		{"basic.w40.txt", "basic", termview.Options{Width: 40}},
		{"basic.w80.ascii.txt", "basic", termview.Options{Width: 80, ASCII: true}},
		{"truncated.w80.txt", "truncated", termview.Options{Width: 80}},
		{"startup.w80.txt", "startup", termview.Options{Width: 80}},
		{"startup.w100.txt", "startup", termview.Options{Width: 100}},
		{"startup.w200.txt", "startup", termview.Options{Width: 200}},
		{"startup.window.w80.txt", "startup", termview.Options{Width: 80, From: 3 * time.Second, To: 6 * time.Second}},
		{"long.w80.txt", "long", termview.Options{Width: 80}},
		{"long.w200.txt", "long", termview.Options{Width: 200}},
		{"long.window.w100.txt", "long", termview.Options{Width: 100, From: 4 * time.Minute}},
		{"basic.w80.color.txt", "basic", termview.Options{Width: 80, Color: true}},
		{"truncated.w80.color.txt", "truncated", termview.Options{Width: 80, Color: true}},
		{"startup.filtered.w100.txt", "startup", termview.Options{Width: 100,
			Filter: timeline.Filter{Instances: []string{"kubelet"}, Goroutines: []string{"*gc", "pleg*", "main"}}}},
		{"long.filtered.window.w80.txt", "long", termview.Options{Width: 80, From: 2 * time.Minute, To: 6 * time.Minute,
			Filter: timeline.Filter{Instances: []string{"node-1?"}, Goroutines: []string{"kubelet/image-*"}}}},
		{"wide.w80.txt", "wide", termview.Options{Width: 80}},
		{"wide.w40.txt", "wide", termview.Options{Width: 40}},
		{"wide.w60.color.txt", "wide", termview.Options{Width: 60, Color: true}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			golden(t, tc.file, render(t, tc.fixture, tc.opt))
		})
	}
}

// golden compares got with testdata/file, or rewrites the file with -update.
func golden(t *testing.T, file, got string) {
	t.Helper()
	path := filepath.Join("testdata", file)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run `go test ./traces/termview -update` to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (-update rewrites it)\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

func TestLinesFitWidth(t *testing.T) {
	for name := range fixtures {
		for _, width := range []int{termview.MinWidth, 40, 80, 200} {
			for _, ascii := range []bool{false, true} {
				for _, win := range [][2]time.Duration{{0, 0}, {2 * time.Second, 0}, {time.Second, 7 * time.Second}} {
					out := render(t, name, termview.Options{Width: width, ASCII: ascii, From: win[0], To: win[1]})
					for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
						if n := ansi.StringWidth(line); n > width {
							t.Errorf("%s width %d ascii %v window %v: line %d is %d cells wide: %q", name, width, ascii, win, i+1, n, line)
						}
						if ascii && name != "wide" { // --ascii draws glyphs, not names, in ASCII
							for _, r := range line {
								if r > 127 {
									t.Errorf("%s width %d: non-ASCII %q in line %d: %q", name, width, r, i+1, line)
									break
								}
							}
						}
					}
				}
			}
		}
	}
}

func TestDeterministic(t *testing.T) {
	for name := range fixtures {
		first := render(t, name, termview.Options{Width: 120})
		for range 5 {
			if got := render(t, name, termview.Options{Width: 120}); got != first {
				t.Fatalf("%s: two renderings differ", name)
			}
		}
	}
}

func TestWindow(t *testing.T) {
	tests := []struct {
		name     string
		opt      termview.Options
		want     []string // substrings of the output
		dontWant []string
		err      string
	}{{
		name: "whole recording",
		opt:  termview.Options{Width: 100},
		want: []string{"30s simulated", "28 lanes", "┼0s", "pod-worker", "leader-acquire"},
	}, {
		name:     "lanes outside the window are left out",
		opt:      termview.Options{Width: 100, From: 5 * time.Second, To: 10 * time.Second},
		want:     []string{"26 of 28 lanes", "window 5s to 10s", "┼5s", "┼9s"},
		dontWant: []string{"leader-acquire", "pod-worker", "┼0s"},
	}, {
		name: "from alone runs to the end",
		opt:  termview.Options{Width: 100, From: 20 * time.Second},
		want: []string{"window 20s to 30s", "┼20s"},
	}, {
		name: "to beyond the end is allowed",
		opt:  termview.Options{Width: 100, To: time.Minute},
		want: []string{"window 0s to 1m"},
	}, {
		name: "from after the end",
		opt:  termview.Options{Width: 100, From: time.Minute},
		err:  "window starts at 1m but the recording ends at 30s",
	}, {
		name: "empty window",
		opt:  termview.Options{Width: 100, From: 10 * time.Second, To: 5 * time.Second},
		err:  "--to must be after --from",
	}, {
		name: "negative",
		opt:  termview.Options{Width: 100, From: -time.Second},
		err:  "cannot be negative",
	}, {
		name: "too narrow",
		opt:  termview.Options{Width: 20},
		err:  "too narrow",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			err := termview.Render(&b, timeline.Build(startup()), tc.opt)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.want {
				if !strings.Contains(b.String(), s) {
					t.Errorf("output lacks %q:\n%s", s, b.String())
				}
			}
			for _, s := range tc.dontWant {
				if strings.Contains(b.String(), s) {
					t.Errorf("output has %q:\n%s", s, b.String())
				}
			}
		})
	}
}

func TestEmptyAndNil(t *testing.T) {
	var b bytes.Buffer
	if err := termview.Render(&b, timeline.Build(nil), termview.Options{Width: 60}); err != nil {
		t.Fatal(err)
	}
	if want := "recording · 0s simulated · 0 instances · 0 lanes · 0 spans\nno spans to show: the recording is empty\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	if err := termview.Render(&b, nil, termview.Options{}); err == nil {
		t.Error("nil timeline: no error")
	}
}

func TestTerminalWidth(t *testing.T) {
	var b bytes.Buffer // not a terminal
	t.Setenv("COLUMNS", "123")
	if got := termview.TerminalWidth(&b); got != 123 {
		t.Errorf("with COLUMNS=123: %d", got)
	}
	t.Setenv("COLUMNS", "wide")
	if got := termview.TerminalWidth(&b); got != termview.DefaultWidth {
		t.Errorf("with COLUMNS=wide: %d", got)
	}
	// Width 0 takes the detected width.
	t.Setenv("COLUMNS", "45")
	if err := termview.Render(&b, timeline.Build(basic()), termview.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if ansi.StringWidth(line) > 45 {
			t.Errorf("line wider than $COLUMNS=45: %q", line)
		}
	}
}

var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestColorAddsOnlyEscapes: with colour, the output is the same text with
// escape sequences around parts of it, so widths and goldens hold.
func TestColorAddsOnlyEscapes(t *testing.T) {
	for name := range fixtures {
		for _, width := range []int{termview.MinWidth, 80, 200} {
			for _, ascii := range []bool{false, true} {
				opt := termview.Options{Width: width, ASCII: ascii}
				plain := render(t, name, opt)
				opt.Color = true
				colored := render(t, name, opt)
				if !strings.Contains(colored, "\x1b[") {
					t.Errorf("%s width %d: no colour", name, width)
				}
				if got := sgr.ReplaceAllString(colored, ""); got != plain {
					t.Errorf("%s width %d ascii %v: colour changed the text:\n%s\nwant:\n%s", name, width, ascii, got, plain)
				}
				opt.Color = false
				plainSum := summary(t, name, opt)
				opt.Color = true
				if got := sgr.ReplaceAllString(summary(t, name, opt), ""); got != plainSum {
					t.Errorf("%s: colour changed the summary:\n%s\nwant:\n%s", name, got, plainSum)
				}
			}
		}
	}
}
