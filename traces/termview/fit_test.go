package termview

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubeloom/kubeloom/traces/timeline"
)

func TestFitEachMeasuresCells(t *testing.T) {
	pods := []string{"kubelet/pod-worker default/网站-0", "kubelet/pod-worker default/网站-1", "kubelet/pod-worker default/web-2",
		"kubelet/pod-worker default/cafe\u0301-3", "kubelet/pod-worker default/👩\u200d💻-4", "kubelet/main-loop"}
	tests := []struct {
		labels []string
		width  int
		want   []string
	}{
		// What tells the pods apart stays, whatever its width in cells.
		{pods, 12, []string{"…网站-0", "…网站-1", "…web-2", "…cafe\u0301-3", "…👩\u200d💻-4", "main-loop"}},
		{pods, 18, []string{"pod-worker …网站-0", "pod-worker …网站-1", "pod-worker …web-2", "pod-worker …cafe\u0301-3", "pod-worker …👩\u200d💻-4", "main-loop"}},
		// A label that fits in cells stays, though it has more runes.
		{[]string{"cafe\u0301-0", "cafe\u0301-1"}, 6, []string{"cafe\u0301-0", "cafe\u0301-1"}},
		// A cut through a wide character leaves it out, a cell short.
		{[]string{"网站网站网站"}, 5, []string{"网站…"}},
		{[]string{"网站网站网站"}, 4, []string{"网…"}},
		{[]string{"网站网站网站"}, 1, []string{""}},
	}
	for _, tc := range tests {
		got := fitAll(tc.labels, tc.width, "…")
		if !slices.Equal(got, tc.want) {
			t.Errorf("fitAll(%q, %d)\n = %q\nwant %q", tc.labels, tc.width, got, tc.want)
		}
		for _, f := range got {
			if w := ansi.StringWidth(f); w > tc.width {
				t.Errorf("fitAll(..., %d): %q is %d cells wide", tc.width, f, w)
			}
		}
	}
}

// For printable ASCII, where a rune is a cell, fitEach is timeline.FitEach.
func TestFitEachIsFitEachForASCII(t *testing.T) {
	labels := []string{"informer/listener-pop pods handler-1", "informer/listener-pop pods handler-2",
		"informer/listener-run pods handler-1", "informer/run pods", "reflector/list-watch pods", "main"}
	for width := 1; width <= 40; width++ {
		widths := make([]int, len(labels))
		for i := range widths {
			widths[i] = width - i%3
		}
		if got, want := fitEach(labels, widths, "~"), timeline.FitEach(labels, widths, "~"); !slices.Equal(got, want) {
			t.Errorf("width %d: %q, want %q", width, got, want)
		}
	}
}

// Spelt and spelt back, text is itself; spelt, it has a rune per cell.
func TestCellCodec(t *testing.T) {
	for _, s := range []string{"", "main", "网站-0", "cafe\u0301", "\u0301lead", "👩\u200d💻", "🇨🇳 flag", "a\u200bb", "\u200b",
		"\U00100000 private", "x\U0010FFFDy", "tab\there"} {
		var c cellCodec
		spelt := c.encode(s)
		if got := c.decode(spelt); got != s {
			t.Errorf("decode(encode(%q)) = %q", s, got)
		}
		// Text of no width at all is one rune.
		if n, w := len([]rune(spelt)), ansi.StringWidth(s); n != max(w, min(len(s), 1)) {
			t.Errorf("encode(%q) has %d runes for %d cells", s, n, w)
		}
	}
}

// With more distinct clusters of several runes than the codec has runes
// for, labels are cut each on its own, still to their width in cells.
func TestFitEachManyClusters(t *testing.T) {
	var b strings.Builder
	for r := rune(0x4E00); b.Len() < 1<<20 && r < 0x9FA0; r++ {
		for _, mark := range "\u0300\u0301\u0302\u0303" {
			b.WriteRune(r)
			b.WriteRune(mark)
		}
	}
	long := b.String()
	var c cellCodec
	c.encode(long)
	if !c.full {
		t.Fatalf("%d clusters did not fill the codec", len(c.units))
	}
	got := fitAll([]string{long, "网站-0"}, 7, "…")
	if want := []string{ansi.Truncate(long, 7, "…"), "网站-0"}; !slices.Equal(got, want) {
		t.Errorf("fitAll = %q, want %q", got, want)
	}
}
