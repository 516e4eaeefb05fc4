package diff

import (
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/traces/timeline"
)

// firstEffects is, for every span that some span names as its cause
// (kubeloom.link=cause), when the earliest of those started: how long
// after an action its first effect came.
func firstEffects(tl *timeline.Timeline) map[trace.SpanID]time.Duration {
	out := map[trace.SpanID]time.Duration{}
	note := func(m timeline.Mark) {
		for _, c := range m.Causes {
			at := tl.Offset(m.Start)
			if prev, ok := out[c]; !ok || at < prev {
				out[c] = at
			}
		}
	}
	for _, in := range tl.Instances {
		for _, l := range in.Lanes {
			// A goroutine an action started (a pod worker, a new process).
			note(timeline.Mark{Start: l.Start, Causes: l.Causes})
			for _, marks := range [][]timeline.Mark{l.Iterations, l.Calls} {
				for _, m := range marks {
					note(m)
				}
			}
		}
	}
	return out
}
