package termview

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubeloom/kubeloom/internal/printable"
	"github.com/kubeloom/kubeloom/traces/diff"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// DiffOptions say how Diff writes a report.
type DiffOptions struct {
	// Width is the columns to fit; 0: the terminal's, and to a file or
	// pipe the lines are written whole.
	Width int
	ASCII bool // "->" for "→"
	// All writes every row, the ones that do not differ too.
	All bool
	// A and B name the two sides in the first lines ("recordings/a.jsonl",
	// "rec.jsonl (classic)").
	A, B string
	// Varies, if not empty, is a line saying that a side's run cannot
	// repeat exactly (it ran on every core, or live).
	Varies string
}

// Diff writes r: its headline, then the goroutine families, the startup
// steps and the actions' first effects that differ (every one with All),
// one line per differing figure: what, A's value, B's, and the change (Δ
// and ×). Names come from recordings and are written printable; a line
// too wide is cut, the name column first.
func Diff(w io.Writer, r diff.Report, opt DiffOptions) error {
	arrow := "→"
	ellipsis := "…"
	if opt.ASCII {
		arrow, ellipsis = "->", "~"
	}
	d := differ{ascii: opt.ASCII}
	lines := []string{printable.String(r.Headline()), "A: " + printable.String(opt.A), "B: " + printable.String(opt.B)}
	if opt.Varies != "" {
		lines = append(lines, opt.Varies)
	}

	var rows []diffRow
	role := ""
	heading := func(h string) { rows = append(rows, diffRow{heading: h}) }
	group := func(r string) {
		if r != role {
			role = r
			rows = append(rows, diffRow{role: printable.String(r)})
		}
	}
	heading("GOROUTINES")
	for _, f := range r.Families {
		if len(f.Differs) == 0 && !opt.All {
			continue
		}
		group(f.Role)
		rows = append(rows, d.family(f, opt.All)...)
	}
	heading("STARTUP STEPS")
	role = ""
	for _, s := range r.Steps {
		if len(s.Differs) == 0 && !opt.All {
			continue
		}
		group(s.Role)
		rows = append(rows, d.step(s))
	}
	heading("CAUSE " + arrow + " FIRST EFFECT")
	role = ""
	for _, c := range r.Chains {
		if len(c.Differs) == 0 && !opt.All {
			continue
		}
		group(c.Role)
		rows = append(rows, d.chain(c)...)
	}
	lines = append(lines, layout(rows)...)

	if opt.Width > 0 || isTerminal(w) {
		width := opt.Width
		if width <= 0 {
			width = TerminalWidth(w)
		}
		for i, line := range lines {
			lines[i] = ansi.Truncate(line, width, ellipsis)
		}
	}
	return write(w, lines)
}

// diffRow is a line of the report: a section heading, a role, or a figure
// of a family, step or action (name empty on a family's further figures).
type diffRow struct {
	heading, role string
	name, what    string
	a, b, change  string
	note          string // instead of a, b and change: free text after what
}

// layout writes the rows, the figure rows as columns.
func layout(rows []diffRow) []string {
	var wName, wWhat, wA, wB int
	for _, r := range rows {
		wName = max(wName, ansi.StringWidth(r.name))
		if r.note != "" {
			continue
		}
		wWhat = max(wWhat, ansi.StringWidth(r.what))
		wA = max(wA, ansi.StringWidth(r.a))
		wB = max(wB, ansi.StringWidth(r.b))
	}
	wName = min(wName, 48)
	var out []string
	for i, r := range rows {
		switch {
		case r.heading != "":
			// A section with no row says so.
			if i+1 == len(rows) || rows[i+1].heading != "" {
				out = append(out, "", r.heading+": no difference")
				continue
			}
			out = append(out, "", r.heading)
		case r.role != "":
			out = append(out, "  "+r.role)
		case r.note != "":
			name := ansi.Truncate(r.name, wName, "…")
			out = append(out, "    "+name+spaces(wName-ansi.StringWidth(name))+"  "+r.what+": "+r.note)
		default:
			name := ansi.Truncate(r.name, wName, "…")
			line := "    " + name + spaces(wName-ansi.StringWidth(name)) + "  " +
				r.what + spaces(wWhat-ansi.StringWidth(r.what)) + "  " +
				padLeft(r.a, wA) + "  " + padLeft(r.b, wB) + "  " + r.change
			out = append(out, strings.TrimRight(line, " "))
		}
	}
	return out
}

// differ writes the figures of a report's rows.
type differ struct {
	ascii bool
}

