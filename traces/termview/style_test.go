package termview

import (
	"io"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// A style paints text as lipgloss renders it, with the profile the output
// chose and whatever the environment says.
func TestStyleIsLipgloss(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	t.Setenv("TERM", "dumb")
	t.Setenv("CLICOLOR_FORCE", "1")
	for _, color := range []bool{true, false} {
		profile := termenv.Ascii
		if color {
			profile = termenv.ANSI
		}
		r := lipgloss.NewRenderer(io.Discard, termenv.WithProfile(profile))
		r.SetColorProfile(profile)
		p := newPalette(color)
		for _, tc := range []struct {
			st   style
			want lipgloss.Style
			seq  string // the escape sequence's parameters, in colour
		}{
			{p.bold, r.NewStyle().Bold(true), "1"},
			{p.dim, r.NewStyle().Faint(true), "2"},
			{p.label, r.NewStyle().Foreground(lipgloss.Color("6")), "36"},
			{p.main, r.NewStyle().Faint(true).Foreground(lipgloss.Color("6")), "2;36"},
			{p.group, r.NewStyle().Bold(true).Foreground(lipgloss.Color("6")), "1;36"},
			{p.open, r.NewStyle().Bold(true).Foreground(lipgloss.Color("1")), "1;31"},
		} {
			for _, s := range []string{"informer/run pods", "kubelet/pod-worker default/网站-0", "e\u0301"} {
				got := tc.st.paint(s)
				if want := tc.want.Render(s); got != want {
					t.Errorf("colour %v: paint(%q) = %q, lipgloss renders %q", color, s, got, want)
				}
				want := s
				if color {
					want = "\x1b[" + tc.seq + "m" + s + "\x1b[0m"
				}
				if got != want {
					t.Errorf("colour %v: paint(%q) = %q, want %q", color, s, got, want)
				}
			}
			if got := tc.st.paint(""); got != "" {
				t.Errorf("colour %v: paint(\"\") = %q", color, got)
			}
		}
	}
}
