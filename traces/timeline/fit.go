package timeline

import "slices"

// Fitting labels to a column: every view shortens the labels of sibling
// lanes the same way, so that what tells them apart stays. Labels are
// measured and cut in terminal cells, as every view measures text
// (docs/design.md, "Terminal text: one width rule"): a label is a row of
// cells (cells.go), and a cut falls between two of them.

// FitAll shortens each label of a group to at most width cells, keeping
// what tells it from the others: it cuts what they share at the start or
// the end, and marks each cut with ellipsis ("pod-worker
// default/web-2078879897-pts6f" among its siblings becomes
// "pod-worker …pts6f" at 18 cells); a label that fits stays as it is. No
// two read the same: a label whose cut would read like another's is cut
// another way (both places that differ kept, then its middle, then its end).
// A cut through a wide character (中, an emoji) leaves it out, as
// ansi.Truncate does: the label is then a cell narrower than its width.
func FitAll(labels []string, width int, ellipsis string) []string {
	widths := make([]int, len(labels))
	for i := range widths {
		widths[i] = width
	}
	return FitEach(labels, widths, ellipsis)
}

// FitEach is FitAll with a width for each label (a group's heading leaves
// room for its glyph and its count).
func FitEach(labels []string, widths []int, ellipsis string) []string {
	if fitsAll(labels, widths) { // most groups: spell none
		return slices.Clone(labels)
	}
	all := make([]label, len(labels))
	for i, l := range labels {
		all[i] = label{l, spell(l)}
	}
	all = dropPrefixes(all, widths)
	f := fitter{ellipsis: ellipsis, e: width(ellipsis)}
	out := make([]string, len(labels))
	tries := make([]int, len(labels))
	for i, l := range all {
		out[i] = f.try(l, all, widths[i], 0)
	}
	for round := 1; round < 4; round++ {
		seen := map[string][]int{}
		for i, o := range out {
			seen[o] = append(seen[o], i)
		}
		clash := false
		for _, idx := range seen {
			if len(idx) < 2 {
				continue
			}
			// Cut again, told apart from the labels it was confused with.
			confused := make([]label, len(idx))
			for k, i := range idx {
				confused[k] = all[i]
			}
			for _, i := range idx {
				if out[i] != all[i].text { // a label that fits stays
					clash = true
					tries[i]++
					out[i] = f.try(all[i], confused, widths[i], tries[i])
				}
			}
		}
		if !clash {
			break
		}
	}
	return out
}

// fitsAll reports whether every label fits its width.
func fitsAll(labels []string, widths []int) bool {
	for i, l := range labels {
		if width(l) > widths[i] {
			return false
		}
	}
	return true
}

// label is a label and its cells.
type label struct {
	text  string
	cells []cell
}

// fitter cuts labels, marking each cut with the ellipsis, e cells wide.
type fitter struct {
	ellipsis string
	e        int
}

// dropPrefixes drops the component prefix of goroutine names
// ("informer/", "controller/") from every label that has it, when one of
// them does not fit: the catalog's names repeat it, and a label without it
// ("listener-run pods handler-1") still says what the lane is. All labels
// with one prefix lose it together, so siblings read alike.
func dropPrefixes(labels []label, widths []int) []label {
	// prefix is the number of cells of l's prefix: its first word up to
	// its first '/', if that is not the word's first cell.
	prefix := func(l label) int {
		for i, c := range l.cells {
			switch c.text {
			case " ":
				return 0
			case "/":
				if i == 0 {
					return 0
				}
				return i + 1
			}
		}
		return 0
	}
	long := map[string]bool{}
	for i, l := range labels {
		if p := prefix(l); p > 0 && len(l.cells) > widths[i] {
			long[text(l.cells[:p])] = true
		}
	}
	if len(long) == 0 {
		return labels
	}
	out := make([]label, len(labels))
	seen := map[string]bool{}
	for i, l := range labels {
		if p := prefix(l); p > 0 && long[text(l.cells[:p])] {
			l = label{text(l.cells[p:]), l.cells[p:]}
		}
		out[i] = l
		seen[l.text] = true
	}
	if len(seen) < len(labels) { // two would read the same: keep them all
		return labels
	}
	return out
}

// try is the try-th way to cut l: where it agrees with its group (0),
// keeping both places where it differs from the labels it was confused
// with, else its middle (1), its middle (2), its end (3 and after).
func (f fitter) try(l label, group []label, width, try int) string {
	r, e := l.cells, f.e
	if len(r) <= width {
		return l.text
	}
	if width <= e {
		return text(r[:max(width, 0)])
	}
	switch try {
	case 0:
		return f.diff(l, group, width)
	case 1:
		if s, ok := f.two(l, group, width); ok {
			return s
		}
		fallthrough
	case 2:
		tail := (width - e) / 2
		head := width - e - tail
		return text(r[:head]) + f.ellipsis + text(r[len(r)-tail:])
	}
	return f.ellipsis + text(r[len(r)-(width-e):])
}

