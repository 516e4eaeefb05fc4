package termview

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubeloom/kubeloom/internal/printable"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// Options say how to draw a timeline.
type Options struct {
	// Width is the total number of columns of every line. 0 means the
	// terminal's width (see TerminalWidth).
	Width int
	// From and To select a window of simulated time, as offsets from the
	// start of the recording. 0, 0 shows the whole recording; To 0 alone
	// means up to the end.
	From, To time.Duration
	// ASCII draws with ASCII characters only, for terminals and files that
	// do not take box-drawing characters.
	ASCII bool
	// Filter selects the instances and lanes to show; the zero Filter
	// shows all of them. A filter that matches no lane is an error that
	// lists the instances.
	Filter timeline.Filter
	// Color draws lane labels, periods and marks with ANSI colours (the
	// caller decides, see UseColor): lipgloss styles of the 16 ANSI
	// colours. Widths ignore the escape sequences.
	Color bool
	// MaxLanes is how many lanes show before the timeline folds each group
	// (a controller, the shared informers, a kubelet manager...) into one
	// summary row; 0 means DefaultMaxLanes. A --goroutine filter never
	// folds: it picked its lanes.
	MaxLanes int
	// Expand names groups that stay unfolded (timeline.Group.Match
	// patterns; "all" unfolds every group).
	Expand []string
}

// MinWidth is the narrowest output Render draws.
const MinWidth = 30

const (
	indent    = 2  // lane rows sit under their instance's heading
	minBar    = 10 // fewest cells of a time bar
	periodMin = 60 // narrower output has no period column
	// Repeat the axis under the lanes when there are more rows than this.
	bottomAxisRows = 20
)

// Render writes tl to w as a text timeline: a title line, an axis of
// simulated time, one heading per instance with one row per lane, and a
// legend. Lanes outside the window or the filter are left out. Every line
// is at most Width cells wide (escape sequences aside; a wide character
// such as 中 takes two cells: docs/design.md, "Terminal text: one width
// rule") and the output depends only on tl and opt.
func Render(w io.Writer, tl *timeline.Timeline, opt Options) error {
	v, err := newView(w, tl, opt)
	if err != nil {
		return err
	}
	if tl.Outline {
		return errors.New("termview: an outline has no marks to draw: build the timeline with timeline.Build")
	}
	var lines []string
	if len(tl.Instances) == 0 {
		lines = v.fitLines(append(v.title(0), "no spans to show: the recording is empty"))
	} else {
		if err := v.setWindow(opt.From, opt.To); err != nil {
			return err
		}
		lines = v.render()
	}
	return write(w, lines)
}

// newView checks the options that every rendering shares.
func newView(w io.Writer, tl *timeline.Timeline, opt Options) (*view, error) {
	if tl == nil {
		return nil, errors.New("termview: no timeline to render")
	}
	width := opt.Width
	if width == 0 {
		width = TerminalWidth(w)
	}
	if width < MinWidth {
		return nil, fmt.Errorf("width %d is too narrow for a timeline: use a width of at least %d columns", width, MinWidth)
	}
	if err := opt.Filter.Validate(); err != nil {
		return nil, err
	}
	for _, p := range opt.Expand {
		if err := timeline.ValidPattern(p); err != nil {
			return nil, err
		}
	}
	v := &view{tl: tl, width: width, ascii: opt.ASCII, g: unicodeGlyphs, filter: opt.Filter, p: newPalette(opt.Color),
		expand: opt.Expand, maxLanes: opt.MaxLanes}
	if opt.ASCII {
		v.g = asciiGlyphs
	}
	if err := v.checkFilter(); err != nil {
		return nil, err
	}
	return v, nil
}

