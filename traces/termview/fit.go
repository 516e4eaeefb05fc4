package termview

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubeloom/kubeloom/traces/timeline"
)

// fitEach is timeline.FitEach measured in terminal cells: it shortens
// sibling labels to their widths, keeping what tells them apart. FitEach
// counts runes, and a terminal draws a wide character (中, an emoji) in two
// cells and a combining mark in none; so it is handed the labels spelt one
// rune per cell (cellCodec), and its cuts fall between cells. A cut through
// a wide character drops it, as ansi.Truncate does: the label is then a
// cell narrower than its width.
func fitEach(labels []string, widths []int, ellipsis string) []string {
	var c cellCodec
	spelt := make([]string, len(labels))
	for i, l := range labels {
		spelt[i] = c.encode(l)
	}
	out := make([]string, len(labels))
	if c.full { // 65,533 distinct clusters of several runes: cut each alone
		for i, l := range labels {
			out[i] = ansi.Truncate(l, widths[i], ellipsis)
		}
		return out
	}
	for i, f := range timeline.FitEach(spelt, widths, ellipsis) {
		out[i] = f
		if spelt[i] != labels[i] { // what FitEach left of a label it spelt
			out[i] = c.decode(f)
		}
	}
	return out
}

// fitAll is fitEach with one width for every label.
func fitAll(labels []string, width int, ellipsis string) []string {
	widths := make([]int, len(labels))
	for i := range widths {
		widths[i] = width
	}
	return fitEach(labels, widths, ellipsis)
}

// cellCodec spells text one rune per terminal cell, and back. A unit is a
// grapheme cluster with any zero-width clusters after it (a letter and its
// accents, an emoji sequence joined by U+200D): a unit of one rune and one
// cell is itself; a wide character is itself then filler; any other unit is
// a rune of the Supplementary Private Use Area-B standing for it, then a
// filler for each cell after its first. Labels are spelt with one codec so
// that equal units read alike in all of them.
type cellCodec struct {
	units []string // the text of rune unitBase+i
	codes map[string]rune
	full  bool // more units than runes to spell them
}

const (
	unitBase = 0x100000 // the first code point of the Supplementary Private Use Area-B
	filler   = 0x10FFFD // its last: a wide unit's cells after the first
)

func (c *cellCodec) encode(s string) string {
	if isPrintableASCII(s) {
		return s
	}
	var units []string
	lead := "" // zero-width clusters before the first unit
	for state := -1; s != ""; {
		var cl string
		cl, s, _, state = ansi.FirstGraphemeCluster(s, state)
		switch {
		case ansi.StringWidth(cl) > 0:
			units = append(units, lead+cl)
			lead = ""
		case len(units) > 0:
			units[len(units)-1] += cl
		default:
			lead += cl
		}
	}
	if lead != "" { // text of no width at all
		units = append(units, lead)
	}
	var b strings.Builder
	for _, u := range units {
		w := max(ansi.StringWidth(u), 1)
		r, size := utf8.DecodeRuneInString(u)
		if size != len(u) || r >= unitBase {
			r = c.code(u)
		}
		b.WriteRune(r)
		for range w - 1 {
			b.WriteRune(filler)
		}
	}
	return b.String()
}

// code is the rune that spells unit u.
func (c *cellCodec) code(u string) rune {
	if r, ok := c.codes[u]; ok {
		return r
	}
	if len(c.units) == filler-unitBase {
		c.full = true
		return filler
	}
	if c.codes == nil {
		c.codes = map[string]rune{}
	}
	r := rune(unitBase + len(c.units))
	c.codes[u] = r
	c.units = append(c.units, u)
	return r
}

// decode spells back what is left of a spelt label: its units, less any
// the cut went through (a wide one without all its fillers, fillers
// without their unit), and the ellipsis.
func (c *cellCodec) decode(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i := 0; i < len(rs); i++ {
		if rs[i] == filler {
			continue
		}
		text := string(rs[i])
		if rs[i] >= unitBase {
			text = c.units[rs[i]-unitBase]
		}
		want := max(ansi.StringWidth(text), 1) - 1
		n := 0
		for n < want && i+1+n < len(rs) && rs[i+1+n] == filler {
			n++
		}
		i += n
		if n == want {
			b.WriteString(text)
		}
	}
	return b.String()
}

// isPrintableASCII reports whether s is printable ASCII: one rune, one
// byte and one cell per character.
func isPrintableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
