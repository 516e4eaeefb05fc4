package termview

import (
	"io"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// palette is how one output colours its parts: lipgloss styles of the 16
// ANSI colours, which terminal themes adapt to light and dark backgrounds
// (as `kubeloom step` does), rendered with the colour profile Options.Color
// chose: termenv.ANSI, or termenv.Ascii, whose styles write no escape
// sequences at all. The profile is set, never detected: what lipgloss
// would find in the environment and the terminal is UseColor's to decide.
type palette struct {
	bold, dim   style
	label, main style // a goroutine's label; a lane of no goroutine
	group       style // a group's name
	period      style
	iter, call  style
	event       style
	action      style
	open        style // still running when the recording stopped
}

func newPalette(color bool) *palette {
	profile := termenv.Ascii
	if color {
		profile = termenv.ANSI
	}
	r := lipgloss.NewRenderer(io.Discard, termenv.WithProfile(profile))
	r.SetColorProfile(profile)
	fg := func(c string) lipgloss.Style { return r.NewStyle().Foreground(lipgloss.Color(c)) }
	const red, green, yellow, blue, magenta, cyan = "1", "2", "3", "4", "5", "6"
	return &palette{
		bold:   newStyle(r.NewStyle().Bold(true)),
		dim:    newStyle(r.NewStyle().Faint(true)),
		label:  newStyle(fg(cyan)),
		main:   newStyle(fg(cyan).Faint(true)),
		group:  newStyle(fg(cyan).Bold(true)),
		period: newStyle(fg(yellow)),
		iter:   newStyle(fg(green)),
		call:   newStyle(fg(blue)),
		event:  newStyle(fg(yellow).Bold(true)),
		action: newStyle(fg(magenta).Bold(true)),
		open:   newStyle(fg(red).Bold(true)),
	}
}

// A style is the escape sequences lipgloss writes before and after text
// for a lipgloss.Style: the styles here only colour and weigh text, so
// Style.Render(s) is open + s + close for any one line of text. They are
// asked of lipgloss once per output: Render costs about 4 µs a call, and a
// summary of 6,000 lanes paints 50,000 cells.
type style struct{ open, close string }

func newStyle(s lipgloss.Style) style {
	const mark = "\x00"
	open, close, _ := strings.Cut(s.Render(mark), mark)
	return style{open, close}
}

// paint colours s; empty text stays empty.
func (st style) paint(s string) string {
	if st.open == "" || s == "" {
		return s
	}
	return st.open + s + st.close
}

// rank is the style of a bar's cell drawn by the layer of rank k.
func (p *palette) rank(k int) style {
	switch k {
	case rankLine:
		return p.dim
	case rankBusy, rankIteration:
		return p.iter
	case rankCall:
		return p.call
	case rankEvent:
		return p.event
	case rankAction:
		return p.action
	}
	return style{} // blank cells and start and end caps
}

// paintCells colours a bar's cells by the layer that drew them, one escape
// sequence per run of cells of one style; a goroutine still running at the
// end (the cap open) stands out.
func (p *palette) paintCells(cells []rune, ranks []int, open rune) string {
	var b strings.Builder
	var cur style
	for i, r := range cells {
		st := p.rank(ranks[i])
		if ranks[i] == rankCap && r == open {
			st = p.open
		}
		if st != cur {
			b.WriteString(cur.close)
			b.WriteString(st.open)
			cur = st
		}
		b.WriteRune(r)
	}
	b.WriteString(cur.close)
	return b.String()
}
