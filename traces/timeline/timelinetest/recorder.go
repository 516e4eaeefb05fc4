// Package timelinetest builds synthetic recordings ([]traces.Span) for tests
// of the timeline model and its viewers, the way httptest builds requests:
// spans are placed in simulated seconds from a fixed origin, with the
// attributes of the instrumentation contract (DESIGN.md).
package timelinetest

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
)

// Origin is the simulated time of second 0 of every synthetic recording.
var Origin = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// traceID is the trace of every span a Recorder makes.
var traceID = trace.TraceID{0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef}

// Root is the parent to give a root span: the zero span ID, no span.
var Root trace.SpanID

// Recorder accumulates spans. The zero value is not usable; call New.
type Recorder struct {
	scenario string
	res      traces.Attributes
	spans    []traces.Span
	index    map[trace.SpanID]int
	next     uint64
}

// New returns a Recorder for the scenario, with the instance
// ("kube-controller-manager", "cm-0") selected.
func New(scenario string) *Recorder {
	r := &Recorder{scenario: scenario, index: map[trace.SpanID]int{}}
	return r.Instance("kube-controller-manager", "cm-0")
}

// Instance selects the resource of the spans made from now on.
func (r *Recorder) Instance(service, id string) *Recorder {
	r.res = traces.Attributes{
		catalog.AttrServiceName:       service,
		catalog.AttrServiceInstanceID: id,
		catalog.AttrScenario:          r.scenario,
	}
	return r
}

// At returns the time of simulated second sec.
func At(sec float64) time.Time {
	return Origin.Add(time.Duration(math.Round(sec * float64(time.Second))))
}

// Span records a span from second from to second to under parent (Root
// for a root) and returns its span ID: 1, 2, 3, ... as a number. attrs are
// key, value pairs; int values become int64 as in a real recording.
func (r *Recorder) Span(parent trace.SpanID, name string, from, to float64, attrs ...any) trace.SpanID {
	r.next++
	var id trace.SpanID
	binary.BigEndian.PutUint64(id[:], r.next)
	s := traces.Span{
		Name:         name,
		TraceID:      traceID,
		SpanID:       id,
		ParentSpanID: parent,
		Start:        At(from),
		End:          At(to),
		Attributes:   Attrs(attrs...),
		Resource:     r.res,
		Scope:        "kubeloom",
		StatusCode:   "Unset",
		Line:         len(r.spans) + 1,
	}
	r.index[id] = len(r.spans)
	r.spans = append(r.spans, s)
	return id
}

// Goroutine records the lifetime span of a goroutine named name (its
// catalog name) of the given kind.
func (r *Recorder) Goroutine(parent trace.SpanID, name, kind string, from, to float64, attrs ...any) trace.SpanID {
	a := append([]any{catalog.AttrGoroutineName, name, catalog.AttrGoroutineKind, kind}, attrs...)
	return r.Span(parent, name, from, to, a...)
}

// Iteration records iteration n of the loop whose lifetime span is lifetime.
func (r *Recorder) Iteration(lifetime trace.SpanID, goroutine, name string, n int, from, to float64, attrs ...any) trace.SpanID {
	a := append([]any{catalog.AttrGoroutineName, goroutine, catalog.AttrIteration, n}, attrs...)
	return r.Span(lifetime, name, from, to, a...)
}

// Loop records iterations 1, 2, ... starting every period seconds from
// second from while they start before second to; each lasts dur seconds.
// It returns their span IDs.
func (r *Recorder) Loop(lifetime trace.SpanID, goroutine, name string, from, to, period, dur float64) []trace.SpanID {
	var ids []trace.SpanID
	for n := 1; ; n++ {
		at := from + float64(n-1)*period
		if at >= to {
			return ids
		}
		ids = append(ids, r.Iteration(lifetime, goroutine, name, n, at, math.Min(at+dur, to)))
	}
}

// Event adds an event at second at to span id.
func (r *Recorder) Event(id trace.SpanID, name string, at float64, attrs ...any) {
	i := r.mustIndex(id)
	r.spans[i].Events = append(r.spans[i].Events, traces.Event{Name: name, Time: At(at), Attributes: Attrs(attrs...)})
}

// Link adds a causal link (kubeloom.link=cause) from span id to span cause.
func (r *Recorder) Link(id, cause trace.SpanID) {
	i := r.mustIndex(id)
	r.spans[i].Links = append(r.spans[i].Links, traces.Link{
		TraceID: traceID, SpanID: cause,
		Attributes: traces.Attributes{catalog.AttrLink: catalog.LinkCause},
	})
}

// Drop removes spans, as a recording cut short loses the spans that had
// not ended yet.
func (r *Recorder) Drop(ids ...trace.SpanID) {
	drop := map[trace.SpanID]bool{}
	for _, id := range ids {
		r.mustIndex(id)
		drop[id] = true
	}
	kept := r.spans[:0]
	for _, s := range r.spans {
		if !drop[s.SpanID] {
			kept = append(kept, s)
		}
	}
	r.spans = kept
	r.index = map[trace.SpanID]int{}
	for i, s := range r.spans {
		r.index[s.SpanID] = i
	}
}

// Spans returns a copy of the recorded spans in recording order.
func (r *Recorder) Spans() []traces.Span {
	return append([]traces.Span(nil), r.spans...)
}

func (r *Recorder) mustIndex(id trace.SpanID) int {
	i, ok := r.index[id]
	if !ok {
		panic(fmt.Sprintf("timelinetest: no span %s", id))
	}
	return i
}

// Attrs builds attributes from key, value pairs, converting int to int64
// and float32 to float64 as a trace file stores them.
func Attrs(kv ...any) traces.Attributes {
	if len(kv)%2 != 0 {
		panic("timelinetest: odd number of attribute arguments")
	}
	a := traces.Attributes{}
	for i := 0; i < len(kv); i += 2 {
		k, ok := kv[i].(string)
		if !ok {
			panic(fmt.Sprintf("timelinetest: attribute key %v is not a string", kv[i]))
		}
		switch v := kv[i+1].(type) {
		case int:
			a[k] = int64(v)
		case float32:
			a[k] = float64(v)
		default:
			a[k] = v
		}
	}
	return a
}
