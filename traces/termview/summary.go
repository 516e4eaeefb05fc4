package termview

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubeloom/kubeloom/internal/printable"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// LaneSummary is what Summary reports for one lane.
type LaneSummary struct {
	Instance *timeline.Instance
	Lane     *timeline.Lane
	// Iterations counts the loop's iterations, recorded or not; Skipped
	// how many of them the recorder sampled out (idle iterations of loops
	// of 1s or less), which are not in the recording.
	Iterations, Skipped int64
	// Spans counts the lane's spans: its lifetime span, iterations and
	// other calls.
	Spans int
}

// Summarize counts each lane's iterations and spans, for the lanes that
// match opt's filter and overlap its window. With a window (opt.From,
// opt.To) only what starts inside it is counted: iterations (the skipped
// ones put back one period apart, as the timeline draws them) and spans.
func Summarize(tl *timeline.Timeline, opt Options) ([]LaneSummary, error) {
	if tl == nil {
		return nil, fmt.Errorf("termview: no timeline to summarize")
	}
	if err := opt.Filter.Validate(); err != nil {
		return nil, err
	}
	v := &view{tl: tl, filter: opt.Filter, ascii: opt.ASCII}
	if err := v.checkFilter(); err != nil {
		return nil, err
	}
	if len(tl.Instances) == 0 {
		return nil, nil
	}
	if err := v.setWindow(opt.From, opt.To); err != nil {
		return nil, err
	}
	if err := v.needMarks(); err != nil {
		return nil, err
	}
	return v.summarize(), nil
}

func (v *view) summarize() []LaneSummary {
	var rows []LaneSummary
	in := func(t time.Time) bool {
		o := v.tl.Offset(t)
		return !v.windowed || o >= v.from && o <= v.to
	}
	for _, inst := range v.tl.Instances {
		for _, l := range inst.Lanes {
			if !v.visible(inst, l) {
				continue
			}
			r := LaneSummary{Instance: inst, Lane: l}
			if l.SpanID.IsValid() && in(l.Start) {
				r.Spans++
			}
			if v.tl.Outline {
				// No marks, no window: the lane's tally has them all.
				t := l.Tally
				r.Iterations = int64(t.Iterations) + t.Skipped
				r.Skipped = t.Skipped
				r.Spans += t.Iterations + t.Calls
				rows = append(rows, r)
				continue
			}
			for _, m := range l.Iterations {
				if in(m.Start) {
					r.Iterations++
					r.Spans++
				}
				switch {
				case !v.windowed:
					r.Iterations += m.Skipped
					r.Skipped += m.Skipped
				case l.Period > 0:
					// The skipped ones ran one period apart before this one.
					for i := int64(1); i <= m.Skipped; i++ {
						t := m.Start.Add(-time.Duration(i) * l.Period)
						if t.Before(l.Start) {
							break
						}
						if in(t) {
							r.Iterations++
							r.Skipped++
						}
					}
				}
			}
			for _, m := range l.Calls {
				if in(m.Start) {
					r.Spans++
				}
			}
			rows = append(rows, r)
		}
	}
	return rows
}

// needMarks refuses a window on a timeline built without its marks: the
// lanes' tallies count the whole recording.
func (v *view) needMarks() error {
	if v.windowed && v.tl.Outline {
		return errors.New("termview: a window needs the timeline's marks: build it with timeline.Build, not Outline")
	}
	return nil
}

// summaryColumns are the table's headings; the numeric ones are right-aligned.
var summaryColumns = []struct {
	name  string
	right bool
}{
	{"INSTANCE", false}, {"GOROUTINE", false}, {"KIND", false}, {"PERIOD", true},
	{"ITERATIONS", true}, {"SKIPPED", true}, {"SPANS", true}, {"START", true}, {"END", true},
}

