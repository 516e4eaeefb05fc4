package diff

import (
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/traces/timeline"
)

// span is when a span ran, from the start of the recording, and when its
// events came.
type span struct {
	start, end time.Duration
	events     []time.Duration
}

// effects are, for every span that some span names as its cause
// (kubeloom.link=cause), the spans that do.
func effects(tl *timeline.Timeline) map[trace.SpanID][]span {
	out := map[trace.SpanID][]span{}
	var linked map[trace.SpanID]*[]time.Duration // the effects' events, by span
	type effect struct {
		causes []trace.SpanID
		s      span
		id     trace.SpanID
	}
	var all []effect
	for _, in := range tl.Instances {
		for _, l := range in.Lanes {
			// A goroutine an action started (a pod worker, a new process).
			if len(l.Causes) > 0 {
				all = append(all, effect{l.Causes, span{start: tl.Offset(l.Start), end: tl.Offset(l.End)}, l.SpanID})
			}
			for _, marks := range [][]timeline.Mark{l.Iterations, l.Calls} {
				for _, m := range marks {
					if len(m.Causes) > 0 {
						all = append(all, effect{m.Causes, span{start: tl.Offset(m.Start), end: tl.Offset(m.End)}, m.SpanID})
					}
				}
			}
		}
	}
	linked = make(map[trace.SpanID]*[]time.Duration, len(all))
	for _, e := range all {
		linked[e.id] = new([]time.Duration)
	}
	for _, in := range tl.Instances {
		for _, l := range in.Lanes {
			for _, ev := range l.Events {
				if times, ok := linked[ev.SpanID]; ok {
					*times = append(*times, tl.Offset(ev.Start))
				}
			}
		}
	}
	for _, e := range all {
		e.s.events = *linked[e.id]
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
