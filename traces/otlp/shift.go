package otlp

import (
	"context"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// Shifted returns an exporter that moves every span by d (its start, end
// and events) before exp exports it. A recording's timestamps are simulated
// time from a fixed origin (2016-12-12); a backend such as Jaeger searches
// by wall-clock time, so kubeloom sends a run shifted to when it was made.
// d == 0 returns exp itself.
func Shifted(exp sdktrace.SpanExporter, d time.Duration) sdktrace.SpanExporter {
	if d == 0 {
		return exp
	}
	return &shifted{SpanExporter: exp, d: d}
}

type shifted struct {
	sdktrace.SpanExporter
	d time.Duration
}

var _ sdktrace.SpanExporter = (*shifted)(nil)

func (s *shifted) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	stubs := make(tracetest.SpanStubs, len(spans))
	for i, sp := range spans {
		stubs[i] = tracetest.SpanStubFromReadOnlySpan(sp)
	}
	Shift(stubs, s.d)
	return s.SpanExporter.ExportSpans(ctx, stubs.Snapshots())
}

// Shift moves stubs by d: their start, end and event times.
func Shift(stubs tracetest.SpanStubs, d time.Duration) {
	for i := range stubs {
		s := &stubs[i]
		s.StartTime, s.EndTime = s.StartTime.Add(d), s.EndTime.Add(d)
		if len(s.Events) > 0 {
			events := make([]sdktrace.Event, len(s.Events))
			for j, e := range s.Events {
				e.Time = e.Time.Add(d)
				events[j] = e
			}
			s.Events = events
		}
	}
}
