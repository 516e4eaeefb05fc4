package timeline_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubeloom/kubeloom/traces/timeline"
)

func TestFitKeepsWhatDiffers(t *testing.T) {
	pods := []string{
		"pod-worker default/web-2078879897-pts6f",
		"pod-worker default/web-2078879897-9hv5z",
		"pod-worker default/web-2078879897-rtz5t",
	}
	listeners := []string{
		"informer/listener-run replicaset-controller",
		"informer/listener-pop replicaset-controller",
		"informer/listener-run deployment-controller",
	}
	for _, c := range []struct {
		label string
		group []string
		width int
		want  string
	}{
		{"worker 1", nil, 20, "worker 1"},
		{pods[0], pods, 18, "pod-worker …pts6f"},
		{pods[1], pods, 12, "…9hv5z"},
		{listeners[0], listeners, 24, "listener-run replicaset…"},
		{listeners[1], listeners, 24, "listener-pop replicaset…"},
		{"a-very-long-name-without-siblings", nil, 10, "a-very-lo…"},
	} {
		group := c.group
		if !slices.Contains(group, c.label) {
			group = append(slices.Clip(group), c.label)
		}
		got := timeline.FitAll(group, c.width, "…")[slices.Index(group, c.label)]
		if got != c.want {
			t.Errorf("FitAll: %q at %d = %q, want %q", c.label, c.width, got, c.want)
		}
		if n := ansi.StringWidth(got); n > c.width {
			t.Errorf("FitAll: %q at %d = %q is %d cells wide", c.label, c.width, got, n)
		}
	}
	// At every width, the labels of a group stay distinct.
	for _, group := range [][]string{pods, listeners} {
		for w := 8; w < 50; w++ {
			seen := map[string]string{}
			for i, f := range timeline.FitAll(group, w, "…") {
				l := group[i]
				if o, dup := seen[f]; dup {
					t.Errorf("width %d: %q and %q both fit as %q", w, o, l, f)
				}
				seen[f] = l
			}
		}
	}
}

// Labels are measured and cut in terminal cells: what tells the pods
// apart stays, whatever its width in cells (网站 is four, cafe\u0301 four,
// 👩\u200d💻 two).
func TestFitMeasuresCells(t *testing.T) {
	pods := []string{"kubelet/pod-worker default/网站-0", "kubelet/pod-worker default/网站-1", "kubelet/pod-worker default/web-2",
		"kubelet/pod-worker default/cafe\u0301-3", "kubelet/pod-worker default/👩\u200d💻-4", "kubelet/main-loop"}
	tests := []struct {
		labels   []string
		width    int
		want     []string
		ellipsis string
	}{
		{pods, 12, []string{"…网站-0", "…网站-1", "…web-2", "…cafe\u0301-3", "…👩\u200d💻-4", "main-loop"}, "…"},
		{pods, 18, []string{"pod-worker …网站-0", "pod-worker …网站-1", "pod-worker …web-2", "pod-worker …cafe\u0301-3", "pod-worker …👩\u200d💻-4", "main-loop"}, "…"},
		// A label that fits in cells stays, though it has more runes.
		{[]string{"cafe\u0301-0", "cafe\u0301-1"}, 6, []string{"cafe\u0301-0", "cafe\u0301-1"}, "…"},
		// A cut through a wide character leaves it out, a cell short.
		{[]string{"网站网站网站"}, 5, []string{"网站…"}, "…"},
		{[]string{"网站网站网站"}, 4, []string{"网…"}, "…"},
		{[]string{"网站网站网站"}, 1, []string{""}, "…"},
		// The ellipsis is measured in cells too.
		{[]string{"网站网站网站"}, 7, []string{"网站..."}, "..."},
	}
	for _, tc := range tests {
		got := timeline.FitAll(tc.labels, tc.width, tc.ellipsis)
		if !slices.Equal(got, tc.want) {
			t.Errorf("FitAll(%q, %d)\n = %q\nwant %q", tc.labels, tc.width, got, tc.want)
		}
		for _, f := range got {
			if w := ansi.StringWidth(f); w > tc.width {
				t.Errorf("FitAll(..., %d): %q is %d cells wide", tc.width, f, w)
			}
		}
	}
}

// A label of a megabyte of clusters of several runes (a wide character
// and an accent) is cut as ansi.Truncate cuts it when nothing else in its
// group shares its start.
func TestFitManyClusters(t *testing.T) {
	var b strings.Builder
	for r := rune(0x4E00); b.Len() < 1<<20 && r < 0x9FA0; r++ {
		for _, mark := range "\u0300\u0301\u0302\u0303" {
			b.WriteRune(r)
			b.WriteRune(mark)
		}
	}
	long := b.String()
	got := timeline.FitAll([]string{long, "网站-0"}, 7, "…")
	if want := []string{ansi.Truncate(long, 7, "…"), "网站-0"}; !slices.Equal(got, want) {
		t.Errorf("FitAll = %q, want %q", got, want)
	}
}

// Cuts are compared as they read: two labels whose cuts would read alike
// on screen (a wide character cut off leaves "a…" of both) are cut again.
// And a component prefix ends at a '/' of its own, not at a '/' an accent
// is drawn on.
func TestFitComparesWhatReads(t *testing.T) {
	labels := []string{"aa_", "a节点节点:café10"}
	got := timeline.FitEach(labels, []int{2, 3}, "…")
	if got[0] == got[1] {
		t.Errorf("FitEach(%q) = %q: both read the same", labels, got)
	}
	for i, f := range got {
		if w := ansi.StringWidth(f); w > []int{2, 3}[i] {
			t.Errorf("FitEach(%q)[%d] = %q is %d cells wide", labels, i, f, w)
		}
	}
	if got := timeline.FitAll([]string{"kubelet/\u0301站站"}, 2, "…"); got[0] != "k…" {
		t.Errorf(`FitAll("kubelet/\u0301站站", 2) = %q, want "k…"`, got)
	}
}