// write writes lines, one a line.
func write(w io.Writer, lines []string) error {
	bw := bufio.NewWriter(w)
	for _, l := range lines {
		bw.WriteString(l)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// fit cuts a line to the width, the cut marked with an ellipsis (x/ansi
// cuts between escape sequences, so a cut line keeps its colours).
func (v *view) fit(line string) string { return ansi.Truncate(line, v.width, v.g.ellipsis) }

// fitLines fits each of lines to the width.
func (v *view) fitLines(lines []string) []string {
	for i, l := range lines {
		lines[i] = v.fit(l)
	}
	return lines
}

type view struct {
	tl       *timeline.Timeline
	g        glyphs
	p        *palette
	ascii    bool
	filter   timeline.Filter
	width    int
	from, to time.Duration
	windowed bool
	expand   []string
	maxLanes int
	fitTable bool // Summary: narrow the table to the width

	labelW, periodW, barW int
}

// checkFilter refuses a filter that selects no lane of the recording,
// saying what there is to select.
func (v *view) checkFilter() error {
	f := v.filter
	if f.IsZero() || len(v.tl.Instances) == 0 {
		return nil
	}
	var names []string
	instances := 0
	for _, in := range v.tl.Instances {
		names = append(names, printable.String(in.Name()))
		if !f.MatchInstance(in) {
			continue
		}
		instances++
		for _, l := range in.Lanes {
			if f.MatchLane(l) {
				return nil
			}
		}
	}
	if instances == 0 {
		return fmt.Errorf("no instance matches --instance %s: the recording has %s (match an ID, a service, or \"service id\")",
			strings.Join(f.Instances, " --instance "), strings.Join(names, ", "))
	}
	return fmt.Errorf("no goroutine lane matches --goroutine %s in the instances selected: run with --summary and without --goroutine to list the lanes",
		strings.Join(f.Goroutines, " --goroutine "))
}

// visible reports whether a lane is shown: it matches the filter and
// overlaps the window.
func (v *view) visible(in *timeline.Instance, l *timeline.Lane) bool {
	if !v.filter.Match(in, l) {
		return false
	}
	return !(v.tl.Offset(l.End) < v.from || v.tl.Offset(l.Start) > v.to)
}

func (v *view) setWindow(from, to time.Duration) error {
	dur := v.tl.Duration()
	if from < 0 || to < 0 {
		return fmt.Errorf("window %s to %s is invalid: times are offsets from the start of the recording and cannot be negative",
			formatDuration(from, v.ascii), formatDuration(to, v.ascii))
	}
	v.windowed = from != 0 || to != 0
	if to == 0 {
		to = dur
	}
	if from > 0 && from >= dur {
		return fmt.Errorf("window starts at %s but the recording ends at %s: choose an earlier --from",
			formatDuration(from, v.ascii), formatDuration(dur, v.ascii))
	}
	if v.windowed && to <= from {
		return fmt.Errorf("window %s to %s is empty: --to must be after --from",
			formatDuration(from, v.ascii), formatDuration(to, v.ascii))
	}
	if to <= from { // a recording of one instant
		to = from + time.Second
	}
	v.from, v.to = from, to
	return nil
}

func (v *view) render() []string {
	type section struct {
		in   *timeline.Instance
		rows []row
	}
	shown, periods := 0, false
	for _, in := range v.tl.Instances {
		for _, l := range in.Lanes {
			if v.visible(in, l) {
				shown++
				periods = periods || l.Period > 0
			}
		}
	}
	fold := v.folds(shown)
	var secs []section
	var all []row
	longest := 0
	for _, in := range v.tl.Instances {
		rows := v.rows(in, fold)
		if len(rows) == 0 {
			continue
		}
		secs = append(secs, section{in: in, rows: rows})
		all = append(all, rows...)
		for _, r := range rows {
			longest = max(longest, 2*r.depth+ansi.StringWidth(r.before+r.label+r.after))
		}
	}

	// Columns: indent, label, space, [period, space], bar.
	v.labelW = max(4, min(longest, LabelColumn(v.width)))
	if periods && v.width >= periodMin {
		for _, r := range all {
			if p := rowPeriod(r); p > 0 {
				v.periodW = max(v.periodW, ansi.StringWidth(formatDuration(p, v.ascii)))
			}
		}
	}
	v.barW = v.width - indent - v.labelW - 1
	if v.periodW > 0 {
		v.barW -= v.periodW + 1
	}
	if v.barW < minBar { // only when labels are very short and width tiny
		v.labelW -= minBar - v.barW
		v.barW = minBar
	}

	// Every line is fitted to the width; a row fits itself, knowing its
	// width (measuring every row again costs as much as drawing it).
	lines := v.fitLines(v.title(shown))
	axis := v.fit(v.p.dim.paint(v.axis()))
	lines = append(lines, axis)
	for i, s := range secs {
		if i > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, v.fit(v.p.bold.paint(printable.String(s.in.Name()))))
		for _, r := range s.rows {
			lines = append(lines, v.row(r))
		}
	}
	if len(all) > bottomAxisRows {
		lines = append(lines, axis)
	}
	if n := v.tl.Orphans; n > 0 {
		lines = append(lines, v.fit(fmt.Sprintf("%s not shown: %s parent is missing (the recording was cut short?)",
			plural(n, "span"), map[bool]string{true: "its", false: "their"}[n == 1])))
	}
	note := v.foldedNote(all)
	lines = append(lines, v.fitLines(note)...)
	return append(lines, v.fitLines(v.legend(len(note) > 0))...)
}

// LabelColumn is the widest label column of a timeline width columns
// wide, rows under an instance's heading (a group's rows are indented two
// more columns per level, inside it): two fifths of the width.
func LabelColumn(width int) int { return width*2/5 - indent }

// rowPeriod is the loop period a row shows: its lane's, or the one all of
// a folded group's lanes share.
func rowPeriod(r row) time.Duration {
	var p time.Duration
	for i, l := range r.lanes {
		if i > 0 && l.Period != p {
			return 0
		}
		p = l.Period
	}
	return p
}

// title is the recording's summary, wrapped at the width.
func (v *view) title(shown int) []string {
	tl := v.tl
	name := printable.String(tl.Scenario)
	if name == "" {
		name = "recording"
	}
	fields := []string{name, formatDuration(timeline.RoundDuration(tl.Duration()), v.ascii) + " simulated", plural(len(tl.Instances), "instance")}
	if total := tl.LaneCount(); shown < total {
		fields = append(fields, fmt.Sprintf("%d of %s", shown, plural(total, "lane")))
	} else {
		fields = append(fields, plural(total, "lane"))
	}
	fields = append(fields, plural(tl.Spans, "span"))
	if tl.Links > 0 {
		fields = append(fields, plural(tl.Links, "causal link"))
	}
	if tl.Orphans > 0 {
		fields = append(fields, plural(tl.Orphans, "orphan"))
	}
	if v.windowed {
		fields = append(fields, "window "+formatDuration(v.from, v.ascii)+" to "+formatDuration(v.to, v.ascii))
	}
	return wrapSep(fields, v.g.sep, v.width)
}

// axis is the row of tick labels, with "simulated time" in the label column.
func (v *view) axis() string {
	head := indent + v.labelW
	if v.periodW > 0 {
		head += v.periodW + 1
	}
	text := ""
	for _, t := range []string{"simulated time", "time"} {
		if ansi.StringWidth(t) <= head {
			text = t
			break
		}
	}
	return padLeft(text, head) + " " + rule(ticks(v.from, v.to, v.barW, v.ascii), v.barW, v.g)
}

// row draws a lane, a folded group or a group's heading: indent, label,
// period, bar; cut to the width if it is wider (only a width too narrow
// for a group's glyph and count makes it so).
func (v *view) row(r row) string {
	var b strings.Builder
	b.WriteString(spaces(indent + 2*r.depth))
	label := r.peers.fit(r, v.labelW-2*r.depth, v.g.ellipsis)
	labelStyle := v.p.label
	switch {
	case r.group != nil:
		labelStyle = v.p.group
	case r.lane.Goroutine == timeline.MainLane:
		labelStyle = v.p.main
	}
	lw := ansi.StringWidth(label)
	pad := max(v.labelW-2*r.depth-lw+1, 0)
	b.WriteString(labelStyle.paint(label) + spaces(pad))
	width := indent + 2*r.depth + lw + pad
	if v.periodW > 0 {
		p := ""
		if d := rowPeriod(r); d > 0 {
			p = formatDuration(d, v.ascii)
		}
		b.WriteString(padLeft(v.p.period.paint(p), v.periodW) + " ")
		width += v.periodW + 1
	}
	cells, ranks := []rune(nil), []int(nil)
	if len(r.lanes) > 0 { // not an unfolded group's heading
		cells, ranks = v.bar(r.lanes)
	}
	n := len(cells)
	for n > 0 && cells[n-1] == ' ' {
		n--
	}
	line := strings.TrimRight(b.String(), " ")
	if n > 0 {
		line = b.String() + v.p.paintCells(cells[:n], ranks[:n], v.g.open)
	}
	if width+n > v.width {
		return v.fit(line)
	}
	return line
}

// bar draws the cells of a lane, or of a folded group's lanes one over
// the other, each layer over the ones of lower rank: lifetime line <
// iteration in progress < start/end caps < calls < iterations < events <
// scenario actions. Iterations are counted per column across the lanes.
// It returns the cells and the rank of the layer that drew each (0 for
// blank).
func (v *view) bar(lanes []*timeline.Lane) ([]rune, []int) {
	g, w := v.g, v.barW
	cells := []rune(strings.Repeat(" ", w))
	rank := make([]int, w)
	set := func(c int, r rune, k int) {
		if c >= 0 && c < w && k >= rank[c] {
			cells[c], rank[c] = r, k
		}
	}
	in := func(t time.Duration) bool { return t >= v.from && t <= v.to }
	at := func(t time.Duration) int { return col(t, v.from, v.to, w) }
	off := v.tl.Offset
	counts := make([]int, w)
	v.lifetime(span(lanes), set)
	for _, l := range lanes {
		v.marks(l, set, counts)
	}
	for c, n := range counts {
		switch {
		case n == 1:
			set(c, g.iter, rankIteration)
		case n >= 2 && n <= 4:
			set(c, g.few, rankIteration)
		case n >= 5:
			set(c, g.many, rankIteration)
		}
	}
	for _, l := range lanes {
		for _, m := range l.Events {
			if t := off(m.Start); in(t) {
				set(at(t), g.event, rankEvent)
			}
		}
	}
	return cells, rank
}

// span is the life of a row's lanes: from the first start to the last end,
// open if one of them still runs.
func span(lanes []*timeline.Lane) *timeline.Lane {
	if len(lanes) == 1 {
		return lanes[0]
	}
	life := &timeline.Lane{Start: lanes[0].Start, End: lanes[0].End}
	for _, l := range lanes {
		if l.Start.Before(life.Start) {
			life.Start = l.Start
		}
		if l.End.After(life.End) {
			life.End = l.End
		}
		life.Open = life.Open || l.Open
	}
	return life
}

// lifetime draws a lane's life: a line from its start to its end, capped.
func (v *view) lifetime(l *timeline.Lane, set func(c int, r rune, k int)) {
	g := v.g
	in := func(t time.Duration) bool { return t >= v.from && t <= v.to }
	at := func(t time.Duration) int { return col(t, v.from, v.to, v.barW) }
	s, e := v.tl.Offset(l.Start), v.tl.Offset(l.End)
	if e < v.from || s > v.to {
		return
	}
	cs, ce := at(max(s, v.from)), at(min(e, v.to))
	for c := cs; c <= ce; c++ {
		set(c, g.line, rankLine)
	}
	switch {
	case in(s) && in(e) && cs == ce && !l.Open:
		set(cs, g.short, rankCap)
	default:
		if in(s) {
			set(cs, g.start, rankCap)
		}
		if in(e) && l.Open {
			set(ce, g.open, rankCap)
		} else if in(e) {
			set(ce, g.end, rankCap)
		}
	}
}

// marks draws a lane's iterations still running and its calls, and counts
// its iterations per column (the ones the recorder sampled out too).
func (v *view) marks(l *timeline.Lane, set func(c int, r rune, k int), counts []int) {
	g, w := v.g, v.barW
	in := func(t time.Duration) bool { return t >= v.from && t <= v.to }
	at := func(t time.Duration) int { return col(t, v.from, v.to, w) }
	off := v.tl.Offset
	s := off(l.Start)
	cell := (v.to - v.from) / time.Duration(w)
	for _, m := range l.Iterations {
		ms, me := off(m.Start), off(m.End)
		first := ms - time.Duration(m.Skipped)*l.Period // earliest sampled-out one
		if me < v.from || first > v.to {
			continue
		}
		if me-ms > cell && ms <= v.to { // lasts longer than a column: show it running
			c0, c1 := at(max(ms, v.from)), at(min(me, v.to))
			if in(ms) {
				c0++
			}
			for c := c0; c <= c1; c++ {
				set(c, g.busy, rankBusy)
			}
		}
		if in(ms) {
			counts[at(ms)]++
		}
		// Iterations the recorder sampled out ran one period apart before
		// this one; count them where they ran.
		for i := int64(1); i <= m.Skipped; i++ {
			t := ms - time.Duration(i)*l.Period
			if t < s {
				break
			}
			if in(t) {
				counts[at(t)]++
			}
		}
	}
	for _, m := range l.Calls {
		if t := off(m.Start); in(t) {
			if strings.HasPrefix(m.Name, "action/") {
				set(at(t), g.action, rankAction)
			} else {
				set(at(t), g.call, rankCall)
			}
		}
	}
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
