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
	} {
		if got := truncateMiddle(tc.s, tc.width); got != tc.want || ansi.StringWidth(got) > tc.width {
			t.Errorf("truncateMiddle(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
}