// two keeps the two places where l differs from its group, the first and
// the last ("…pop…dler-1" for "informer/listener-pop pods handler-1" among
// the other listeners).
func (f fitter) two(l label, group []label, width int) (string, bool) {
	r, e := l.cells, f.e
	first, last := len(r), -1
	for _, o := range group {
		if o.text == l.text {
			continue
		}
		if p := commonPrefix(r, o.cells); p < len(r) {
			first, last = min(first, p), max(last, p)
		}
	}
	if last < 0 {
		return "", false
	}
	for first > 0 && !r[first-1].isSpace() && !r[first-1].isSeparator() {
		first--
	}
	tailFrom := last
	for tailFrom > first && !r[tailFrom-1].isSeparator() {
		tailFrom--
	}
	tail := len(r) - tailFrom
	room := width - 2*e - tail
	if room < 1 {
		tail = width - 2*e - 1
		room = 1
		if tail < 1 {
			return "", false
		}
	}
	word := first
	for word < len(r) && word-first < room && r[word].text != " " {
		word++
	}
	if len(r)-tail <= word { // the two places are one: another cut does better
		return "", false
	}
	return f.ellipsis + text(r[first:word]) + f.ellipsis + text(r[len(r)-tail:]), true
}

// diff cuts a label too long for width (and width wider than the
// ellipsis) where it agrees with its group.
func (f fitter) diff(l label, group []label, width int) string {
	r, e := l.cells, f.e
	// The cells of the first word and the space after it.
	head := 0
	if i := firstSpace(r); i > 0 {
		head = i + 1
	}
	// What every label of the group starts with is said once, by the
	// group: cut it, keeping the first word ("pod-worker …pts6f").
	if p := sharedPrefix(l, group); p > 0 {
		rest := r[p:]
		h := head
		if h >= p {
			h = 0
		}
		if h+e+len(rest) <= width {
			return text(r[:h]) + f.ellipsis + text(rest)
		}
		if e+len(rest) <= width {
			return f.ellipsis + text(rest)
		}
	}
	// [lo, hi) is the part of the label no other label shares from its
	// start or from its end.
	lo, hi := 0, len(r)
	for _, o := range group {
		if o.text == l.text {
			continue
		}
		or := o.cells
		p := commonPrefix(r, or)
		s := 0
		for s < len(r)-p && s < len(or)-p && r[len(r)-1-s] == or[len(or)-1-s] {
			s++
		}
		lo = max(lo, p)
		hi = min(hi, len(r)-s)
	}
	if hi < lo { // the label is another's prefix or suffix
		hi = lo
	}
	word := lo // the start of the word that differs
	for word > 0 && !r[word-1].isSeparator() {
		word--
	}
	if hi <= width-e || word == 0 { // the difference is near the start: cut the end
		return text(r[:width-e]) + f.ellipsis
	}
	// Cut before the word that differs, keeping the first word when there
	// is room, as a reminder of what the lane is: "listener-run …handler-2".
	for _, sep := range []func(cell) bool{cell.isSpace, cell.isSeparator} {
		from := lo
		for from > 0 && !sep(r[from-1]) {
			from--
		}
		if from < head { // the first word differs: keep it whole
			from = head
		}
		rest := len(r) - from
		switch {
		case head > 0 && from > head && head+e+rest <= width:
			return text(r[:head]) + f.ellipsis + text(r[from:])
		case e+rest <= width:
			return f.ellipsis + text(r[from:])
		}
	}
	// The part that differs is long: keep its start.
	if lo+width-2*e < len(r) && width > 2*e {
		return f.ellipsis + text(r[lo:lo+width-2*e]) + f.ellipsis
	}
	return f.ellipsis + text(r[len(r)-(width-e):])
}

// sharedPrefix is the length in cells of the start that l shares with
// every other label of its group, up to a separator.
func sharedPrefix(l label, group []label) int {
	r := l.cells
	n, others := len(r), 0
	for _, o := range group {
		if o.text == l.text {
			continue
		}
		others++
		n = min(n, commonPrefix(r, o.cells))
	}
	if others == 0 {
		return 0
	}
	for n > 0 && !r[n-1].isSeparator() {
		n--
	}
	return n
}

// commonPrefix is how many cells a and b share from their start.
func commonPrefix(a, b []cell) int {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	return p
}
