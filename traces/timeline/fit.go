package timeline

import "strings"

// Fitting labels to a column: every view shortens the labels of sibling
// lanes the same way, so that what tells them apart stays.

// FitAll shortens each label of a group to at most width runes, keeping
// what tells it from the others: it cuts what they share at the start or
// the end, and marks each cut with ellipsis ("pod-worker
// default/web-2078879897-pts6f" among its siblings becomes
// "pod-worker …pts6f" at 18 runes); a label that fits stays as it is. No
// two read the same: a label whose cut would read like another's is cut
// another way (both places that differ kept, then its middle, then its end).
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
	labels = dropPrefixes(labels, widths)
	out := make([]string, len(labels))
	tries := make([]int, len(labels))
	for i, l := range labels {
		out[i] = fitTry(l, labels, widths[i], ellipsis, 0)
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
			confused := make([]string, len(idx))
			for k, i := range idx {
				confused[k] = labels[i]
			}
			for _, i := range idx {
				if out[i] != labels[i] { // a label that fits stays
					clash = true
					tries[i]++
					out[i] = fitTry(labels[i], confused, widths[i], ellipsis, tries[i])
				}
			}
		}
		if !clash {
			break
		}
	}
	return out
}

// dropPrefixes drops the component prefix of goroutine names
// ("informer/", "controller/") from every label that has it, when one of
// them does not fit: the catalog's names repeat it, and a label without it
// ("listener-run pods handler-1") still says what the lane is. All labels
// with one prefix lose it together, so siblings read alike.
func dropPrefixes(labels []string, widths []int) []string {
	prefix := func(l string) string {
		first, _, _ := strings.Cut(l, " ")
		if i := strings.IndexByte(first, '/'); i > 0 {
			return l[:i+1]
		}
		return ""
	}
	long := map[string]bool{}
	for i, l := range labels {
		if p := prefix(l); p != "" && len([]rune(l)) > widths[i] {
			long[p] = true
		}
	}
	if len(long) == 0 {
		return labels
	}
	out := make([]string, len(labels))
	seen := map[string]bool{}
	for i, l := range labels {
		if p := prefix(l); long[p] {
			l = strings.TrimPrefix(l, p)
		}
		out[i] = l
		seen[l] = true
	}
	if len(seen) < len(labels) { // two would read the same: keep them all
		return labels
	}
	return out
}

// fitTry is the try-th way to cut label: where it agrees with its group
// (0), keeping both places where it differs from the labels it was
// confused with, else its middle (1), its middle (2), its end (3 and after).
func fitTry(label string, group []string, width int, ellipsis string, try int) string {
	r := []rune(label)
	e := len([]rune(ellipsis))
	if len(r) <= width {
		return label
	}
	if width <= e {
		return string(r[:max(width, 0)])
	}
	switch try {
	case 0:
		return fitDiff(label, group, width, ellipsis)
	case 1:
		if f, ok := fitTwo(label, group, width, ellipsis); ok {
			return f
		}
		fallthrough
	case 2:
		tail := (width - e) / 2
		head := width - e - tail
		return string(r[:head]) + ellipsis + string(r[len(r)-tail:])
	}
	return ellipsis + string(r[len(r)-(width-e):])
}

// fitTwo keeps the two places where label differs from its group, the
// first and the last ("…pop…dler-1" for "informer/listener-pop pods
// handler-1" among the other listeners).
func fitTwo(label string, group []string, width int, ellipsis string) (string, bool) {
	r := []rune(label)
	e := len([]rune(ellipsis))
	first, last := len(r), -1
	for _, o := range group {
		if o == label {
			continue
		}
		if p := commonPrefix(r, []rune(o)); p < len(r) {
			first, last = min(first, p), max(last, p)
		}
	}
	if last < 0 {
		return "", false
	}
	for first > 0 && !isSpace(r[first-1]) && !isSeparator(r[first-1]) {
		first--
	}
	tailFrom := last
	for tailFrom > first && !isSeparator(r[tailFrom-1]) {
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
	for word < len(r) && word-first < room && r[word] != ' ' {
		word++
	}
	if len(r)-tail <= word { // the two places are one: another cut does better
		return "", false
	}
	return ellipsis + string(r[first:word]) + ellipsis + string(r[len(r)-tail:]), true
}

// fitDiff cuts a label too long for width (and width wider than the
// ellipsis) where it agrees with its group.
func fitDiff(label string, group []string, width int, ellipsis string) string {
	r := []rune(label)
	e := len([]rune(ellipsis))
	// What every label of the group starts with is said once, by the
	// group: cut it, keeping the first word ("pod-worker …pts6f").
	if p := sharedPrefix(label, group); p > 0 {
		rest := r[p:]
		head := 0
		if i := strings.IndexByte(label, ' '); i > 0 && len([]rune(label[:i]))+1 < p {
			head = len([]rune(label[:i])) + 1
		}
		if head+e+len(rest) <= width {
			return string(r[:head]) + ellipsis + string(rest)
		}
		if e+len(rest) <= width {
			return ellipsis + string(rest)
		}
	}
	// [lo, hi) is the part of the label no other label shares from its
	// start or from its end.
	lo, hi := 0, len(r)
	for _, o := range group {
		if o == label {
			continue
		}
		or := []rune(o)
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
	for word > 0 && !isSeparator(r[word-1]) {
		word--
	}
	if hi <= width-e || word == 0 { // the difference is near the start: cut the end
		return string(r[:width-e]) + ellipsis
	}
	// Cut before the word that differs, keeping the first word when there
	// is room, as a reminder of what the lane is: "listener-run …handler-2".
	head := 0
	if i := strings.IndexByte(label, ' '); i > 0 {
		head = len([]rune(label[:i])) + 1
	}
	for _, sep := range []func(rune) bool{isSpace, isSeparator} {
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
			return string(r[:head]) + ellipsis + string(r[from:])
		case e+rest <= width:
			return ellipsis + string(r[from:])
		}
	}
	// The part that differs is long: keep its start.
	if lo+width-2*e < len(r) && width > 2*e {
		return ellipsis + string(r[lo:lo+width-2*e]) + ellipsis
	}
	return ellipsis + string(r[len(r)-(width-e):])
}

func isSpace(c rune) bool { return c == ' ' || c == '/' }

// sharedPrefix is the length in runes of the start that label shares with
// every other label of its group, up to a separator.
func sharedPrefix(label string, group []string) int {
	r := []rune(label)
	n, others := len(r), 0
	for _, o := range group {
		if o == label {
			continue
		}
		others++
		n = min(n, commonPrefix(r, []rune(o)))
	}
	if others == 0 {
		return 0
	}
	for n > 0 && !isSeparator(r[n-1]) {
		n--
	}
	return n
}

func isSeparator(c rune) bool {
	return c == ' ' || c == '/' || c == '-' || c == '.' || c == '_' || c == ':'
}

// commonPrefix is how many runes a and b share from their start.
func commonPrefix(a, b []rune) int {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	return p
}
