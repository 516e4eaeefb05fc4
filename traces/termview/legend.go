package termview

import (
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubeloom/kubeloom/traces/timeline"
)

// legend says what the glyphs, the columns and the periods mean.
func (v *view) legend(folded bool) []string {
	g, p := v.g, v.p
	glyph := func(r rune, st style, text string) string { return st.paint(string(r)) + " " + text }
	items := []string{
		glyph(g.start, style{}, "start"), glyph(g.end, style{}, "end"),
		glyph(g.open, p.open, "still running at the end"),
		glyph(g.short, style{}, "lived within one column"),
		p.iter.paint(string([]rune{g.iter, ' ', g.few, ' ', g.many})) + " 1, 2-4, 5+ iterations per column",
		glyph(g.busy, p.iter, "iteration running"),
		glyph(g.call, p.call, "call"), glyph(g.event, p.event, "event"), glyph(g.action, p.action, "scenario action"),
	}
	if folded {
		items = append(items, g.folded+" a folded group: its lanes in one row")
	}
	scale := timeline.RoundDuration((v.to - v.from) / time.Duration(v.barW))
	approx := g.approx + " "
	if scale*time.Duration(v.barW) == v.to-v.from {
		approx = "= "
	}
	items = append(items, "1 column "+approx+formatDuration(scale, v.ascii))
	if v.periodW > 0 {
		items = append(items, "after a label: "+p.period.paint("loop period"))
	}
	if v.width < 60 { // too narrow to indent the items after "legend: "
		return append([]string{"legend:"}, wrap("  ", items, v.width)...)
	}
	return wrap("legend: ", items, v.width)
}

// wrap lays out items separated by two spaces in lines at most width
// cells wide, the first line starting with lead and the others indented as
// far.
func wrap(lead string, items []string, width int) []string {
	pad := spaces(ansi.StringWidth(lead))
	var lines []string
	cur, n := lead, ansi.StringWidth(lead)
	fresh := true
	for _, it := range items {
		k := ansi.StringWidth(it)
		if !fresh && n+2+k > width {
			lines = append(lines, cur)
			cur, n, fresh = pad, len(pad), true
		}
		if !fresh {
			cur += "  "
			n += 2
		}
		cur += it
		n += k
		fresh = false
	}
	return append(lines, cur)
}

// wrapSep joins fields with sep in lines at most width cells wide (unless
// a field is wider); the continuation lines are indented by two spaces.
func wrapSep(fields []string, sep string, width int) []string {
	var lines []string
	cur := ""
	for _, f := range fields {
		switch {
		case cur == "":
			cur = f
		case ansi.StringWidth(cur+sep+f) <= width:
			cur += sep + f
		default:
			lines = append(lines, cur)
			cur = "  " + f
		}
	}
	return append(lines, cur)
}
