package timeline

import (
	"math"
	"reflect"
	"slices"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
)

// A lane from its spans: its lifetime (or, when the lifetime span is
// missing, what its other spans say of the goroutine), its tally and its
// marks. Lanes are independent of one another, so they are built in
// parallel.

// goroutineAttrs are copied from an open lane's iteration spans into its
// Attributes, standing in for the missing lifetime span.
var goroutineAttrs = append([]string{
	catalog.AttrGoroutineName, catalog.AttrGoroutineKind, catalog.AttrGoroutinePeriod,
	catalog.AttrCodeFunction, catalog.AttrCodeFile,
}, qualifiers...)

// buildLanes builds the lane of each acc, on all CPUs for a large
// recording. Each goroutine takes lanes of about as many spans as the
// others': a lane holds one span (a goroutine that ran once) or the
// thousands of a fast loop's iterations.
func (b *builder) buildLanes(accs []*laneAcc) []*Lane {
	built := make([]*Lane, len(accs))
	// first[i] counts the spans of the lanes before lane i.
	first := make([]int, len(accs)+1)
	for i, acc := range accs {
		first[i+1] = first[i] + 1 + len(acc.members)
	}
	parallel(first[len(accs)], b.workers(len(b.spans)), func(_, lo, hi int) {
		i, _ := slices.BinarySearch(first[:len(accs)], lo)
		for ; i < len(accs) && first[i] < hi; i++ {
			built[i] = b.buildLane(accs[i])
		}
	})
	return built
}

func (b *builder) buildLane(acc *laneAcc) *Lane {
	spans, info := b.spans, b.info
	l := &Lane{Goroutine: acc.name}
	members := acc.members
	if acc.lifetime >= 0 {
		s := &spans[acc.lifetime]
		l.SpanID = s.SpanID
		l.Kind = s.Attributes.String(catalog.AttrGoroutineKind)
		l.Attributes = s.Attributes
		l.Causes = causes(s)
		l.Start, l.End = s.Start, spanEnd(s)
		// A live view's snapshot (kubeloom serve) cuts a goroutine still
		// running at its instant: it has not returned, as if its
		// lifetime span were missing.
		l.Open, _ = s.Attributes[catalog.AttrRunning].(bool)
		if b.marks {
			l.Events = appendEvents(l.Events, s)
		}
	} else {
		l.Attributes = openLaneAttributes(spans, info, members)
		for n, i := range members {
			if s := &spans[i]; n == 0 || s.Start.Before(l.Start) {
				l.Start = s.Start
			}
			if end := spanEnd(&spans[i]); end.After(l.End) {
				l.End = end
			}
		}
		if acc.key.name == "" { // the lifetime span is missing
			l.Open = true
			l.End = b.tl.End
			l.Kind = l.Attributes.String(catalog.AttrGoroutineKind)
		} else if acc.key.name == MainLane {
			l.Kind = catalog.KindMain
		}
	}
	if p, ok := l.Attributes.Float(catalog.AttrGoroutinePeriod); ok && p > 0 {
		l.Period = time.Duration(math.Round(p * float64(time.Second)))
	}
	iterations, events := 0, len(l.Events)
	for _, i := range members {
		if in := &info[i]; in.hasIter {
			iterations++
			l.Tally.Skipped += in.skipped
		}
		events += len(spans[i].Events)
	}
	l.Tally.Iterations, l.Tally.Calls = iterations, len(members)-iterations
	if !b.marks {
		return l
	}
	if events > 0 {
		l.Events = slices.Grow(l.Events, events-len(l.Events))
	}
	l.Iterations = make([]Mark, 0, iterations)
	l.Calls = make([]Mark, 0, len(members)-iterations)
	for _, i := range members {
		s := &spans[i]
		m := Mark{Name: s.Name, Start: s.Start, End: spanEnd(s), SpanID: s.SpanID, Attributes: s.Attributes, Causes: causes(s)}
		if in := &info[i]; in.hasIter {
			m.Iteration = in.iter
			m.Skipped = in.skipped
			l.Iterations = append(l.Iterations, m)
		} else {
			l.Calls = append(l.Calls, m)
		}
		l.Events = appendEvents(l.Events, s)
	}
	if len(l.Iterations) == 0 {
		l.Iterations = nil
	}
	if len(l.Calls) == 0 {
		l.Calls = nil
	}
	sortMarks(l.Iterations)
	sortMarks(l.Calls)
	sortMarks(l.Events)
	return l
}

// openLaneAttributes stands in for the missing lifetime span of an open
// lane: the goroutine attributes its iterations carry. Only spans of the
// goroutine itself (iterations carry goroutine.name) describe it, and only
// values they all agree on: an iteration's own k8s.object.key (the object
// an OnAdd handled) is not the goroutine's. An object key is taken only
// when at least two iterations agree on it, since one iteration cannot
// tell its own key from its goroutine's.
func openLaneAttributes(spans []traces.Span, info []spanInfo, members []int) traces.Attributes {
	attrs := traces.Attributes{}
	count := map[string]int{} // iterations that carry the attribute
	varies := map[string]bool{}
	n := 0 // iterations
	for _, i := range members {
		if info[i].goroutine == "" {
			continue
		}
		n++
		for _, k := range goroutineAttrs {
			v, ok := spans[i].Attributes[k]
			if !ok {
				continue
			}
			if count[k] == 0 {
				attrs[k] = v
			} else if !reflect.DeepEqual(attrs[k], v) {
				varies[k] = true
			}
			count[k]++
		}
	}
	for k := range attrs {
		if varies[k] || count[k] < n || k == catalog.AttrObjectKey && n < 2 {
			delete(attrs, k)
		}
	}
	return attrs
}

// causes returns the span IDs s links to as its causes.
func causes(s *traces.Span) []trace.SpanID {
	var ids []trace.SpanID
	for _, l := range s.Links {
		if l.Attributes.String(catalog.AttrLink) == catalog.LinkCause {
			ids = append(ids, l.SpanID)
		}
	}
	return ids
}

func appendEvents(marks []Mark, s *traces.Span) []Mark {
	for _, e := range s.Events {
		marks = append(marks, Mark{Name: e.Name, Start: e.Time, End: e.Time, SpanID: s.SpanID, Attributes: e.Attributes})
	}
	return marks
}
