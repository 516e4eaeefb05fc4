package termview

import (
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubeloom/kubeloom/internal/printable"
	"github.com/kubeloom/kubeloom/sim/catalog/locale"
	"github.com/kubeloom/kubeloom/traces/podstartup"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// LatencyOptions say how Latency writes its table.
type LatencyOptions struct {
	// Width is the columns to fit; 0: the terminal's, and to a file or
	// pipe the table is written whole.
	Width int
	ASCII bool   // arrows as "->"
	Lang  string // a language of sim/catalog/locale; "" is English
}

// intervalKeys are the words of podstartup.Intervals, in their order.
var intervalKeys = []string{"createScheduled", "scheduledRunning", "createRunning"}

// Latency writes the pod startup figures of r to w: a title, then per row
// (all pods, then each kubelet) and interval the pods that have both of its
// moments and the p50, p90, p99 and max of how long it took, then what is
// not in the figures (static pods, pods with no create, pods bound at
// their create, pods never bound, never Running). To fit the width the instance and interval names are
// shortened, then the P90, P50 and MAX columns left out, in that order:
// P99 is the figure kubernetes#3954 set a goal for. A number is never cut
// but at a width below what P99 alone needs.
func Latency(w io.Writer, r *podstartup.Report, opt LatencyOptions) error {
	l := locale.Get(opt.Lang)
	word := func(key string) string { return l.Text("page.latency." + key) }
	fit := opt.Width > 0 || isTerminal(w)
	width := opt.Width
	if width <= 0 {
		width = TerminalWidth(w)
	}
	ellipsis := "…"
	if opt.ASCII {
		ellipsis = "~"
	}
	lines := []string{l.Format("page.latency.title", locale.Args{"pods": len(r.Pods)})}
	if len(r.Pods) == 0 {
		lines = append(lines, word("none"))
		return write(w, lines)
	}
	cells := [][]string{{
		strings.ToUpper(word("instance")), strings.ToUpper(word("interval")), strings.ToUpper(word("pods")),
		"P50", "P90", "P99", "MAX",
	}}
	rows := append([]podstartup.Row{r.Overall}, r.Instances...)
	for _, row := range rows {
		name := printable.String(row.Instance)
		if row.Instance == "" {
			name = word("all")
		}
		for k, i := range podstartup.Intervals {
			interval := word(intervalKeys[k])
			if opt.ASCII {
				interval = strings.ReplaceAll(interval, "→", "->")
			}
			s := row.Stats[i]
			c := []string{"", interval, strconv.Itoa(s.N), "-", "-", "-", "-"}
			if k == 0 {
				c[0] = name
			}
			if s.N > 0 {
				for j, d := range []time.Duration{s.P50, s.P90, s.P99, s.Max} {
					c[3+j] = formatDuration(timeline.RoundDuration(d), opt.ASCII)
				}
			}
			cells = append(cells, c)
		}
	}
	widths := make([]int, len(cells[0]))
	for _, row := range cells {
		for i, c := range row {
			widths[i] = max(widths[i], ansi.StringWidth(c))
		}
	}
	keep := []int{0, 1, 2, 3, 4, 5, 6}
	if fit {
		keep = fitLatency(cells, widths, width, ellipsis)
	}
	for _, row := range cells {
		var b strings.Builder
		for k, i := range keep {
			if k > 0 {
				b.WriteString("  ")
			}
			if i < 2 {
				b.WriteString(row[i] + spaces(widths[i]-ansi.StringWidth(row[i])))
			} else {
				b.WriteString(padLeft(row[i], widths[i]))
			}
		}
		lines = append(lines, strings.TrimRight(b.String(), " "))
	}
	for _, n := range []struct {
		key string
		n   int
	}{{"static", r.Static}, {"noCreate", r.NoCreate}, {"boundAtCreate", r.BoundAtCreate}, {"notScheduled", r.NotScheduled}, {"notRunning", r.NotRunning}} {
		if n.n > 0 {
			lines = append(lines, l.Format("page.latency."+n.key, locale.Args{"n": n.n}))
		}
	}
	if fit {
		for i, line := range lines {
			lines[i] = ansi.Truncate(line, width, ellipsis)
		}
	}
	return write(w, lines)
}

// fitLatency narrows the table's name columns (the instance to 6 cells,
// the interval to 12) and then
// leaves out columns until it fits width; it returns the columns kept.
func fitLatency(cells [][]string, widths []int, width int, ellipsis string) []int {
	keep := []int{0, 1, 2, 3, 4, 5, 6}
	total := func() int {
		n := 2 * (len(keep) - 1)
		for _, i := range keep {
			n += widths[i]
		}
		return n
	}
	narrow := func(col, floor int) {
		n := min(total()-width, max(widths[col]-floor, 0))
		if n <= 0 {
			return
		}
		widths[col] -= n
		// The instances are told apart by what differs (node-10, node-11);
		// the three intervals by how they begin, and the heading is cut.
		var names []string
		for _, row := range cells[1:] {
			if row[col] != "" && !slices.Contains(names, row[col]) {
				names = append(names, row[col])
			}
		}
		short := map[string]string{}
		fitted := timeline.FitAll(names, widths[col], ellipsis)
		for k, name := range names {
			short[name] = fitted[k]
			if col == 1 {
				short[name] = ansi.Truncate(name, widths[col], ellipsis)
			}
		}
		cells[0][col] = ansi.Truncate(cells[0][col], widths[col], ellipsis)
		for _, row := range cells[1:] {
			if row[col] != "" {
				row[col] = short[row[col]]
			}
		}
	}
	narrow(0, 6)
	narrow(1, 12)
	for _, drop := range []int{4, 3, 6} { // P90, P50, MAX
		if total() <= width {
			break
		}
		keep = slices.DeleteFunc(keep, func(i int) bool { return i == drop })
	}
	return keep
}
