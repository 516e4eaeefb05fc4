package stepview

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		text  string
		width int
		want  []string
	}{
		{"the informer's process loop pops one key", 16, []string{"the informer's", "process loop", "pops one key"}},
		// Spaces inside a line stay (article quotes are verbatim).
		{"  leading and   double  spaces ", 40, []string{"leading and   double  spaces"}},
		{"kube-system/kube-controller-manager", 10, []string{"kube-syste", "m/kube-con", "troller-ma", "nager"}},
		// Chinese breaks between characters, English words stay whole,
		// and closing punctuation never begins a line.
		{"每隔 RetryPeriod（2 秒）尝试一次，第一次立即进行。", 12, []string{"每隔", "RetryPeriod", "（2 秒）尝试", "一次，第一次", "立即进行。"}},
		// Opening punctuation never ends a line.
		{"一二三四五（六七）", 12, []string{"一二三四五", "（六七）"}},
		{"一二三四五「六七」", 12, []string{"一二三四五", "「六七」"}},
		{"", 10, []string{""}},
		// A character is a grapheme cluster: an emoji joined by U+200D
		// is one character two cells wide, an accent stays on its letter.
		{"我是👩\u200d💻工程师", 8, []string{"我是👩\u200d💻工", "程师"}},
		{"👩\u200d💻👩\u200d💻", 3, []string{"👩\u200d💻", "👩\u200d💻"}},
		{"网\u0301站\u0301网\u0301", 4, []string{"网\u0301站\u0301", "网\u0301"}},
		{"cafe\u0301 cafe\u0301 cafe\u0301", 9, []string{"cafe\u0301 cafe\u0301", "cafe\u0301"}},
	} {
		got := Wrap(tc.text, tc.width)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("Wrap(%q, %d) = %q, want %q", tc.text, tc.width, got, tc.want)
		}
		for _, l := range got {
			if w := ansi.StringWidth(l); w > tc.width {
				t.Errorf("Wrap(%q, %d): %q is %d columns", tc.text, tc.width, l, w)
			}
		}
	}
}

func TestTruncateMiddle(t *testing.T) {
	for _, tc := range []struct {
		s     string
		width int
		want  string
	}{
		{"informer/listener-run pods handler-2", 40, "informer/listener-run pods handler-2"},
		{"informer/listener-run pods handler-2", 21, "informer/l… handler-2"},
		{"informer/run", 5, "info…"},
		// Cut between characters, a wide one left out rather than split.
		{"kubelet/pod-worker default/网站网站-0", 21, "kubelet/po…网站网站-0"},
		{"kubelet/pod-worker default/网站网站-0", 20, "kubelet/po…站网站-0"},
		{"pod-worker default/网站网站网站网站", 15, "pod-wor…站网站"},
		{"pod-worker default/网站网站网站网站", 14, "pod-wor…站网站"},
		{"pod-worker default/网站网站网站网站", 13, "pod-wo…站网站"},
	} {
		if got := truncateMiddle(tc.s, tc.width); got != tc.want || ansi.StringWidth(got) > tc.width {
			t.Errorf("truncateMiddle(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
}

// A character wider than the line is a line of its own, not a loop.
func TestWrapNarrowerThanACharacter(t *testing.T) {
	got := Wrap("网站", 1)
	if strings.Join(got, "|") != "网|站" {
		t.Errorf("Wrap(网站, 1) = %q", got)
	}
}
