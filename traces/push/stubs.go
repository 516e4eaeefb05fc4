package push

import (
	"fmt"
	"slices"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/traces"
)

// Stubs converts recorded spans back into the SDK's span stubs, ready for
// any exporter (Stubs(spans).Snapshots() → ExportSpans). IDs, parents,
// timestamps, kind, status, attributes, events, links, resources and scope
// names are those of the recording; spans with the same resource share one
// *resource.Resource. Attributes are in key order (a recording's order is
// not kept by traces.Read). A span with an invalid (all-zero) trace or span
// ID, which traces.Read never returns, is an error naming its line.
func Stubs(spans []traces.Span) (tracetest.SpanStubs, error) {
	resources := map[attribute.Distinct]*resource.Resource{}
	stubs := make(tracetest.SpanStubs, len(spans))
	for i := range spans {
		s := &spans[i]
		if !s.TraceID.IsValid() || !s.SpanID.IsValid() {
			return nil, fmt.Errorf("%s: span %q: its trace ID (%s) or span ID (%s) is all zeros: an OTLP receiver would drop it", where(s, i), s.Name, s.TraceID, s.SpanID)
		}
		stubs[i] = stub(s, resources)
	}
	return stubs, nil
}

// where names a span for an error: its line in the trace file, else its index.
func where(s *traces.Span, i int) string {
	if s.Line > 0 {
		return fmt.Sprintf("line %d", s.Line)
	}
	return fmt.Sprintf("span %d", i)
}

func stub(s *traces.Span, resources map[attribute.Distinct]*resource.Resource) tracetest.SpanStub {
	st := tracetest.SpanStub{
		Name: s.Name,
		// Every recorded span was sampled: keep that flag, as the live
		// export did.
		SpanContext: trace.NewSpanContext(trace.SpanContextConfig{TraceID: s.TraceID, SpanID: s.SpanID, TraceFlags: trace.FlagsSampled}),
		SpanKind:    trace.SpanKind(s.Kind),
		StartTime:   s.Start,
		EndTime:     s.End,
		Attributes:  keyValues(s.Attributes),
		Status:      sdktrace.Status{Code: statusCode(s.StatusCode), Description: s.StatusDesc},
		// The recording keeps the scope's name only.
		InstrumentationScope: instrumentation.Scope{Name: s.Scope},
	}
	if s.ParentSpanID.IsValid() {
		// A parent is in its child's trace (traces.Read checked the file's
		// Parent.TraceID and keeps the span ID only).
		st.Parent = trace.NewSpanContext(trace.SpanContextConfig{TraceID: s.TraceID, SpanID: s.ParentSpanID, TraceFlags: trace.FlagsSampled})
	}
	for _, e := range s.Events {
		st.Events = append(st.Events, sdktrace.Event{Name: e.Name, Time: e.Time, Attributes: keyValues(e.Attributes)})
	}
	for _, l := range s.Links {
		// traces.Read accepts an all-zero (invalid) link ID; so does OTLP.
		sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: l.TraceID, SpanID: l.SpanID, TraceFlags: trace.FlagsSampled})
		st.Links = append(st.Links, sdktrace.Link{SpanContext: sc, Attributes: keyValues(l.Attributes)})
	}
	kvs := keyValues(s.Resource)
	set := attribute.NewSet(kvs...)
	res, ok := resources[set.Equivalent()]
	if !ok {
		res = resource.NewSchemaless(kvs...)
		resources[set.Equivalent()] = res
	}
	st.Resource = res
	return st
}

func statusCode(s string) codes.Code {
	switch s {
	case "Error":
		return codes.Error
	case "Ok":
		return codes.Ok
	}
	return codes.Unset
}

// keyValues converts attributes, sorted by key.
func keyValues(a traces.Attributes) []attribute.KeyValue {
	if len(a) == 0 {
		return nil
	}
	kvs := make([]attribute.KeyValue, 0, len(a))
	for k, v := range a {
		kvs = append(kvs, attribute.KeyValue{Key: attribute.Key(k), Value: value(v)})
	}
	slices.SortFunc(kvs, func(x, y attribute.KeyValue) int { return strings.Compare(string(x.Key), string(y.Key)) })
	return kvs
}

// value converts one of the Go values traces.Attributes holds back into
// the attribute.Value it was recorded from.
func value(v any) attribute.Value {
	switch v := v.(type) {
	case nil:
		return attribute.Value{} // EMPTY
	case string:
		return attribute.StringValue(v)
	case bool:
		return attribute.BoolValue(v)
	case int64:
		return attribute.Int64Value(v)
	case int:
		return attribute.IntValue(v)
	case float64:
		return attribute.Float64Value(v)
	case []string:
		return attribute.StringSliceValue(v)
	case []bool:
		return attribute.BoolSliceValue(v)
	case []int64:
		return attribute.Int64SliceValue(v)
	case []float64:
		return attribute.Float64SliceValue(v)
	case []byte:
		return attribute.ByteSliceValue(v)
	case []any:
		vs := make([]attribute.Value, len(v))
		for i, x := range v {
			vs[i] = value(x)
		}
		return attribute.SliceValue(vs...)
	case traces.Attributes:
		return attribute.MapValue(keyValues(v)...)
	case map[string]any:
		return attribute.MapValue(keyValues(v)...)
	}
	// Not a type traces.Read produces: keep it readable rather than drop it.
	return attribute.StringValue(fmt.Sprint(v))
}
