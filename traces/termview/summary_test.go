package termview_test

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/traces/termview"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

func summary(t *testing.T, fixture string, opt termview.Options) string {
	t.Helper()
	var b bytes.Buffer
	if err := termview.Summary(&b, timeline.Build(fixtures[fixture]()), opt); err != nil {
		t.Fatalf("Summary: %v", err)
	}
	return b.String()
}

func TestSummaryGolden(t *testing.T) {
	tests := []struct {
		file    string
		fixture string
		opt     termview.Options
	}{
		{"summary.basic.txt", "basic", termview.Options{Width: 100}},
		{"summary.truncated.txt", "truncated", termview.Options{Width: 100}},
		{"summary.startup.txt", "startup", termview.Options{Width: 100}},
		{"summary.startup.color.txt", "startup", termview.Options{Width: 100, Color: true}},
		{"summary.long.window.txt", "long", termview.Options{Width: 80, From: 4 * time.Minute, To: 6 * time.Minute}},
		{"summary.long.filtered.txt", "long", termview.Options{Width: 80,
			Filter: timeline.Filter{Instances: []string{"kubelet node-2"}, Goroutines: []string{"*gc", "pleg-relist"}}}},
		{"summary.wide.txt", "wide", termview.Options{Width: 100}},
		{"summary.wide.color.txt", "wide", termview.Options{Width: 100, Color: true}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			golden(t, tc.file, summary(t, tc.fixture, tc.opt))
		})
	}
}

// TestSummarize checks the counts: iterations include the ones the
// recorder sampled out, spans count the lifetime, iterations and calls.
func TestSummarize(t *testing.T) {
	tl := timeline.Build(long())
	tests := []struct {
		name                string
		opt                 termview.Options
		instance, lane      string
		iterations, skipped int64
		spans               int
	}{
		// 0.2s to 600s every second: 600 iterations, of which the
		// recorder kept 1-3 and every tenth (63), and the lifetime span.
		{"sampled loop", termview.Options{}, "kubelet node-10", "kubelet/pleg-relist", 600, 537, 64},
		{"slow loop", termview.Options{}, "kubelet node-10", "kubelet/image-gc", 2, 0, 3},
		{"stopped node", termview.Options{}, "kubelet node-2", "kubelet/container-gc", 3, 0, 4},
		// In a window: only what starts inside it.
		{"window", termview.Options{From: 4 * time.Minute, To: 6 * time.Minute}, "kubelet node-10", "kubelet/pleg-relist", 120, 108, 12},
		{"window, slow", termview.Options{From: 4 * time.Minute, To: 6 * time.Minute}, "kubelet node-10", "kubelet/image-gc", 1, 0, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := termview.Summarize(tl, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rows {
				if r.Instance.Name() == tc.instance && r.Lane.Label == tc.lane {
					if r.Iterations != tc.iterations || r.Skipped != tc.skipped || r.Spans != tc.spans {
						t.Errorf("iterations %d, skipped %d, spans %d; want %d, %d, %d", r.Iterations, r.Skipped, r.Spans, tc.iterations, tc.skipped, tc.spans)
					}
					return
				}
			}
			t.Fatalf("no row for %s %s", tc.instance, tc.lane)
		})
	}
}

