package timeline

import (
	"bytes"
	"cmp"
	"slices"
	"time"

	"github.com/kubeloom/kubeloom/traces"
)

// The orders that make Build's result independent of the order of the
// file: the canonical order of spans (by start, then IDs, end and name),
// sorted on all CPUs for a large recording; the order of a lane's marks;
// and the natural order of names (node-2 before node-10).

// canonicalOrder returns the indexes of spans sorted by compareSpans
// (parts sorted in parallel, then merged, for a large recording).
func (b *builder) canonicalOrder() []int32 {
	spans := b.spans
	order := make([]int32, len(spans))
	for i := range order {
		order[i] = int32(i)
	}
	if len(spans) >= b.spansPerGoroutine() {
		return b.sortedByKey(order)
	}
	slices.SortFunc(order, func(a, b int32) int { return compareSpans(&spans[a], &spans[b]) })
	return order
}

// sortKey orders spans by start cheaply: comparing two integers is
// faster than compareSpans, which only settles ties.
type sortKey struct {
	sec  int64
	nsec int32
	i    int32
}

// sortedByKey sorts order (0..n-1) as canonicalOrder does, on all CPUs.
func (b *builder) sortedByKey(order []int32) []int32 {
	spans := b.spans
	w := b.workers(len(spans))
	keys := make([]sortKey, len(spans))
	parallel(len(spans), w, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			t := spans[i].Start
			keys[i] = sortKey{t.Unix(), int32(t.Nanosecond()), int32(i)}
		}
	})
	cmpKeys := func(a, b sortKey) int {
		if a.sec != b.sec {
			return cmp.Compare(a.sec, b.sec)
		}
		if a.nsec != b.nsec {
			return cmp.Compare(a.nsec, b.nsec)
		}
		return compareSpans(&spans[a.i], &spans[b.i])
	}
	// Sort parts in parallel, then merge them (the last merge straight
	// into order).
	parallel(len(keys), w, func(_, lo, hi int) { slices.SortFunc(keys[lo:hi], cmpKeys) })
	for width := 1; width < w; width *= 2 {
		if 2*width >= w {
			mergeInto(order, keys[:len(keys)*width/w], keys[len(keys)*width/w:], cmpKeys)
			return order
		}
		merged := make([]sortKey, 0, len(keys))
		for p := 0; p < w; p += 2 * width {
			lo, mid, hi := len(keys)*p/w, len(keys)*min(p+width, w)/w, len(keys)*min(p+2*width, w)/w
			a, b := keys[lo:mid], keys[mid:hi]
			for len(a) > 0 && len(b) > 0 {
				if cmpKeys(b[0], a[0]) < 0 {
					merged, b = append(merged, b[0]), b[1:]
				} else {
					merged, a = append(merged, a[0]), a[1:]
				}
			}
			merged = append(append(merged, a...), b...)
		}
		keys = merged
	}
	for i, k := range keys {
		order[i] = k.i
	}
	return order
}

// mergeInto writes the indexes of the sorted keys a and b, merged, to order.
func mergeInto(order []int32, a, b []sortKey, cmpKeys func(a, b sortKey) int) {
	n := 0
	for len(a) > 0 && len(b) > 0 {
		if cmpKeys(b[0], a[0]) < 0 {
			order[n], b = b[0].i, b[1:]
		} else {
			order[n], a = a[0].i, a[1:]
		}
		n++
	}
	for _, k := range a {
		order[n] = k.i
		n++
	}
	for _, k := range b {
		order[n] = k.i
		n++
	}
}

// compareSpans is the canonical order: by start, trace ID, span ID, end
// and name.
func compareSpans(a, b *traces.Span) int {
	if c := a.Start.Compare(b.Start); c != 0 {
		return c
	}
	if c := bytes.Compare(a.TraceID[:], b.TraceID[:]); c != 0 {
		return c
	}
	if c := bytes.Compare(a.SpanID[:], b.SpanID[:]); c != 0 {
		return c
	}
	if c := a.End.Compare(b.End); c != 0 {
		return c
	}
	return cmp.Compare(a.Name, b.Name)
}

// spanEnd is the span's end, or its start if the end is missing or earlier.
func spanEnd(s *traces.Span) time.Time {
	if s.End.Before(s.Start) {
		return s.Start
	}
	return s.End
}

func sortMarks(m []Mark) {
	compare := func(a, b Mark) int {
		if c := a.Start.Compare(b.Start); c != 0 {
			return c
		}
		if c := bytes.Compare(a.SpanID[:], b.SpanID[:]); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	}
	// Marks come in the canonical order, sorted by start: often there is
	// nothing to do.
	if !slices.IsSortedFunc(m, compare) {
		slices.SortStableFunc(m, compare)
	}
}
