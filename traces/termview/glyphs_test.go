package termview

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Bars and the axis are drawn a rune per cell: every glyph, of both sets,
// must be one cell wide by the width rule, or rows would not line up.
func TestGlyphsAreOneCell(t *testing.T) {
	for _, g := range []glyphs{unicodeGlyphs, asciiGlyphs} {
		for _, r := range []rune{g.line, g.start, g.end, g.open, g.short, g.busy, g.call, g.action, g.event,
			g.iter, g.few, g.many, g.rule, g.tick} {
			if w := ansi.StringWidth(string(r)); w != 1 {
				t.Errorf("glyph %q is %d cells wide", r, w)
			}
		}
		for _, s := range []string{g.folded, g.unfolded, g.ellipsis, g.approx} {
			if w := ansi.StringWidth(s); w != 1 {
				t.Errorf("glyph %q is %d cells wide", s, w)
			}
		}
	}
	// Axis labels: digits, units and µ.
	if w := ansi.StringWidth(formatDuration(1500, false)); w != len([]rune(formatDuration(1500, false))) {
		t.Errorf("%q is %d cells wide", formatDuration(1500, false), w)
	}
}
