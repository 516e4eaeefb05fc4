package timeline_test

import (
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// Time 0 of a timeline is the run's clock origin, which the scenario's
// root span records, not the first span: in a live run that one starts a
// few simulated milliseconds later, and an action at 5s must show at +5s.
func TestTimeZeroIsTheClockOrigin(t *testing.T) {
	origin := time.Date(2016, 12, 12, 0, 0, 0, 0, time.UTC)
	res := traces.Attributes{catalog.AttrServiceName: "kubeloom", catalog.AttrServiceInstanceID: "scenario"}
	spans := []traces.Span{
		{Name: "scenario s", TraceID: trace.TraceID{1}, SpanID: trace.SpanID{7: 1}, Start: origin.Add(120 * time.Millisecond),
			End: origin.Add(30 * time.Second), Resource: res, Attributes: traces.Attributes{catalog.AttrClockOrigin: origin.Format(time.RFC3339Nano)}},
		{Name: "action/create", TraceID: trace.TraceID{1}, SpanID: trace.SpanID{7: 2}, ParentSpanID: trace.SpanID{7: 1},
			Start: origin.Add(5 * time.Second), End: origin.Add(5*time.Second + time.Millisecond), Resource: res},
	}
	tl := timeline.Build(spans)
	if got := tl.Offset(spans[1].Start); got != 5*time.Second {
		t.Errorf("the action at 5s is at +%s", got)
	}
	spans[0].Attributes = nil // an older recording: time 0 is its first span
	if got := timeline.Build(spans).Offset(spans[1].Start); got != 5*time.Second-120*time.Millisecond {
		t.Errorf("without an origin, the action is at +%s, want from the first span", got)
	}
}
