package timeline

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
)

// qualifiers are the attributes that tell apart goroutines of one instance
// that share a catalog name (two handlers' informer/listener-pop), in the
// order they appear in a label.
var qualifiers = []string{
	catalog.AttrInformer,
	catalog.AttrResource,
	catalog.AttrHandler,
	catalog.AttrNode,
	catalog.AttrObjectKey,
	catalog.AttrEventComponent,
	catalog.AttrWorker,
	catalog.AttrPodSource,
	catalog.AttrContainer,
	catalog.AttrProbeType,
}

// goroutineAttrs are copied from an open lane's iteration spans into its
// Attributes, standing in for the missing lifetime span.
var goroutineAttrs = append([]string{
	catalog.AttrGoroutineName, catalog.AttrGoroutineKind, catalog.AttrGoroutinePeriod,
	catalog.AttrCodeFunction, catalog.AttrCodeFile,
}, qualifiers...)

type instKey struct{ service, id string }

// laneKey identifies a lane while building: a lifetime span (trace, span),
// the missing lifetime span an open lane's spans point at (trace, span), or
// an instance's lane of spans outside any goroutine (name).
type laneKey struct {
	inst        instKey
	trace, span string
	name        string
}

type spanKey struct{ trace, span string }

type laneAcc struct {
	key      laneKey
	name     string // goroutine name
	lifetime int    // index of the lifetime span, -1 if none
	members  []int  // indexes of the lane's other spans
}

// Build arranges a recording into a Timeline. It does not modify spans and
// does not depend on their order: the result is the same for any
// permutation of the same spans.
//
// A span belongs to the lane of its nearest ancestor (itself included) that
// is a goroutine lifetime span (it has goroutine.kind). A span with no such
// ancestor belongs to its instance's main lane, or to a lane named after the
// nearest goroutine.name on its path. When a parent is missing (a recording
// cut short loses the spans that had not ended, such as the lifetime of a
// goroutine that was still running) the span goes to an open lane for the
// missing parent if its path carries a goroutine.name (iteration spans do),
// and is counted as an orphan otherwise.
func Build(spans []traces.Span) *Timeline {
	tl := &Timeline{Spans: len(spans)}
	if len(spans) == 0 {
		return tl
	}
	// Work in a canonical order so that the result does not depend on the
	// order of the file (the exporter writes spans as they end).
	order := make([]int, len(spans))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return compareSpans(&spans[a], &spans[b]) })

	index := make(map[spanKey]int, len(spans))
	for _, i := range order {
		s := &spans[i]
		k := spanKey{s.TraceID, s.SpanID}
		if _, dup := index[k]; !dup {
			index[k] = i
		}
		if tl.Scenario == "" {
			tl.Scenario = s.Resource.String(catalog.AttrScenario)
		}
		if !s.Start.IsZero() && (tl.Start.IsZero() || s.Start.Before(tl.Start)) {
			tl.Start = s.Start
		}
		if end := spanEnd(s); end.After(tl.End) {
			tl.End = end
		}
		for _, l := range s.Links {
			if l.Attributes.String(catalog.AttrLink) == catalog.LinkCause {
				tl.Links++
			}
		}
	}
	if tl.End.Before(tl.Start) {
		tl.End = tl.Start
	}

	lanes := map[laneKey]*laneAcc{}
	var laneOrder []*laneAcc
	for _, i := range order {
		key, name, ok := resolve(spans, index, i)
		if !ok {
			tl.Orphans++
			continue
		}
		acc := lanes[key]
		if acc == nil {
			acc = &laneAcc{key: key, name: name, lifetime: -1}
			lanes[key] = acc
			laneOrder = append(laneOrder, acc)
		}
		if key.span == spans[i].SpanID && key.trace == spans[i].TraceID && isLifetime(&spans[i]) {
			acc.lifetime = i
		} else {
			acc.members = append(acc.members, i)
		}
	}

	instances := map[instKey]*Instance{}
	for _, acc := range laneOrder {
		in := instances[acc.key.inst]
		if in == nil {
			in = &Instance{Service: acc.key.inst.service, ID: acc.key.inst.id}
			instances[acc.key.inst] = in
			tl.Instances = append(tl.Instances, in)
		}
		in.Lanes = append(in.Lanes, buildLane(tl, spans, acc))
	}
	slices.SortFunc(tl.Instances, func(a, b *Instance) int {
		if c := naturalCompare(a.Service, b.Service); c != 0 {
			return c
		}
		return naturalCompare(a.ID, b.ID)
	})
	for _, in := range tl.Instances {
		labelLanes(in.Lanes)
		slices.SortStableFunc(in.Lanes, func(a, b *Lane) int {
			if c := a.Start.Compare(b.Start); c != 0 {
				return c
			}
			return naturalCompare(a.Label, b.Label)
		})
	}
	return tl
}

