package export_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/export"
)

func jaegerJSON(t *testing.T, spans []traces.Span) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := export.Jaeger(&b, spans); err != nil {
		t.Fatalf("Jaeger: %v", err)
	}
	return b.Bytes()
}

func decodeJaeger(t *testing.T, data []byte) export.JaegerResponse {
	t.Helper()
	var r export.JaegerResponse
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("the Jaeger JSON does not decode: %v\n%.2000s", err, data)
	}
	return r
}

// TestJaegerShape checks the field names and types Jaeger's query API
// uses, on the raw JSON rather than through our own types.
func TestJaegerShape(t *testing.T) {
	data := jaegerJSON(t, lesson())
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"data", "total", "limit", "offset", "errors"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("top level lacks %q", k)
		}
	}
	traces := raw["data"].([]any)
	if len(traces) != 2 {
		t.Fatalf("%d traces, want 2 (one per trace ID)", len(traces))
	}
	first := traces[0].(map[string]any)
	for _, k := range []string{"traceID", "spans", "processes", "warnings"} {
		if _, ok := first[k]; !ok {
			t.Errorf("trace lacks %q", k)
		}
	}
	span := first["spans"].([]any)[0].(map[string]any)
	want := []string{"traceID", "spanID", "operationName", "references", "startTime", "duration", "tags", "logs", "processID", "warnings"}
	for _, k := range want {
		if _, ok := span[k]; !ok {
			t.Errorf("span lacks %q: %v", k, span)
		}
	}
	if len(span) != len(want) {
		t.Errorf("span has fields %v, want exactly %v", keys(span), want)
	}
	for _, k := range []string{"references", "tags", "logs"} {
		if _, ok := span[k].([]any); !ok {
			t.Errorf("span %s is %T, want an array (Jaeger writes [] when empty)", k, span[k])
		}
	}
	proc := first["processes"].(map[string]any)["p1"].(map[string]any)
	if _, ok := proc["serviceName"].(string); !ok {
		t.Errorf("process p1 = %v, want a serviceName", proc)
	}
}

