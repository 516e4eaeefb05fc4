package timeline

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// A label's cells are as many as x/ansi measures, and draw the label.
func TestCells(t *testing.T) {
	for _, s := range []string{"", "main", "网站-0", "cafe\u0301", "\u0301lead", "👩\u200d💻", "🇨🇳 flag", "a\u200bb",
		"\U00100000 private", "x\U0010FFFDy", "tab\there", "中\u0301文"} {
		cells := spell(s)
		if got := text(cells); got != s {
			t.Errorf("text(spell(%q)) = %q", s, got)
		}
		if n, w := len(cells), ansi.StringWidth(s); n != w || width(s) != w {
			t.Errorf("spell(%q) has %d cells, width %d, for %d", s, n, width(s), w)
		}
	}
	// Text of no width at all has no cells, and draws nothing once cut.
	if cells := spell("\u200b"); len(cells) != 0 {
		t.Errorf("spell(zero width) has %d cells", len(cells))
	}
	// A cut through a wide character leaves it out, at either end.
	cells := spell("网站x")
	for _, c := range []struct {
		lo, hi int
		want   string
	}{{0, 1, ""}, {0, 3, "网"}, {1, 5, "站x"}, {1, 4, "站"}, {3, 5, "x"}} {
		if got := text(cells[c.lo:c.hi]); got != c.want {
			t.Errorf("text(cells[%d:%d]) = %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
}
