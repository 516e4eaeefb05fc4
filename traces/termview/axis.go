package termview

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// tickSteps are the axis steps to choose from, finest first.
var tickSteps = func() []time.Duration {
	var s []time.Duration
	for _, unit := range []time.Duration{time.Microsecond, time.Millisecond} {
		for _, n := range []time.Duration{1, 2, 5, 10, 20, 50, 100, 200, 500} {
			s = append(s, n*unit)
		}
	}
	for _, n := range []time.Duration{1, 2, 5, 10, 15, 30} {
		s = append(s, n*time.Second)
	}
	for _, n := range []time.Duration{1, 2, 5, 10, 15, 30} {
		s = append(s, n*time.Minute)
	}
	for _, n := range []time.Duration{1, 2, 3, 6, 12, 24, 48, 96, 192} {
		s = append(s, n*time.Hour)
	}
	return s
}()

type tick struct {
	col   int
	label string
}

// ticks chooses the finest step whose labels do not touch one another on a
// bar of width cells showing [from, to], and returns the ticks (multiples
// of the step from the start of the recording) that fall on the bar.
func ticks(from, to time.Duration, width int, ascii bool) []tick {
	for _, step := range tickSteps {
		if int64(to-from)/int64(step) > int64(width) { // more ticks than cells
			continue
		}
		var ts []tick
		for t := (from + step - 1) / step * step; t <= to; t += step {
			c := col(t, from, to, width)
			if c >= width {
				break
			}
			ts = append(ts, tick{c, formatDuration(t, ascii)})
		}
		ok := true
		for i := 1; i < len(ts); i++ {
			// The tick itself, its label and one rule character.
			if ts[i].col-ts[i-1].col < ansi.StringWidth(ts[i-1].label)+2 {
				ok = false
				break
			}
		}
		if ok {
			return ts
		}
	}
	return nil
}

// col is the cell of a bar of width cells showing [from, to] in which
// offset t falls; t == to falls in the last cell.
func col(t, from, to time.Duration, width int) int {
	if t >= to {
		if t == to {
			return width - 1
		}
		return width
	}
	span := to - from
	// Split the multiplication to avoid overflowing int64 for long windows.
	q, r := int64(t-from)/int64(span), int64(t-from)%int64(span)
	return int(q*int64(width) + r*int64(width)/int64(span))
}

// rule draws the axis: rule characters with a tick and its label at each
// tick. A label's characters (digits, units, "µ") are one cell each.
func rule(ts []tick, width int, g glyphs) string {
	cells := []rune(strings.Repeat(string(g.rule), width))
	for _, tk := range ts {
		cells[tk.col] = g.tick
		label := []rune(tk.label)
		if tk.col+1+ansi.StringWidth(tk.label) > width {
			continue // a label is shown whole or not at all
		}
		copy(cells[tk.col+1:], label)
	}
	return string(cells)
}

// formatDuration writes d the way the axis labels it: "0s", "500ms", "5s",
// "1m30s", "2m", "1h5m", "1.5s".
func formatDuration(d time.Duration, ascii bool) string {
	if d < 0 {
		return "-" + formatDuration(-d, ascii)
	}
	if d == 0 {
		return "0s"
	}
	if d < time.Second {
		switch {
		case d%time.Millisecond == 0:
			return strconv.FormatInt(int64(d/time.Millisecond), 10) + "ms"
		case d >= time.Millisecond:
			return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', -1, 64) + "ms"
		case d%time.Microsecond == 0 && ascii:
			return strconv.FormatInt(int64(d/time.Microsecond), 10) + "us"
		case d%time.Microsecond == 0:
			return strconv.FormatInt(int64(d/time.Microsecond), 10) + "µs"
		}
		return strconv.FormatInt(int64(d), 10) + "ns"
	}
	var b strings.Builder
	if h := d / time.Hour; h > 0 {
		b.WriteString(strconv.FormatInt(int64(h), 10) + "h")
		d -= h * time.Hour
	}
	if m := d / time.Minute; m > 0 {
		b.WriteString(strconv.FormatInt(int64(m), 10) + "m")
		d -= m * time.Minute
	}
	if d > 0 {
		// Exact decimals: d.Seconds() would print 1.402s as 1.4020000000000001s.
		b.WriteString(strconv.FormatInt(int64(d/time.Second), 10))
		if frac := d % time.Second; frac != 0 {
			b.WriteByte('.')
			b.WriteString(strings.TrimRight(strconv.FormatInt(int64(frac+time.Second), 10)[1:], "0"))
		}
		b.WriteByte('s')
	}
	return b.String()
}
