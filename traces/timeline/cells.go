package timeline

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Labels as terminal cells, for fitting them (fit.go). Text is measured as
// x/ansi measures it (docs/design.md, "Terminal text: one width rule"): by
// grapheme cluster, two cells for an East Asian wide character or an emoji,
// none for a combining mark or a zero-width character.

// cell is a cell of a label: the text drawn from it, and how many cells
// that text takes (2 for 中). The other cells of a wide character are
// empty, width 0. A cluster of no width (a zero-width space, an accent
// with nothing to sit on) goes with the one before it, or, at the start of
// a label, the one after.
type cell struct {
	text  string
	width int
}

// spell returns the cells of s. Text of no width at all has none.
func spell(s string) []cell {
	if isPrintableASCII(s) {
		cells := make([]cell, len(s))
		for i := range s {
			cells[i] = cell{s[i : i+1], 1}
		}
		return cells
	}
	var cells []cell
	lead := "" // clusters of no width before the first that has one
	for state := -1; s != ""; {
		var cl string
		cl, s, _, state = ansi.FirstGraphemeCluster(s, state)
		switch w := ansi.StringWidth(cl); {
		case w > 0:
			cells = append(cells, cell{lead + cl, w})
			for range w - 1 {
				cells = append(cells, cell{})
			}
			lead = ""
		case len(cells) > 0:
			last := len(cells) - 1
			for cells[last].width == 0 { // the first cell of a wide character
				last--
			}
			cells[last].text += cl
		default:
			lead += cl
		}
	}
	return cells
}

// text returns what cells draw: a wide character whose cells the slice
// does not all hold (a cut went through it) is left out.
func text(cells []cell) string {
	var b strings.Builder
	for i := 0; i < len(cells); i++ {
		c := cells[i]
		if c.width == 0 { // the rest of a wide character cut at its start
			continue
		}
		if i+c.width > len(cells) { // a wide character cut at its end
			break
		}
		b.WriteString(c.text)
		i += c.width - 1
	}
	return b.String()
}

// width is the width of s in cells.
func width(s string) int {
	if isPrintableASCII(s) {
		return len(s)
	}
	return ansi.StringWidth(s)
}

// firstSpace is the index of the first space of a label's cells, or -1.
func firstSpace(cells []cell) int {
	for i, c := range cells {
		if c.text == " " {
			return i
		}
	}
	return -1
}

func (c cell) isSpace() bool { return c.text == " " || c.text == "/" }

func (c cell) isSeparator() bool {
	return len(c.text) == 1 && strings.IndexByte(" /-._:", c.text[0]) >= 0
}

// isPrintableASCII reports whether s is printable ASCII: one byte and one
// cell per character.
func isPrintableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
