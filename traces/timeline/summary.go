package timeline

import (
	"strings"
	"time"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
)

// What Build learns of the recording as a whole: its scenario, the time
// its axis starts and ends, and its causal links. Each part of the pass
// that reads the spans (spaninfo.go) learns it of its spans; the parts are
// merged so that the result is the one a single pass in the canonical
// order would give.

// summaryPart is what Build learns of the recording as a whole from a part
// of the spans: the number of causal links, and the indexes (or -1) of the
// first span in the canonical order that has a scenario, of the earliest
// start and of the latest end.
type summaryPart struct {
	links                int
	scenario, start, end int
}

func (p *summaryPart) add(spans []traces.Span, i int) {
	s := &spans[i]
	if s.Resource.String(catalog.AttrScenario) != "" && (p.scenario < 0 || compareSpans(s, &spans[p.scenario]) < 0) {
		p.scenario = i
	}
	if !s.Start.IsZero() && (p.start < 0 || earlier(spans, i, p.start, spans[i].Start, spans[p.start].Start)) {
		p.start = i
	}
	if p.end < 0 || later(spans, i, p.end) {
		p.end = i
	}
}

func (p *summaryPart) merge(spans []traces.Span, q summaryPart) {
	p.links += q.links
	if q.scenario >= 0 && (p.scenario < 0 || compareSpans(&spans[q.scenario], &spans[p.scenario]) < 0) {
		p.scenario = q.scenario
	}
	if q.start >= 0 && (p.start < 0 || earlier(spans, q.start, p.start, spans[q.start].Start, spans[p.start].Start)) {
		p.start = q.start
	}
	if q.end >= 0 && (p.end < 0 || later(spans, q.end, p.end)) {
		p.end = q.end
	}
}

// summarize sets the timeline's links, scenario, start and end from what
// the spans said as a whole: the scenario of the first span in the
// canonical order that has one, the earliest start and the latest end (of
// spans that tie, the first in that order's).
func (b *builder) summarize(whole summaryPart) {
	tl, spans := b.tl, b.spans
	tl.Links = whole.links
	if whole.scenario >= 0 {
		tl.Scenario = spans[whole.scenario].Resource.String(catalog.AttrScenario)
	}
	if whole.start >= 0 {
		tl.Start = spans[whole.start].Start
		if origin, ok := clockOrigin(spans); ok && origin.Before(tl.Start) && tl.Start.Sub(origin) < time.Minute {
			tl.Start = origin
		}
	}
	if whole.end >= 0 {
		tl.End = spanEnd(&spans[whole.end])
	}
	if tl.End.Before(tl.Start) {
		tl.End = tl.Start
	}
}

// earlier reports whether time a (of span i) comes before time b (of span
// j), or at the same instant with i first in the canonical order.
func earlier(spans []traces.Span, i, j int, a, b time.Time) bool {
	if c := a.Compare(b); c != 0 {
		return c < 0
	}
	return compareSpans(&spans[i], &spans[j]) < 0
}

// later reports whether span i ends after span j, or at the same instant
// with i first in the canonical order.
func later(spans []traces.Span, i, j int) bool {
	if c := spanEnd(&spans[i]).Compare(spanEnd(&spans[j])); c != 0 {
		return c > 0
	}
	return compareSpans(&spans[i], &spans[j]) < 0
}

// clockOrigin is the simulated time the run's clock started at, which the
// scenario's root span records (kubeloom.clock.origin): time 0 of the axis,
// so that an action at 5s shows at +5s, although in a live run the first
// span starts a few simulated milliseconds after it.
func clockOrigin(spans []traces.Span) (time.Time, bool) {
	for i := range spans {
		s := &spans[i]
		if s.ParentSpanID.IsValid() || !strings.HasPrefix(s.Name, "scenario ") {
			continue
		}
		if v := s.Attributes.String(catalog.AttrClockOrigin); v != "" {
			t, err := time.Parse(time.RFC3339Nano, v)
			return t, err == nil
		}
	}
	return time.Time{}, false
}