// TestFilter: which lanes --instance and --goroutine keep.
func TestFilter(t *testing.T) {
	tl := timeline.Build(startup())
	tests := []struct {
		name   string
		filter timeline.Filter
		want   []string // "instance/label" of the lanes kept
		err    string
	}{{
		name:   "instance by ID",
		filter: timeline.Filter{Instances: []string{"node-1"}, Goroutines: []string{"kubelet/n*"}},
		want:   []string{"kubelet node-1/kubelet/network-status", "kubelet node-1/kubelet/node-status"},
	}, {
		name:   "instance by service id, and a glob without a component",
		filter: timeline.Filter{Instances: []string{"kube-controller-manager cm-0"}, Goroutines: []string{"leader-*"}},
		want:   []string{"kube-controller-manager cm-0/cm/leader-acquire", "kube-controller-manager cm-0/cm/leader-renew"},
	}, {
		name:   "instance by service",
		filter: timeline.Filter{Instances: []string{"kubelet"}, Goroutines: []string{"main"}},
		want:   []string{"kubelet node-1/main"},
	}, {
		name:   "goroutines in every instance, several patterns",
		filter: timeline.Filter{Goroutines: []string{"*log-flush", "kubelet/pod-worker"}},
		want:   []string{"kube-controller-manager cm-0/cm/log-flush", "kubelet node-1/kubelet/log-flush", "kubelet node-1/kubelet/pod-worker"},
	}, {
		name:   "a label with qualifiers",
		filter: timeline.Filter{Goroutines: []string{"informer/run pods"}},
		want:   []string{"kube-controller-manager cm-0/informer/run pods"},
	}, {
		name:   "a glob over labels with qualifiers",
		filter: timeline.Filter{Goroutines: []string{"reflector/list-watch *"}},
		want:   []string{"kube-controller-manager cm-0/reflector/list-watch nodes", "kube-controller-manager cm-0/reflector/list-watch pods"},
	}, {
		name:   "several instances",
		filter: timeline.Filter{Instances: []string{"cm-0", "node-1"}, Goroutines: []string{"*/log-flush"}},
		want:   []string{"kube-controller-manager cm-0/cm/log-flush", "kubelet node-1/kubelet/log-flush"},
	}, {
		name:   "no instance",
		filter: timeline.Filter{Instances: []string{"node-2"}},
		err:    `no instance matches --instance node-2: the recording has kube-controller-manager cm-0, kubelet node-1`,
	}, {
		name:   "no lane",
		filter: timeline.Filter{Instances: []string{"node-1"}, Goroutines: []string{"cm/*"}},
		err:    "no goroutine lane matches --goroutine cm/*",
	}, {
		name:   "bad pattern",
		filter: timeline.Filter{Goroutines: []string{"kubelet/[pleg"}},
		err:    `--goroutine "kubelet/[pleg": syntax error in pattern`,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := termview.Summarize(tl, termview.Options{Filter: tc.filter})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error = %v, want %q", err, tc.err)
				}
				// Render refuses it the same way.
				if err := termview.Render(&bytes.Buffer{}, tl, termview.Options{Width: 80, Filter: tc.filter}); err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("Render error = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range rows {
				got = append(got, r.Instance.Name()+"/"+r.Lane.Label)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("kept\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
			// The timeline shows the same lanes, and says how many of all.
			var b bytes.Buffer
			if err := termview.Render(&b, tl, termview.Options{Width: 120, Filter: tc.filter}); err != nil {
				t.Fatal(err)
			}
			if want := len(tc.want); !strings.Contains(b.String(), " "+strconv.Itoa(want)+" of 28 lanes") {
				t.Errorf("timeline title does not say %d of 28 lanes:\n%s", want, b.String())
			}
		})
	}
}

// The summary of an outline (a timeline without its marks, from its lanes'
// tallies) is the summary of the timeline, for every fixture, with or
// without a filter; a window, which needs the marks, is refused, and so is
// drawing an outline.
func TestSummaryOfOutline(t *testing.T) {
	for name, spans := range fixtures {
		for _, opt := range []termview.Options{
			{Width: 100},
			{Width: 100, Filter: timeline.Filter{Goroutines: []string{"*gc", "pleg-relist", "informer/*"}}},
		} {
			var want, got bytes.Buffer
			errWant := termview.Summary(&want, timeline.Build(spans()), opt)
			errGot := termview.Summary(&got, timeline.Outline(spans()), opt)
			if (errWant == nil) != (errGot == nil) || got.String() != want.String() {
				t.Errorf("%s %+v: outline's summary (%v):\n%s\nwant (%v):\n%s", name, opt.Filter, errGot, got.String(), errWant, want.String())
			}
		}
		outline := timeline.Outline(spans())
		if err := termview.Summary(io.Discard, outline, termview.Options{Width: 100, From: time.Second}); err == nil {
			t.Errorf("%s: summary of an outline in a window: no error", name)
		}
		if err := termview.Render(io.Discard, outline, termview.Options{Width: 100}); err == nil {
			t.Errorf("%s: rendering an outline: no error", name)
		}
	}
}
