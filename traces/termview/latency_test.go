package termview_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubeloom/kubeloom/traces/podstartup"
	"github.com/kubeloom/kubeloom/traces/termview"
	"github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

func latency(t *testing.T, opt termview.LatencyOptions) string {
	t.Helper()
	var c podstartup.Collector
	c.Spans(timelinetest.PodStarts())
	var b bytes.Buffer
	if err := termview.Latency(&b, c.Report(), opt); err != nil {
		t.Fatalf("Latency: %v", err)
	}
	return b.String()
}

// The table of timelinetest.PodStarts, whose figures podstartup's tests
// check: its shape in both languages, and in ASCII.
func TestLatencyGolden(t *testing.T) {
	for _, tc := range []struct {
		file string
		opt  termview.LatencyOptions
	}{
		{"latency.txt", termview.LatencyOptions{Width: 100}},
		{"latency.zh.txt", termview.LatencyOptions{Width: 100, Lang: "zh"}},
		{"latency.ascii.w40.txt", termview.LatencyOptions{Width: 40, ASCII: true}},
	} {
		t.Run(tc.file, func(t *testing.T) { golden(t, tc.file, latency(t, tc.opt)) })
	}
}

func TestLatencyFitsTheWidth(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		for _, width := range []int{termview.MinWidth, 40, 60, 100} {
			out := latency(t, termview.LatencyOptions{Width: width, Lang: lang})
			for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				if n := ansi.StringWidth(line); n > width {
					t.Errorf("%s, width %d: line %d is %d cells: %q", lang, width, i+1, n, line)
				}
			}
		}
	}
}

func TestLatencyOfNoPods(t *testing.T) {
	var b bytes.Buffer
	if err := termview.Latency(&b, (&podstartup.Collector{}).Report(), termview.LatencyOptions{Width: 80}); err != nil {
		t.Fatal(err)
	}
	if want := "pod startup of 0 pods: percentiles by nearest rank\nno pod starts in this recording\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