// resolve finds the lane of span i and the goroutine name for it.
func resolve(spans []traces.Span, index map[spanKey]int, i int) (laneKey, string, bool) {
	inst := instanceOf(&spans[i])
	name := ""
	cur := i
	for range len(spans) + 1 { // bounded: a cycle of parents is an orphan
		s := &spans[cur]
		if name == "" {
			name = s.Attributes.String(catalog.AttrGoroutineName)
		}
		if isLifetime(s) {
			if name == "" {
				name = s.Name
			}
			return laneKey{inst: inst, trace: s.TraceID, span: s.SpanID}, name, true
		}
		if s.ParentSpanID == "" {
			return rootLane(inst, name)
		}
		p, ok := index[spanKey{s.TraceID, s.ParentSpanID}]
		if !ok {
			if name == "" {
				return laneKey{}, "", false
			}
			return laneKey{inst: inst, trace: s.TraceID, span: s.ParentSpanID}, name, true
		}
		if instanceOf(&spans[p]) != inst {
			// Context propagated from another component: here the span
			// runs outside any goroutine we know of.
			return rootLane(inst, name)
		}
		cur = p
	}
	return laneKey{}, "", false
}

func rootLane(inst instKey, name string) (laneKey, string, bool) {
	if name == "" {
		name = MainLane
	}
	return laneKey{inst: inst, name: name}, name, true
}

func buildLane(tl *Timeline, spans []traces.Span, acc *laneAcc) *Lane {
	l := &Lane{Goroutine: acc.name}
	members := acc.members
	if acc.lifetime >= 0 {
		s := &spans[acc.lifetime]
		l.SpanID = s.SpanID
		l.Kind = s.Attributes.String(catalog.AttrGoroutineKind)
		l.Attributes = s.Attributes
		l.Start, l.End = s.Start, spanEnd(s)
		l.Events = appendEvents(l.Events, s)
	} else {
		l.Attributes = traces.Attributes{}
		for _, i := range members {
			// Only spans of the goroutine itself (iterations carry
			// goroutine.name) describe it; a call's k8s.object.key does not.
			if spans[i].Attributes.String(catalog.AttrGoroutineName) == "" {
				continue
			}
			for _, k := range goroutineAttrs {
				if _, have := l.Attributes[k]; !have {
					if v, ok := spans[i].Attributes[k]; ok {
						l.Attributes[k] = v
					}
				}
			}
		}
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
			l.End = tl.End
			l.Kind = l.Attributes.String(catalog.AttrGoroutineKind)
		} else if acc.key.name == MainLane {
			l.Kind = catalog.KindMain
		}
	}
	if p, ok := l.Attributes.Float(catalog.AttrGoroutinePeriod); ok && p > 0 {
		l.Period = time.Duration(math.Round(p * float64(time.Second)))
	}
	for _, i := range members {
		s := &spans[i]
		m := Mark{Name: s.Name, Start: s.Start, End: spanEnd(s), SpanID: s.SpanID, Attributes: s.Attributes}
		if n, ok := iteration(s); ok {
			m.Iteration = n
			m.Skipped, _ = s.Attributes.Int(catalog.AttrSkipped)
			l.Iterations = append(l.Iterations, m)
		} else {
			l.Calls = append(l.Calls, m)
		}
		l.Events = appendEvents(l.Events, s)
	}
	sortMarks(l.Iterations)
	sortMarks(l.Calls)
	sortMarks(l.Events)
	return l
}