func (d differ) dur(t time.Duration) string {
	if t < 0 {
		return "-"
	}
	return formatDuration(timeline.RoundDuration(t), d.ascii)
}

// family is a family's rows: one per figure that differs (every figure
// with all), or one saying it ran on one side only.
func (d differ) family(f diff.Family, all bool) []diffRow {
	name := printable.String(f.Family)
	switch {
	case f.A == nil:
		return []diffRow{{name: name, what: "only in B", b: plural(f.B.Lanes, "goroutine")}}
	case f.B == nil:
		return []diffRow{{name: name, what: "only in A", a: plural(f.A.Lanes, "goroutine")}}
	}
	a, b := *f.A, *f.B
	var out []diffRow
	for _, fig := range f.Figures() {
		if !all && !slices.Contains(f.Differs, fig.What) {
			continue
		}
		r := diffRow{what: fig.What}
		if fig.Kind == diff.Count {
			r.a, r.b, r.change = strconv.FormatInt(fig.A, 10), strconv.FormatInt(fig.B, 10), countChange(fig.A, fig.B)
		} else {
			ta, tb := time.Duration(fig.A), time.Duration(fig.B)
			r.a, r.b, r.change = d.dur(ta), d.dur(tb), d.durChange(ta, tb, fig.Kind == diff.Duration)
		}
		if len(out) == 0 {
			r.name = name
		}
		out = append(out, r)
	}
	// What only one side's goroutines did: a line each, apart from the
	// columns (a list of names is as wide as it is).
	for _, side := range []struct {
		what  string
		calls []string
	}{{"calls only in A", diff.CallList(a, b)}, {"calls only in B", diff.CallList(b, a)}} {
		if len(side.calls) == 0 {
			continue
		}
		r := diffRow{what: side.what, note: printable.String(strings.Join(side.calls, ", "))}
		if len(out) == 0 {
			r.name = name
		}
		out = append(out, r)
	}
	return out
}

func (d differ) step(s diff.Step) diffRow {
	r := diffRow{name: printable.String(s.Step), what: strings.Join(s.Differs, ", ")}
	if s.AtA >= 0 {
		r.a = fmt.Sprintf("#%d %s", s.OrderA, d.dur(s.AtA))
	}
	if s.AtB >= 0 {
		r.b = fmt.Sprintf("#%d %s", s.OrderB, d.dur(s.AtB))
	}
	if s.AtA >= 0 && s.AtB >= 0 {
		r.change = d.durChange(s.AtA, s.AtB, false)
	}
	if r.what == "" {
		r.what = "same"
	}
	return r
}

// chain is an action's rows: when it came, and how long its first effect
// took.
func (d differ) chain(c diff.Chain) []diffRow {
	name := printable.String(strings.TrimPrefix(c.Action, "action/"))
	// A watch event's effect is the first handler call it led to.
	after := "first effect after"
	if strings.HasPrefix(c.Action, "watch ") {
		after = "handler after"
	}
	if c.AtA < 0 || c.AtB < 0 {
		r := diffRow{name: name, what: strings.Join(c.Differs, ", ")}
		r.a, r.b = d.dur(c.AtA), d.dur(c.AtB)
		return []diffRow{r}
	}
	return []diffRow{
		{name: name, what: "at", a: d.dur(c.AtA), b: d.dur(c.AtB), change: d.durChange(c.AtA, c.AtB, false)},
		{what: after, a: d.dur(c.AfterA), b: d.dur(c.AfterB), change: d.durChange(c.AfterA, c.AfterB, true)},
	}
}

// countChange is "+3 ×1.5", "-2 ×0.83", or "" when equal.
func countChange(a, b int64) string {
	if a == b {
		return ""
	}
	s := fmt.Sprintf("%+d", b-a)
	if a > 0 {
		s += fmt.Sprintf(" ×%.2g", float64(b)/float64(a))
	}
	return s
}

// durChange is "+1.2s", with "×2.2" when ratio says a ratio means
// something (periods, latencies; not times since the start).
func (d differ) durChange(a, b time.Duration, ratio bool) string {
	if a == b || a < 0 || b < 0 {
		return ""
	}
	sign := "+"
	delta := b - a
	if delta < 0 {
		sign, delta = "-", -delta
	}
	s := sign + formatDuration(timeline.RoundDuration(delta), d.ascii)
	if ratio && a > 0 {
		s += fmt.Sprintf(" ×%.2g", float64(b)/float64(a))
	}
	return s
}