// Summary writes a table of tl's lanes to w: per lane, its instance, label,
// goroutine kind, loop period, iterations (recorded and sampled out) and
// how many of them were sampled out, spans, and when it started and ended
// (offsets from the start of the recording, "running" for a goroutine
// still running when the recording stopped), then a line of totals. It
// takes opt's filter and window as Summarize does. The table fits
// opt.Width, or the terminal's width, by shortening the instance and
// goroutine columns; written to a file or pipe without a width it is
// written whole. Widths are measured in terminal cells, so that names
// with wide characters (中文) line up.
func Summary(w io.Writer, tl *timeline.Timeline, opt Options) error {
	v, err := newView(w, tl, opt)
	if err != nil {
		return err
	}
	v.fitTable = opt.Width > 0 || isTerminal(w)
	if len(tl.Instances) == 0 {
		return write(w, v.fitLines(append(v.title(0), "no spans to show: the recording is empty")))
	}
	if err := v.setWindow(opt.From, opt.To); err != nil {
		return err
	}
	if err := v.needMarks(); err != nil {
		return err
	}
	rows := v.summarize()

	cells := make([][]string, 0, len(rows)+2)
	styles := make([][]style, 0, len(rows)+2)
	header := make([]string, len(summaryColumns))
	headerStyles := make([]style, len(summaryColumns))
	for i, c := range summaryColumns {
		header[i], headerStyles[i] = c.name, v.p.bold
	}
	cells = append(cells, header)
	styles = append(styles, headerStyles)
	var iters, skipped int64
	spans := 0
	uniqueIDs := map[string]int{}
	for _, in := range tl.Instances {
		uniqueIDs[in.ID]++
	}
	for _, r := range rows {
		l := r.Lane
		kind, period, end := "-", "-", v.offset(l.End)
		if l.Kind != "" {
			kind = printable.String(l.Kind)
		}
		if l.Period > 0 {
			period = formatDuration(l.Period, v.ascii)
			if v.fitTable {
				period = formatDuration(timeline.RoundDuration(l.Period), v.ascii)
			}
		}
		if l.Open {
			end = "running"
		}
		label := v.p.label
		if l.Goroutine == timeline.MainLane {
			label = v.p.main
		}
		var endStyle style
		if l.Open {
			endStyle = v.p.open
		}
		inst := r.Instance.Name()
		if v.fitTable && uniqueIDs[r.Instance.ID] == 1 {
			inst = r.Instance.ID // the title names the services
		}
		cells = append(cells, []string{
			printable.String(inst), printable.String(l.Label), kind, period,
			strconv.FormatInt(r.Iterations, 10), strconv.FormatInt(r.Skipped, 10), strconv.Itoa(r.Spans),
			v.offset(l.Start), end,
		})
		var periodStyle style
		if l.Period > 0 {
			periodStyle = v.p.period
		}
		styles = append(styles, []style{{}, label, {}, periodStyle, v.p.iter, {}, {}, {}, endStyle})
		iters += r.Iterations
		skipped += r.Skipped
		spans += r.Spans
	}
	cells = append(cells, []string{"total", plural(len(rows), "lane"), "", "",
		strconv.FormatInt(iters, 10), strconv.FormatInt(skipped, 10), strconv.Itoa(spans), "", ""})
	bold := v.p.bold
	styles = append(styles, []style{bold, bold, {}, {}, bold, bold, bold, {}, {}})

	widths := make([]int, len(summaryColumns))
	for _, row := range cells {
		for i, c := range row {
			widths[i] = max(widths[i], ansi.StringWidth(c))
		}
	}
	if v.fitTable {
		v.fitColumns(cells, widths)
	}
	lines := append(v.title(len(rows)), v.table(cells, styles, widths)...)
	lines = append(lines, v.leaks(rows)...)
	if n := v.tl.Orphans; n > 0 {
		lines = append(lines, fmt.Sprintf("%s not counted: %s parent is missing (the recording was cut short?)",
			plural(n, "span"), map[bool]string{true: "its", false: "their"}[n == 1]))
	}
	// A table fitted to the width is as narrow as it can be; one going to
	// a pipe or a file, with no --width, is written whole (for grep): its
	// lines are never cut.
	return write(w, lines)
}

// table lays cells out in columns two cells apart, each cell coloured by
// its style and padded to its column's width as x/ansi measures it (the
// numbers and times aligned to the right). No cell is wider than its
// column's width.
func (v *view) table(cells [][]string, styles [][]style, widths []int) []string {
	lines := make([]string, 0, len(cells))
	for r, row := range cells {
		var b strings.Builder
		for i, c := range summaryColumns {
			if i > 0 {
				b.WriteString("  ")
			}
			pad := spaces(widths[i] - ansi.StringWidth(row[i]))
			if c.right {
				b.WriteString(pad + styles[r][i].paint(row[i]))
			} else {
				b.WriteString(styles[r][i].paint(row[i]) + pad)
			}
		}
		lines = append(lines, strings.TrimRight(b.String(), " "))
	}
	return lines
}

// offset formats a time as an offset from the start of the recording,
// rounded to the millisecond (to the microsecond below one).
func (v *view) offset(t time.Time) string {
	d := v.tl.Offset(t)
	if d >= time.Millisecond || d <= -time.Millisecond {
		d = d.Round(time.Millisecond)
	} else {
		d = d.Round(time.Microsecond)
	}
	return formatDuration(d, v.ascii)
}

// fitColumns narrows the INSTANCE and GOROUTINE columns until the table
// fits the width (down to a floor of 12 and 8 cells: a table that does not
// fit then is written as wide as it is), then shortens their cells with
// timeline.FitAll, once each from the whole names, so that what tells the lanes of
// an instance apart stays.
func (v *view) fitColumns(cells [][]string, widths []int) {
	const instCol, laneCol = 0, 1
	total := 2 * (len(widths) - 1)
	for _, w := range widths {
		total += w
	}
	over := total - v.width
	narrowed := map[int]bool{}
	narrow := func(col, floor int) {
		if n := min(over, max(widths[col]-floor, 0)); n > 0 {
			widths[col] -= n
			over -= n
			narrowed[col] = true
		}
	}
	narrow(laneCol, 24)
	narrow(instCol, 8)
	narrow(laneCol, 12)
	if len(narrowed) == 0 {
		return
	}
	body := cells[1 : len(cells)-1] // not the headings, nor the totals
	byInst := map[string][]int{}
	var insts []string
	for i, row := range body {
		if byInst[row[instCol]] == nil {
			insts = append(insts, row[instCol])
		}
		byInst[row[instCol]] = append(byInst[row[instCol]], i)
	}
	if narrowed[laneCol] {
		// A lane's label is told apart from its instance's others.
		for _, name := range insts {
			labels := make([]string, len(byInst[name]))
			for k, i := range byInst[name] {
				labels[k] = body[i][laneCol]
			}
			for k, f := range timeline.FitAll(labels, widths[laneCol], v.g.ellipsis) {
				body[byInst[name][k]][laneCol] = f
			}
		}
	}
	if narrowed[instCol] {
		for k, f := range timeline.FitAll(insts, widths[instCol], v.g.ellipsis) {
			for _, i := range byInst[insts[k]] {
				body[i][instCol] = f
			}
		}
	}
}
