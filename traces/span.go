package traces

import (
	"time"

	"go.opentelemetry.io/otel/trace"
)

// Span is one recorded span as read back from a trace file. Its fields are
// those of the OpenTelemetry stdouttrace JSON object, flattened for viewers:
// IDs are OpenTelemetry's own types (the file's hex is decoded once, by the
// reader; a format that needs text, such as Jaeger JSON, encodes it again),
// attribute values are plain Go values.
type Span struct {
	Name         string
	TraceID      trace.TraceID
	SpanID       trace.SpanID
	ParentSpanID trace.SpanID // zero (not IsValid) for a root span
	Kind         int          // trace.SpanKind as the SDK numbers it
	Start, End   time.Time
	Attributes   Attributes
	Events       []Event
	Links        []Link
	Resource     Attributes
	Scope        string // instrumentation scope name
	StatusCode   string // "Unset", "Error" or "Ok"
	StatusDesc   string

	// Line is the 1-based line of the trace file the span was read from.
	Line int
}

// Event is a span event ("became leader", a watch event, ...).
type Event struct {
	Name       string
	Time       time.Time
	Attributes Attributes
}

// Link is a span link; kubeloom's causal links carry kubeloom.link=cause.
type Link struct {
	// The linked span; zero for a link to an invalid span context, which
	// the file may hold.
	TraceID    trace.TraceID
	SpanID     trace.SpanID
	Attributes Attributes
}

// Attributes maps attribute keys to values. A value is a string, bool,
// int64, float64, or a slice of one of those ([]string, []bool, []int64,
// []float64), as the attribute's Type in the file says. The rarer types of
// newer OpenTelemetry versions read as []byte (BYTESLICE), []any (SLICE),
// Attributes (MAP) and nil (EMPTY).
type Attributes map[string]any

// String returns the string value of key, or "" when it is absent or not a string.
func (a Attributes) String(key string) string {
	s, _ := a[key].(string)
	return s
}

// Int returns the integer value of key.
func (a Attributes) Int(key string) (int64, bool) {
	n, ok := a[key].(int64)
	return n, ok
}

// Float returns the numeric value of key, converting integers.
func (a Attributes) Float(key string) (float64, bool) {
	switch v := a[key].(type) {
	case float64:
		return v, true
	case int64:
		return float64(v), true
	}
	return 0, false
}
