package diff

import (
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/traces/timeline"
)

// span is a span that names a cause: which, its name, when it ran, from
// the start of the recording, and when its events came.
type span struct {
	id         trace.SpanID
	name       string
	start, end time.Duration
	events     []time.Duration
}

// effects are, for every span that some span names as its cause
// (kubeloom.link=cause), the spans that do: one index, which an action's
// first effect and a watch event's chain to its handler both read.
func effects(tl *timeline.Timeline) map[trace.SpanID][]span {
	type effect struct {
		causes []trace.SpanID
		s      span
	}
	var all []effect
	at := func(id trace.SpanID, name string, start, end time.Time, causes []trace.SpanID) {
		if len(causes) > 0 {
			all = append(all, effect{causes, span{id: id, name: name, start: tl.Offset(start), end: tl.Offset(end)}})
		}
	}
	for _, in := range tl.Instances {
		for _, l := range in.Lanes {
			// A goroutine an action started (a pod worker, a new process).
			at(l.SpanID, l.Goroutine, l.Start, l.End, l.Causes)
			for _, marks := range [][]timeline.Mark{l.Iterations, l.Calls} {
				for _, m := range marks {
					at(m.SpanID, m.Name, m.Start, m.End, m.Causes)
				}
			}
		}
	}
	// The events of those spans: the first after an action is where a span
	// already running named it (firstEffect).
	events := make(map[trace.SpanID][]time.Duration, len(all))
	for _, e := range all {
		events[e.s.id] = nil
	}
	for _, in := range tl.Instances {
		for _, l := range in.Lanes {
			for _, ev := range l.Events {
				if times, ok := events[ev.SpanID]; ok {
					events[ev.SpanID] = append(times, tl.Offset(ev.Start))
				}
			}
		}
	}
	out := map[trace.SpanID][]span{}
	for _, e := range all {
		e.s.events = events[e.s.id]
		for _, c := range e.causes {
			out[c] = append(out[c], e.s)
		}
	}
	return out
}

// firstEffect is how long after at the first of an action's effects came,
// or -1 if it has none. A span that names its cause when it starts (a
// watch event's receive) came at its start. One that started before the
// action and named it later (a renewal whose try the action refused, a
// process the action killed, whose main span records why it ended) came
// at its first event after the action (the refused request), else when it
// ended, which is when kubeloom records such a cause.
func firstEffect(at time.Duration, of []span) time.Duration {
	first := time.Duration(-1)
	for _, s := range of {
		when := s.start
		if when < at {
			when = s.end
			for _, e := range s.events {
				if e >= at && e < when {
					when = e
				}
			}
		}
		if d := when - at; d >= 0 && (first < 0 || d < first) {
			first = d
		}
	}
	return first
}