func keys(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func TestJaegerMapping(t *testing.T) {
	spans := lesson()
	r := decodeJaeger(t, jaegerJSON(t, spans))
	byID := map[string]export.JaegerSpan{}
	procOf := map[string]export.JaegerProcess{}
	for _, tr := range r.Data {
		for _, s := range tr.Spans {
			if s.TraceID != tr.TraceID {
				t.Errorf("span %s has trace %s in trace %s", s.SpanID, s.TraceID, tr.TraceID)
			}
			p, ok := tr.Processes[s.ProcessID]
			if !ok {
				t.Errorf("span %s: process %q is not in its trace's processes", s.SpanID, s.ProcessID)
			}
			byID[s.SpanID] = s
			procOf[s.SpanID] = p
		}
	}
	if r.Data[0].TraceID != spans[0].TraceID.String() || len(r.Data[0].Processes) != 2 {
		t.Errorf("first trace %s has %d processes, want %s with 2 (scenario, informers)", r.Data[0].TraceID, len(r.Data[0].Processes), spans[0].TraceID)
	}

	find := func(name string) (traces.Span, export.JaegerSpan) {
		t.Helper()
		for _, s := range spans {
			if s.Name == name {
				return s, byID[s.SpanID.String()]
			}
		}
		t.Fatalf("no span %q", name)
		return traces.Span{}, export.JaegerSpan{}
	}
	tag := func(js export.JaegerSpan, key string) (export.JaegerKeyValue, bool) {
		for _, kv := range js.Tags {
			if kv.Key == key {
				return kv, true
			}
		}
		return export.JaegerKeyValue{}, false
	}

	// Process: service.name, other resource attributes as tags.
	src, watch := find("pods.Watch")
	p := procOf[watch.SpanID]
	if p.ServiceName != "informers" || len(p.Tags) != 2 || p.Tags[0].Key != catalog.AttrScenario || p.Tags[1].Key != catalog.AttrServiceInstanceID {
		t.Errorf("process of pods.Watch = %+v", p)
	}
	// Parent first, then links.
	wantRefs := []export.JaegerReference{
		{RefType: export.ChildOf, TraceID: src.TraceID.String(), SpanID: src.ParentSpanID.String()},
		{RefType: export.FollowsFrom, TraceID: src.Links[0].TraceID.String(), SpanID: src.Links[0].SpanID.String()},
	}
	if !slices.Equal(watch.References, wantRefs) {
		t.Errorf("references = %+v, want %+v", watch.References, wantRefs)
	}
	if watch.StartTime != src.Start.UnixMicro() || watch.Duration != src.End.Sub(src.Start).Microseconds() {
		t.Errorf("times %d+%d, want %d+%d", watch.StartTime, watch.Duration, src.Start.UnixMicro(), src.End.Sub(src.Start).Microseconds())
	}
	// Events become logs with an "event" field.
	if len(watch.Logs) != 1 || watch.Logs[0].Fields[0] != (export.JaegerKeyValue{Key: "event", Type: "string", Value: "watch event"}) ||
		watch.Logs[0].Timestamp != src.Events[0].Time.UnixMicro() || len(watch.Logs[0].Fields) != 3 {
		t.Errorf("logs = %+v", watch.Logs)
	}
	if kv, _ := tag(watch, "otel.scope.name"); kv.Value != "kubeloom" {
		t.Errorf("otel.scope.name = %+v", kv)
	}
	if _, ok := tag(watch, "error"); ok {
		t.Error("a span with status Unset has an error tag")
	}

	// Typed tags, status and kind.
	_, failed := find("pods.UpdateStatus")
	for _, want := range []export.JaegerKeyValue{
		{Key: "http.status_code", Type: "int64", Value: float64(409)}, // a JSON number
		{Key: "retry", Type: "bool", Value: true},
		{Key: "ratio", Type: "float64", Value: 0.25},
		{Key: "nan", Type: "string", Value: "NaN"},
		{Key: "names", Type: "string", Value: `["a","b"]`},
		{Key: "raw", Type: "binary", Value: "aGk="},
		{Key: "span.kind", Type: "string", Value: "client"},
		{Key: "otel.status_code", Type: "string", Value: "ERROR"},
		{Key: "error", Type: "bool", Value: true},
		{Key: "otel.status_description", Type: "string", Value: "the object has been modified"},
	} {
		if got, ok := tag(failed, want.Key); !ok || got != want {
			t.Errorf("tag %s = %+v, want %+v", want.Key, got, want)
		}
	}
	// A root span has no references.
	if _, run := find("StartInformers"); len(run.References) != 0 {
		t.Errorf("root span references = %+v", run.References)
	}
}

// TestJaegerRoundTrip: every span once, with its IDs, and parents that
// resolve; the output does not depend on the order of the spans.
func TestJaegerRoundTrip(t *testing.T) {
	spans := lesson()
	data := jaegerJSON(t, spans)
	checkJaeger(t, spans, decodeJaeger(t, data))

	shuffled := slices.Clone(spans)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	if again := jaegerJSON(t, shuffled); !bytes.Equal(again, data) {
		t.Error("the output depends on the order of the spans")
	}
}

// checkJaeger checks that r holds every span of spans exactly once, that
// CHILD_OF references resolve within their trace (when the parent is in
// the recording) and that links are FOLLOWS_FROM references.
func checkJaeger(t *testing.T, spans []traces.Span, r export.JaegerResponse) {
	t.Helper()
	seen := map[[2]string]int{}
	total := 0
	for _, tr := range r.Data {
		for _, s := range tr.Spans {
			seen[[2]string{s.TraceID, s.SpanID}]++
			total++
		}
	}
	if total != len(spans) {
		t.Errorf("%d spans in the Jaeger JSON, %d in the recording", total, len(spans))
	}
	inRecording := map[[2]string]bool{}
	links, parents := 0, 0
	for _, s := range spans {
		k := [2]string{s.TraceID.String(), s.SpanID.String()}
		inRecording[k] = true
		if seen[k] != 1 {
			t.Errorf("span %s %q appears %d times", s.SpanID, s.Name, seen[k])
		}
		links += len(s.Links)
		if s.ParentSpanID.IsValid() {
			parents++
		}
	}
	follows, childOf := 0, 0
	for _, tr := range r.Data {
		for _, s := range tr.Spans {
			for i, ref := range s.References {
				switch ref.RefType {
				case export.ChildOf:
					childOf++
					if i != 0 {
						t.Errorf("span %s: CHILD_OF is reference %d, not the first", s.SpanID, i)
					}
					if ref.TraceID != s.TraceID {
						t.Errorf("span %s: parent in another trace", s.SpanID)
					}
					if !inRecording[[2]string{ref.TraceID, ref.SpanID}] {
						t.Errorf("span %s %s: parent %s is not in the recording", s.SpanID, s.OperationName, ref.SpanID)
					}
				case export.FollowsFrom:
					follows++
				default:
					t.Errorf("span %s: reference type %q", s.SpanID, ref.RefType)
				}
			}
		}
	}
	if follows != links || childOf != parents {
		t.Errorf("%d FOLLOWS_FROM and %d CHILD_OF references, want %d links and %d parents", follows, childOf, links, parents)
	}
}
