package termview

import (
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/term"
)

// DefaultWidth is the width used when neither the terminal nor $COLUMNS tells one.
const DefaultWidth = 100

// TerminalWidth returns the width to draw for w: the terminal's columns if
// w is a terminal (an ioctl on its file descriptor), else $COLUMNS if it is
// a positive number, else DefaultWidth.
func TerminalWidth(w io.Writer) int {
	if f, ok := w.(interface{ Fd() uintptr }); ok {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return cols
		}
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return DefaultWidth
}

// TerminalLanes returns how many lanes fit on w's screen, when w is a
// terminal tall enough to say (its rows, less the title, axes, headings
// and legend), else 0 (DefaultMaxLanes).
func TerminalLanes(w io.Writer) int {
	if f, ok := w.(interface{ Fd() uintptr }); ok {
		if _, rows, err := term.GetSize(int(f.Fd())); err == nil && rows > 20 {
			return rows - 12
		}
	}
	return 0
}

// Text is measured in terminal cells, as every view of kubeloom measures
// it (docs/design.md, "Terminal text: one width rule"): x/ansi's
// StringWidth, which reads grapheme clusters, gives East Asian wide
// characters and emoji two cells and combining marks none, and skips
// escape sequences. Bars are drawn in runes: every glyph is one cell
// (TestGlyphsAreOneCell).

// spaces returns n spaces, none if n is negative.
func spaces(n int) string { return strings.Repeat(" ", max(n, 0)) }

// padLeft right-aligns s in a column width cells wide.
func padLeft(s string, width int) string { return spaces(width-ansi.StringWidth(s)) + s }
