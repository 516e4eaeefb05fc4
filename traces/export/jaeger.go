package export

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
)

// JaegerResponse is the body of Jaeger's query API GET /api/traces, the
// JSON that Jaeger UI's "upload JSON" opens.
type JaegerResponse struct {
	Data   []JaegerTrace `json:"data"`
	Total  int           `json:"total"`
	Limit  int           `json:"limit"`
	Offset int           `json:"offset"`
	Errors []any         `json:"errors"`
}

// JaegerTrace is one trace: its spans and the processes (resources) they ran in.
type JaegerTrace struct {
	TraceID   string                   `json:"traceID"`
	Spans     []JaegerSpan             `json:"spans"`
	Processes map[string]JaegerProcess `json:"processes"`
	Warnings  []string                 `json:"warnings"`
}

// JaegerSpan is a span in Jaeger's model. Times are microseconds (since the
// Unix epoch for StartTime).
type JaegerSpan struct {
	TraceID       string            `json:"traceID"`
	SpanID        string            `json:"spanID"`
	Flags         int               `json:"flags,omitempty"`
	OperationName string            `json:"operationName"`
	References    []JaegerReference `json:"references"`
	StartTime     int64             `json:"startTime"`
	Duration      int64             `json:"duration"`
	Tags          []JaegerKeyValue  `json:"tags"`
	Logs          []JaegerLog       `json:"logs"`
	ProcessID     string            `json:"processID"`
	Warnings      []string          `json:"warnings"`
}

// Reference types of JaegerReference.RefType.
const (
	ChildOf     = "CHILD_OF"
	FollowsFrom = "FOLLOWS_FROM"
)

// JaegerReference points at another span: the parent (CHILD_OF, always
// first) or a linked span (FOLLOWS_FROM).
type JaegerReference struct {
	RefType string `json:"refType"`
	TraceID string `json:"traceID"`
	SpanID  string `json:"spanID"`
}

// JaegerKeyValue is a typed tag or log field. Type is "string", "bool",
// "int64", "float64" or "binary" (Value then holds base64).
type JaegerKeyValue struct {
	Key   string `json:"key"`
	Type  string `json:"type"`
	Value any    `json:"value"`
}

// JaegerLog is a span event.
type JaegerLog struct {
	Timestamp int64            `json:"timestamp"`
	Fields    []JaegerKeyValue `json:"fields"`
}

// JaegerProcess is a resource: service.name, and the other resource
// attributes as tags.
type JaegerProcess struct {
	ServiceName string           `json:"serviceName"`
	Tags        []JaegerKeyValue `json:"tags"`
}

// Jaeger writes spans as Jaeger JSON, in the shape of the response of
// Jaeger's query API (GET /api/traces), which Jaeger UI's "upload JSON"
// opens: one entry of "data" per trace ID, with its spans and a process per
// distinct resource.
//
// The mapping is the one Jaeger applies to OTLP spans it receives (the
// OpenTelemetry "OTel to Jaeger" transformation): service.name becomes the
// process's serviceName and the other resource attributes its tags;
// attributes become typed tags (slices and maps as JSON text); the
// instrumentation scope becomes otel.scope.name and the span kind span.kind;
// a status other than Unset becomes otel.status_code (with error=true and
// otel.status_description for an error); each span event becomes a log
// whose "event" field is the event's name; the parent becomes the first
// reference, CHILD_OF, and each link a FOLLOWS_FROM reference (Jaeger's
// model has no place for a link's attributes). Times are whole
// microseconds, truncated, as Jaeger stores them. Like Jaeger 2 serving
// OTLP spans, it writes no flags. internal/jaegertest compares the output
// with what a real Jaeger serves for the same spans, key by key.
//
// Traces are ordered by their first span, spans within a trace by start
// time, so the output does not depend on the order of spans.
func Jaeger(w io.Writer, spans []traces.Span) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var line bytes.Buffer
	enc := json.NewEncoder(&line)
	enc.SetEscapeHTML(false)
	bw.WriteString(`{"data":[`)
	// One trace per line.
	for i, group := range byTrace(spans) {
		if i > 0 {
			bw.WriteByte(',')
		}
		line.Reset()
		if err := enc.Encode(jaegerTrace(group)); err != nil {
			return fmt.Errorf("failed to encode trace %s: %w", group[0].TraceID, err)
		}
		bw.WriteByte('\n')
		bw.Write(bytes.TrimSuffix(line.Bytes(), []byte("\n")))
	}
	bw.WriteString("\n" + `],"total":0,"limit":0,"offset":0,"errors":null}` + "\n")
	return bw.Flush()
}

// byTrace groups spans by trace ID: traces by their earliest span, spans by
// start time.
func byTrace(spans []traces.Span) [][]*traces.Span {
	ordered := make([]*traces.Span, len(spans))
	for i := range spans {
		ordered[i] = &spans[i]
	}
	slices.SortFunc(ordered, func(a, b *traces.Span) int {
		if c := bytes.Compare(a.TraceID[:], b.TraceID[:]); c != 0 {
			return c
		}
		return compareSpans(a, b)
	})
	var groups [][]*traces.Span
	for i := 0; i < len(ordered); {
		j := i + 1
		for j < len(ordered) && ordered[j].TraceID == ordered[i].TraceID {
			j++
		}
		groups = append(groups, ordered[i:j])
		i = j
	}
	slices.SortStableFunc(groups, func(a, b []*traces.Span) int { return a[0].Start.Compare(b[0].Start) })
	return groups
}

// compareSpans orders spans by start, then longest first, then by ID.
func compareSpans(a, b *traces.Span) int {
	if c := a.Start.Compare(b.Start); c != 0 {
		return c
	}
	if c := b.End.Compare(a.End); c != 0 {
		return c
	}
	if c := bytes.Compare(a.SpanID[:], b.SpanID[:]); c != 0 {
		return c
	}
	return cmp.Compare(a.Line, b.Line)
}