func appendEvents(marks []Mark, s *traces.Span) []Mark {
	for _, e := range s.Events {
		marks = append(marks, Mark{Name: e.Name, Start: e.Time, End: e.Time, SpanID: s.SpanID, Attributes: e.Attributes})
	}
	return marks
}

// labelLanes gives each lane a label unique within its instance.
func labelLanes(lanes []*Lane) {
	byName := map[string][]*Lane{}
	for _, l := range lanes {
		byName[l.Goroutine] = append(byName[l.Goroutine], l)
	}
	for _, l := range lanes {
		l.Label = l.Goroutine
		if len(byName[l.Goroutine]) < 2 {
			continue
		}
		parts := []string{l.Goroutine}
		for _, k := range qualifiers {
			v := fmt.Sprint(l.Attributes[k])
			if l.Attributes[k] == nil || v == "" {
				continue
			}
			if k == catalog.AttrResource && v == l.Attributes.String(catalog.AttrInformer) {
				continue
			}
			parts = append(parts, v)
		}
		l.Label = strings.Join(parts, " ")
	}
	byLabel := map[string][]*Lane{}
	var labels []string
	for _, l := range lanes {
		if byLabel[l.Label] == nil {
			labels = append(labels, l.Label)
		}
		byLabel[l.Label] = append(byLabel[l.Label], l)
	}
	for _, label := range labels {
		same := byLabel[label]
		if len(same) < 2 {
			continue
		}
		slices.SortStableFunc(same, func(a, b *Lane) int {
			if c := a.Start.Compare(b.Start); c != 0 {
				return c
			}
			return cmp.Compare(a.SpanID, b.SpanID)
		})
		for n, l := range same {
			l.Label = fmt.Sprintf("%s #%d", label, n+1)
		}
	}
}

func isLifetime(s *traces.Span) bool {
	return s.Attributes.String(catalog.AttrGoroutineKind) != ""
}

func iteration(s *traces.Span) (int64, bool) {
	if n, ok := s.Attributes.Int(catalog.AttrIteration); ok {
		return n, true
	}
	if f, ok := s.Attributes.Float(catalog.AttrIteration); ok {
		return int64(f), true
	}
	return 0, false
}

func instanceOf(s *traces.Span) instKey {
	return instKey{s.Resource.String(catalog.AttrServiceName), s.Resource.String(catalog.AttrServiceInstanceID)}
}

// spanEnd is the span's end, or its start if the end is missing or earlier.
func spanEnd(s *traces.Span) time.Time {
	if s.End.Before(s.Start) {
		return s.Start
	}
	return s.End
}

func compareSpans(a, b *traces.Span) int {
	if c := a.Start.Compare(b.Start); c != 0 {
		return c
	}
	if c := cmp.Compare(a.TraceID, b.TraceID); c != 0 {
		return c
	}
	if c := cmp.Compare(a.SpanID, b.SpanID); c != 0 {
		return c
	}
	if c := a.End.Compare(b.End); c != 0 {
		return c
	}
	return cmp.Compare(a.Name, b.Name)
}

func sortMarks(m []Mark) {
	slices.SortStableFunc(m, func(a, b Mark) int {
		if c := a.Start.Compare(b.Start); c != 0 {
			return c
		}
		if c := cmp.Compare(a.SpanID, b.SpanID); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
}

// naturalCompare orders strings with their digit runs compared as numbers,
// so that node-2 sorts before node-10.
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		if isDigit(a[0]) && isDigit(b[0]) {
			da, db := digitRun(a), digitRun(b)
			ta, tb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := cmp.Compare(len(ta), len(tb)); c != 0 {
				return c
			}
			if c := cmp.Compare(ta, tb); c != 0 {
				return c
			}
			if c := cmp.Compare(da, db); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func digitRun(s string) int {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return n
}