func jaegerTrace(spans []*traces.Span) JaegerTrace {
	t := JaegerTrace{
		TraceID:   spans[0].TraceID.String(),
		Spans:     make([]JaegerSpan, 0, len(spans)),
		Processes: map[string]JaegerProcess{},
	}
	processIDs := map[string]string{} // resource key → process ID
	for _, s := range spans {
		proc := jaegerProcess(s.Resource)
		key := processKey(proc)
		pid, ok := processIDs[key]
		if !ok {
			pid = fmt.Sprintf("p%d", len(processIDs)+1)
			processIDs[key] = pid
			t.Processes[pid] = proc
		}
		t.Spans = append(t.Spans, jaegerSpan(s, pid))
	}
	return t
}

func jaegerProcess(res traces.Attributes) JaegerProcess {
	p := JaegerProcess{ServiceName: res.String(catalog.AttrServiceName), Tags: []JaegerKeyValue{}}
	if p.ServiceName == "" {
		p.ServiceName = "unknown_service" // the OpenTelemetry SDK's default
	}
	for _, k := range sortedKeys(res) {
		if k != catalog.AttrServiceName {
			p.Tags = append(p.Tags, jaegerKV(k, res[k]))
		}
	}
	return p
}

// processKey identifies a process by its service and tags.
func processKey(p JaegerProcess) string {
	var b strings.Builder
	b.WriteString(p.ServiceName)
	for _, kv := range p.Tags {
		fmt.Fprintf(&b, "\x00%s\x00%s\x00%v", kv.Key, kv.Type, kv.Value)
	}
	return b.String()
}

// spanKinds are the span.kind values of trace.SpanKind 1 to 5.
var spanKinds = []string{1: "internal", 2: "server", 3: "client", 4: "producer", 5: "consumer"}

func jaegerSpan(s *traces.Span, pid string) JaegerSpan {
	js := JaegerSpan{
		TraceID:       s.TraceID.String(),
		SpanID:        s.SpanID.String(),
		OperationName: s.Name,
		References:    []JaegerReference{},
		StartTime:     s.Start.UnixMicro(),
		Duration:      max(0, s.End.Sub(s.Start)).Microseconds(),
		Tags:          make([]JaegerKeyValue, 0, len(s.Attributes)+4),
		Logs:          []JaegerLog{},
		ProcessID:     pid,
	}
	if s.ParentSpanID.IsValid() {
		js.References = append(js.References, JaegerReference{ChildOf, js.TraceID, s.ParentSpanID.String()})
	}
	for _, l := range s.Links {
		if !l.SpanID.IsValid() || !l.TraceID.IsValid() {
			continue // an invalid span context: nothing to point at
		}
		js.References = append(js.References, JaegerReference{FollowsFrom, l.TraceID.String(), l.SpanID.String()})
	}
	for _, k := range sortedKeys(s.Attributes) {
		js.Tags = append(js.Tags, jaegerKV(k, s.Attributes[k]))
	}
	if s.Scope != "" {
		js.Tags = append(js.Tags, JaegerKeyValue{"otel.scope.name", "string", s.Scope})
	}
	if s.Kind > 0 && s.Kind < len(spanKinds) {
		js.Tags = append(js.Tags, JaegerKeyValue{"span.kind", "string", spanKinds[s.Kind]})
	}
	switch s.StatusCode {
	case "Error":
		js.Tags = append(js.Tags,
			JaegerKeyValue{"otel.status_code", "string", "ERROR"},
			JaegerKeyValue{"error", "bool", true})
		if s.StatusDesc != "" {
			js.Tags = append(js.Tags, JaegerKeyValue{"otel.status_description", "string", s.StatusDesc})
		}
	case "Ok":
		js.Tags = append(js.Tags, JaegerKeyValue{"otel.status_code", "string", "OK"})
	}
	events := slices.Clone(s.Events)
	slices.SortStableFunc(events, func(a, b traces.Event) int { return a.Time.Compare(b.Time) })
	for _, e := range events {
		log := JaegerLog{Timestamp: e.Time.UnixMicro(), Fields: make([]JaegerKeyValue, 0, len(e.Attributes)+1)}
		// An attribute named "event" wins over the event's name, as in
		// Jaeger's own translation.
		if _, ok := e.Attributes["event"]; !ok {
			log.Fields = append(log.Fields, JaegerKeyValue{"event", "string", e.Name})
		}
		for _, k := range sortedKeys(e.Attributes) {
			log.Fields = append(log.Fields, jaegerKV(k, e.Attributes[k]))
		}
		js.Logs = append(js.Logs, log)
	}
	return js
}

// jaegerKV types an attribute value as Jaeger does: strings, booleans,
// 64-bit integers and floats keep their type, byte slices are binary, and
// everything else (slices, maps) is JSON text.
func jaegerKV(key string, v any) JaegerKeyValue {
	switch v := v.(type) {
	case string:
		return JaegerKeyValue{key, "string", v}
	case bool:
		return JaegerKeyValue{key, "bool", v}
	case int64:
		return JaegerKeyValue{key, "int64", v}
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return JaegerKeyValue{key, "string", plainValue(v)}
		}
		return JaegerKeyValue{key, "float64", v}
	case []byte:
		return JaegerKeyValue{key, "binary", v} // encoding/json writes base64
	case nil:
		return JaegerKeyValue{key, "string", ""}
	}
	text, err := json.Marshal(plainValue(v))
	if err != nil {
		text = []byte(fmt.Sprint(v))
	}
	return JaegerKeyValue{key, "string", string(text)}
}
