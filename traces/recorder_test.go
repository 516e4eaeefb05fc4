package traces

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// Strings that need every kind of JSON escaping encoding/json does.
var trickyStrings = []string{
	"",
	"plain ascii",
	"日本語 ✓ 🙂 é",
	`"quoted" and back\slash`,
	"controls \x00\x01\x07\x1f\x7f \b\f\n\r\t end",
	"<a href=\"x\">&amp;</a>",
	"line\u2028sep\u2029para",
	"invalid \xff\xfe utf8 \xc3( and \xe2\x80 cut",
	"\xe2\x80\xa8\xe2\x80\xa9",
	"trailing invalid \xed\xa0\x80",
}

var (
	utc   = time.UTC
	india = time.FixedZone("IST", 5*3600+30*60)
	west  = time.FixedZone("", -7*3600)
	odd   = time.FixedZone("LMT", 3600+23*60+45) // seconds in the offset
)

// allValueAttributes returns attributes of every attribute type.
func allValueAttributes(prefix string) []attribute.KeyValue {
	kvs := []attribute.KeyValue{
		attribute.Bool(prefix+"bool.true", true),
		attribute.Bool(prefix+"bool.false", false),
		attribute.Int64(prefix+"int.zero", 0),
		attribute.Int64(prefix+"int.neg", -42),
		attribute.Int64(prefix+"int.max", math.MaxInt64),
		attribute.Int64(prefix+"int.min", math.MinInt64),
		attribute.Int(prefix+"int.int", 7),
		attribute.Float64(prefix+"float.zero", 0),
		attribute.Float64(prefix+"float.negzero", math.Copysign(0, -1)),
		attribute.Float64(prefix+"float.half", 1.5),
		attribute.Float64(prefix+"float.period", 60),
		attribute.Float64(prefix+"float.big", 1e21),
		attribute.Float64(prefix+"float.justbelowbig", 999999999999999900000),
		attribute.Float64(prefix+"float.small", 1e-7),
		attribute.Float64(prefix+"float.justsmall", 0.000001),
		attribute.Float64(prefix+"float.tiny", 5e-324),
		attribute.Float64(prefix+"float.max", math.MaxFloat64),
		attribute.Float64(prefix+"float.third", 1.0/3),
		attribute.Float64(prefix+"float.negexp", -1.234e-100),
		attribute.BoolSlice(prefix+"boolslice", []bool{true, false, true}),
		attribute.BoolSlice(prefix+"boolslice.empty", []bool{}),
		attribute.BoolSlice(prefix+"boolslice.long", []bool{true, true, false, false, true}),
		attribute.Int64Slice(prefix+"intslice", []int64{1, -2, math.MaxInt64}),
		attribute.Int64Slice(prefix+"intslice.empty", nil),
		attribute.IntSlice(prefix+"intslice.long", []int{1, 2, 3, 4, 5, 6}),
		attribute.Float64Slice(prefix+"floatslice", []float64{0.5, 1e21, 1e-7}),
		attribute.Float64Slice(prefix+"floatslice.long", []float64{1, 2, 3, 4.25}),
		attribute.StringSlice(prefix+"stringslice", trickyStrings[:3]),
		attribute.StringSlice(prefix+"stringslice.tricky", trickyStrings),
		attribute.StringSlice(prefix+"stringslice.empty", []string{}),
		attribute.ByteSlice(prefix+"bytes", []byte("hello, bytes\x00\xff")),
		attribute.ByteSlice(prefix+"bytes.1", []byte("a")),
		attribute.ByteSlice(prefix+"bytes.2", []byte("ab")),
		attribute.ByteSlice(prefix+"bytes.empty", nil),
		attribute.Slice(prefix+"slice", attribute.StringValue("s"), attribute.IntValue(3),
			attribute.Float64SliceValue([]float64{2.5}), attribute.BoolValue(true)),
		attribute.Slice(prefix + "slice.empty"),
		attribute.Map(prefix+"map", attribute.String("z", "last"), attribute.Int("a", 1),
			attribute.Map("nested", attribute.Bool("ok", true))),
		attribute.Map(prefix + "map.empty"),
		{Key: attribute.Key(prefix + "empty")},
	}
	for i, s := range trickyStrings {
		kvs = append(kvs, attribute.String(fmt.Sprintf("%sstring.%d", prefix, i), s))
	}
	// Keys need escaping too.
	kvs = append(kvs, attribute.String(prefix+"key \"<&>\"\u2028\xff", "v"))
	return kvs
}

// testSpans returns finished spans that cover everything the stdouttrace
// JSON can contain.
func testSpans(t testing.TB) []sdktrace.ReadOnlySpan {
	t.Helper()
	ctx := context.Background()
	var out []sdktrace.ReadOnlySpan

	// A provider with a resource of several attributes and generous limits.
	res := resource.NewSchemaless(
		attribute.String("service.name", "kubelet"),
		attribute.String("service.instance.id", "node-1"),
		attribute.String("kubeloom.scenario", "kubelet-startup <&>"),
		attribute.Int("kubeloom.seed", 1),
		attribute.StringSlice("kubeloom.tags", []string{"a", "b"}),
	)
	sr := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr), sdktrace.WithResource(res))
	tr := tp.Tracer("github.com/kubeloom/kubeloom/sim",
		trace.WithInstrumentationVersion("0.1.0"),
		trace.WithSchemaURL("https://opentelemetry.io/schemas/1.26.0"),
		trace.WithInstrumentationAttributes(attribute.String("kubeloom.component", "kubelet"), attribute.Bool("x", true)))
	bare := tp.Tracer("")

	base := time.Date(2025, 3, 1, 12, 30, 45, 123456789, utc)
	rootCtx, root := tr.Start(ctx, "kubelet/main", trace.WithTimestamp(base),
		trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(allValueAttributes("")...))
	_, other := bare.Start(ctx, "other-trace", trace.WithTimestamp(base.In(india)))
	other.End(trace.WithTimestamp(base.Add(time.Nanosecond).In(india)))

	for i, ns := range []int{0, 1, 10, 100, 120000000, 999999999, 500} {
		zone := []*time.Location{utc, india, west, odd}[i%4]
		start := time.Date(2025, 3, 1, 12, 31, i, ns, zone)
		_, child := tr.Start(rootCtx, fmt.Sprintf("iteration %d %s", i, trickyStrings[i%len(trickyStrings)]),
			trace.WithTimestamp(start),
			trace.WithSpanKind(trace.SpanKind(i%6)),
			trace.WithAttributes(attribute.Int("iteration", i), attribute.String("goroutine.name", "kubelet/container-gc")),
			trace.WithLinks(trace.Link{
				SpanContext: other.SpanContext(),
				Attributes:  []attribute.KeyValue{attribute.String("kubeloom.link", "cause"), attribute.String("k8s.object.key", "default/web-0")},
			}),
		)
		child.AddEvent("became leader", trace.WithTimestamp(start.Add(time.Duration(ns)+1)),
			trace.WithAttributes(attribute.String("k8s.event.type", "ADDED"), attribute.Float64("f", 2.5)))
		child.AddEvent(trickyStrings[(i+3)%len(trickyStrings)], trace.WithTimestamp(start.Add(time.Microsecond)))
		if i%2 == 1 {
			child.SetStatus(codes.Error, "failed: "+trickyStrings[i%len(trickyStrings)])
		} else if i == 4 {
			child.SetStatus(codes.Ok, "ignored for Ok")
		}
		child.End(trace.WithTimestamp(start.Add(time.Duration(i) * time.Second)))
	}

	// A span with a remote parent that carries a trace state.
	ts, err := trace.ParseTraceState("kubeloom=a<b&c>d,vendor@x=1,other=v2")
	if err != nil {
		t.Fatal(err)
	}
	remote := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID:    trace.TraceID{0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
		SpanID:     trace.SpanID{0xca, 0xfe, 0, 0, 0, 0, 0, 1},
		TraceFlags: trace.FlagsSampled | trace.FlagsRandom,
		TraceState: ts,
		Remote:     true,
	})
	_, rs := tr.Start(trace.ContextWithRemoteSpanContext(ctx, remote), "handle remote",
		trace.WithSpanKind(trace.SpanKindServer),
		trace.WithLinks(trace.Link{SpanContext: remote, Attributes: []attribute.KeyValue{attribute.String("why", "remote")}}))
	rs.SetAttributes(attribute.String("wall.clock", "no explicit timestamps"))
	rs.End()

	root.End(trace.WithTimestamp(base.Add(90 * time.Second)))
	out = append(out, sr.Ended()...)

	// A provider with low limits, so every dropped count is non-zero, and an
	// empty resource.
	limits := sdktrace.NewSpanLimits()
	limits.AttributeCountLimit = 3
	limits.EventCountLimit = 1
	limits.LinkCountLimit = 1
	limits.AttributePerEventCountLimit = 1
	limits.AttributePerLinkCountLimit = 1
	limits.AttributeValueLengthLimit = 4
	sr2 := tracetest.NewSpanRecorder()
	tp2 := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr2), sdktrace.WithRawSpanLimits(limits),
		sdktrace.WithResource(resource.Empty()))
	tr2 := tp2.Tracer("limited", trace.WithInstrumentationVersion("v2"))
	_, ls := tr2.Start(ctx, "limited",
		trace.WithAttributes(append([]attribute.KeyValue{attribute.String("long", "truncated value")}, allValueAttributes("l.")[:6]...)...),
		trace.WithLinks( // the SDK keeps the last links and events
			trace.Link{SpanContext: remote},
			trace.Link{SpanContext: other.SpanContext(), Attributes: []attribute.KeyValue{attribute.Int("a", 1), attribute.Int("b", 2)}},
		))
	ls.AddEvent("e1")
	ls.AddEvent("e2", trace.WithAttributes(attribute.Int("a", 1), attribute.Int("b", 2)))
	ls.End()
	out = append(out, sr2.Ended()...)

	// A provider with the default resource (telemetry.sdk.*, service.name).
	sr3 := tracetest.NewSpanRecorder()
	tp3 := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr3))
	_, ds := tp3.Tracer("default-resource").Start(ctx, "default")
	ds.End()
	out = append(out, sr3.Ended()...)

	for _, p := range []*sdktrace.TracerProvider{tp, tp2, tp3} {
		if err := p.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
	}

	// Stubs for what the SDK never produces but a re-exported recording may
	// hold: zero timestamps, nil and empty lists, a nil resource, an empty
	// scope, an invalid link.
	stubs := tracetest.SpanStubs{
		{
			Name:        "zero times",
			SpanContext: other.SpanContext(),
		},
		{
			Name:                 "stub with empties",
			SpanContext:          remote.WithRemote(false),
			Parent:               other.SpanContext(),
			SpanKind:             trace.SpanKindConsumer,
			StartTime:            time.Date(1970, 1, 1, 0, 0, 0, 0, utc),
			EndTime:              time.Date(9999, 12, 31, 23, 59, 59, 999999999, west),
			Attributes:           []attribute.KeyValue{},
			Events:               []sdktrace.Event{{Name: "zero-time event"}, {Name: "", Attributes: []attribute.KeyValue{}, DroppedAttributeCount: 3, Time: base}},
			Links:                []sdktrace.Link{{}, {SpanContext: remote, Attributes: []attribute.KeyValue{}, DroppedAttributeCount: 2}},
			Status:               sdktrace.Status{Code: codes.Error, Description: ""},
			DroppedAttributes:    5,
			DroppedEvents:        6,
			DroppedLinks:         7,
			ChildSpanCount:       8,
			Resource:             res,
			InstrumentationScope: instrumentation.Scope{Name: "s", Attributes: *attribute.EmptySet()},
		},
		{
			Name:        "year 0",
			SpanContext: other.SpanContext(),
			StartTime:   time.Date(0, 1, 1, 0, 0, 0, 1, utc),
			EndTime:     time.Date(0, 1, 1, 0, 0, 0, 2, utc),
		},
	}
	out = append(out, stubs.Snapshots()...)
	return out
}

// unencodableSpans are spans stdouttrace cannot encode (and leaves out with
// an error); the Recorder must leave them out too.
func unencodableSpans(t testing.TB) []sdktrace.ReadOnlySpan {
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1}, SpanID: trace.SpanID{1}})
	return tracetest.SpanStubs{
		{Name: "year 10000", SpanContext: sc, StartTime: time.Date(10000, 1, 1, 0, 0, 0, 0, utc)},
		{Name: "negative year", SpanContext: sc, EndTime: time.Date(-1, 1, 1, 0, 0, 0, 0, utc)},
		{Name: "event in year 10000", SpanContext: sc, Events: []sdktrace.Event{{Name: "e", Time: time.Date(10000, 1, 1, 0, 0, 0, 0, utc)}}},
		{Name: "offset 24h", SpanContext: sc, StartTime: time.Date(2020, 1, 1, 0, 0, 0, 0, time.FixedZone("", 24*3600))},
		{Name: "bad status", SpanContext: sc, Status: sdktrace.Status{Code: codes.Code(7)}},
	}.Snapshots()
}

func stdouttraceOutput(t testing.TB, spans []sdktrace.ReadOnlySpan) (string, error) {
	t.Helper()
	var buf bytes.Buffer
	exp, err := stdouttrace.New(stdouttrace.WithWriter(&buf))
	if err != nil {
		t.Fatal(err)
	}
	err = exp.ExportSpans(context.Background(), spans)
	return buf.String(), err
}

func recorderOutput(t testing.TB, spans []sdktrace.ReadOnlySpan) (string, error) {
	t.Helper()
	var buf bytes.Buffer
	rec := NewRecorder(&buf)
	err := rec.ExportSpans(context.Background(), spans)
	if serr := rec.Shutdown(context.Background()); serr != nil {
		t.Fatal(serr)
	}
	return buf.String(), err
}

// compareLines reports every line where got differs from want, with the
// first differing byte and the text around it.
func compareLines(t *testing.T, want, got string) {
	t.Helper()
	wl := strings.SplitAfter(want, "\n")
	gl := strings.SplitAfter(got, "\n")
	if len(wl) != len(gl) {
		t.Errorf("stdouttrace wrote %d lines, the Recorder %d", len(wl)-1, len(gl)-1)
	}
	bad := 0
	for i := 0; i < min(len(wl), len(gl)); i++ {
		w, g := wl[i], gl[i]
		if w == g {
			continue
		}
		if bad++; bad > 5 {
			t.Errorf("... and more lines differ")
			return
		}
		d := 0
		for d < len(w) && d < len(g) && w[d] == g[d] {
			d++
		}
		from := max(0, d-80)
		t.Errorf("line %d differs at byte %d:\n  stdouttrace: …%s\n  Recorder:    …%s\n(full stdouttrace line: %s)",
			i+1, d, w[from:min(len(w), d+80)], g[from:min(len(g), d+80)], w)
	}
}

func TestRecorderMatchesStdouttrace(t *testing.T) {
	spans := testSpans(t)
	want, werr := stdouttraceOutput(t, spans)
	if werr != nil {
		t.Fatalf("stdouttrace could not encode the test spans: %v", werr)
	}
	got, gerr := recorderOutput(t, spans)
	if gerr != nil {
		t.Fatalf("ExportSpans: %v", gerr)
	}
	if n := strings.Count(want, "\n"); n != len(spans) {
		t.Fatalf("stdouttrace wrote %d lines for %d spans", n, len(spans))
	}
	compareLines(t, want, got)
	// Every kind of JSON escaping was exercised.
	for _, esc := range []string{`\"`, `\\`, `\u0000`, `\u001f`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u003c`, `\u003e`, `\u0026`, `\u2028`, `\u2029`, `\ufffd`, "\x7f", `"Remote":true`, `"TraceState":"kubeloom=a\u003cb`} {
		if !strings.Contains(got, esc) {
			t.Errorf("the test spans do not exercise %s", esc)
		}
	}
	for _, s := range []string{`"DroppedAttributes":0`, `"DroppedAttributes":4`, `{"Key":"long","Value":{"Type":"STRING","Value":"trun"}}`, `"DroppedEvents":1`, `"DroppedLinks":1`, `"DroppedAttributeCount":1`, `"Resource":null`, `"Attributes":null`, `"Attributes":[]`, `"Events":null`, `"Code":"Error"`, `"Code":"Ok"`, `+05:30"`, `-07:00"`, `+01:23"`, `"0001-01-01T00:00:00Z"`, `"Type":"EMPTY","Value":null`, `"ChildSpanCount":7`} {
		if !strings.Contains(got, s) {
			t.Errorf("the test spans do not exercise %s", s)
		}
	}
}

func TestRecorderLeavesOutWhatStdouttraceCannotEncode(t *testing.T) {
	good := testSpans(t)[:3]
	bad := unencodableSpans(t)
	var mixed []sdktrace.ReadOnlySpan
	for i := range max(len(good), len(bad)) {
		if i < len(bad) {
			mixed = append(mixed, bad[i])
		}
		if i < len(good) {
			mixed = append(mixed, good[i])
		}
	}
	want, werr := stdouttraceOutput(t, mixed)
	if werr == nil {
		t.Fatal("stdouttrace encoded spans it should not be able to encode")
	}
	got, gerr := recorderOutput(t, mixed)
	if gerr == nil {
		t.Fatal("ExportSpans returned no error for unencodable spans")
	}
	compareLines(t, want, got)
	for _, s := range bad {
		if !strings.Contains(gerr.Error(), fmt.Sprintf("%q", s.Name())) {
			t.Errorf("the error does not name span %q: %v", s.Name(), gerr)
		}
	}
}

func TestRecorderNaNAndInf(t *testing.T) {
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1}, SpanID: trace.SpanID{2}})
	spans := tracetest.SpanStubs{{
		Name:        "nan",
		SpanContext: sc,
		Attributes: []attribute.KeyValue{
			attribute.Float64("nan", math.NaN()),
			attribute.Float64("inf", math.Inf(1)),
			attribute.Float64("-inf", math.Inf(-1)),
			attribute.Float64Slice("slice", []float64{1, math.NaN(), math.Inf(-1)}),
		},
	}}.Snapshots()
	got, err := recorderOutput(t, spans)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, `{"Key":"nan","Value":{"Type":"FLOAT64","Value":"NaN"}}`) ||
		!strings.Contains(got, `[1,"NaN","-Infinity"]`) {
		t.Errorf("NaN and infinities are not written as strings:\n%s", got)
	}
	read, err := Read(strings.NewReader(got), "nan.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	a := read[0].Attributes
	if f, _ := a.Float("nan"); !math.IsNaN(f) {
		t.Errorf("nan = %v", a["nan"])
	}
	if f, _ := a.Float("inf"); !math.IsInf(f, 1) {
		t.Errorf("inf = %v", a["inf"])
	}
	if f, _ := a.Float("-inf"); !math.IsInf(f, -1) {
		t.Errorf("-inf = %v", a["-inf"])
	}
	if s := a["slice"].([]float64); s[0] != 1 || !math.IsNaN(s[1]) || !math.IsInf(s[2], -1) {
		t.Errorf("slice = %v", s)
	}
}

// TestRecorderRoundTrip reads the Recorder's output back and checks every
// field of every span against the spans that were written.
func TestRecorderRoundTrip(t *testing.T) {
	spans := testSpans(t)
	out, err := recorderOutput(t, spans)
	if err != nil {
		t.Fatal(err)
	}
	read, err := Read(strings.NewReader(out), "run.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(read) != len(spans) {
		t.Fatalf("read %d spans, wrote %d", len(read), len(spans))
	}
	for i, ro := range spans {
		want := expectedSpan(ro, i+1)
		if got := read[i]; !reflect.DeepEqual(normalize(got), normalize(want)) {
			t.Errorf("span %d (%q) read back as\n  %#v\nwant\n  %#v", i, ro.Name(), got, want)
		}
	}
	// Spot checks that do not depend on expectedSpan.
	var root Span
	for _, s := range read {
		if s.Name == "kubelet/main" {
			root = s
		}
	}
	if root.ParentSpanID.IsValid() || root.Scope != "github.com/kubeloom/kubeloom/sim" ||
		root.Resource.String("service.name") != "kubelet" || root.Attributes.String("string.2") != "日本語 ✓ 🙂 é" {
		t.Errorf("root span read back as %+v", root)
	}
	if n, ok := root.Attributes.Int("int.min"); !ok || n != math.MinInt64 {
		t.Errorf("int.min = %v", root.Attributes["int.min"])
	}
	if !root.Start.Equal(time.Date(2025, 3, 1, 12, 30, 45, 123456789, utc)) {
		t.Errorf("root start = %v", root.Start)
	}
}

// expectedSpan is what Read should return for ro.
func expectedSpan(ro sdktrace.ReadOnlySpan, line int) Span {
	s := Span{
		Name:         ro.Name(),
		TraceID:      ro.SpanContext().TraceID(),
		SpanID:       ro.SpanContext().SpanID(),
		ParentSpanID: ro.Parent().SpanID(),
		Kind:         int(ro.SpanKind()),
		Start:        asWritten(ro.StartTime()),
		End:          asWritten(ro.EndTime()),
		Attributes:   expectedAttributes(ro.Attributes()),
		Resource:     expectedAttributes(ro.Resource().Attributes()),
		Scope:        ro.InstrumentationScope().Name,
		StatusCode:   ro.Status().Code.String(),
		StatusDesc:   ro.Status().Description,
		Line:         line,
	}
	for _, e := range ro.Events() {
		s.Events = append(s.Events, Event{Name: e.Name, Time: asWritten(e.Time), Attributes: expectedAttributes(e.Attributes)})
	}
	for _, l := range ro.Links() {
		s.Links = append(s.Links, Link{TraceID: l.SpanContext.TraceID(), SpanID: l.SpanContext.SpanID(), Attributes: expectedAttributes(l.Attributes)})
	}
	return s
}

func expectedAttributes(kvs []attribute.KeyValue) Attributes {
	if len(kvs) == 0 {
		return nil
	}
	a := Attributes{}
	for _, kv := range kvs {
		// Read decodes strings from JSON: invalid UTF-8 became U+FFFD.
		a[validUTF8(string(kv.Key))] = expectedValue(kv.Value)
	}
	return a
}

func validUTF8(s string) string {
	var b strings.Builder
	for _, r := range s { // each invalid byte decodes as one U+FFFD, as encoding/json writes it
		b.WriteRune(r)
	}
	return b.String()
}

func expectedValue(v attribute.Value) any {
	switch v.Type() {
	case attribute.STRING:
		return validUTF8(v.AsString())
	case attribute.STRINGSLICE:
		var s []string
		for _, x := range v.AsStringSlice() {
			s = append(s, validUTF8(x))
		}
		if s == nil {
			s = []string{}
		}
		return s
	case attribute.SLICE:
		s := []any{}
		for _, x := range v.AsSlice() {
			s = append(s, expectedValue(x))
		}
		return s
	case attribute.MAP:
		m := Attributes{}
		for _, kv := range v.AsMap() {
			m[string(kv.Key)] = expectedValue(kv.Value)
		}
		return m
	case attribute.BYTESLICE:
		return []byte(v.AsString())
	}
	return v.AsInterface()
}

// asWritten is t as it reads back from RFC 3339: a zone offset keeps only
// hours and minutes (a zone like LMT+01:23:45 loses its 45 seconds).
func asWritten(t time.Time) time.Time {
	p, err := time.Parse(time.RFC3339Nano, t.Format(time.RFC3339Nano))
	if err != nil {
		panic(err)
	}
	return p
}

// normalize makes spans comparable with reflect.DeepEqual: times in UTC
// (Read cannot restore a zone's name) and invalid UTF-8 replaced.
func normalize(s Span) Span {
	s.Start, s.End = s.Start.UTC(), s.End.UTC()
	s.Name = validUTF8(s.Name)
	s.StatusDesc = validUTF8(s.StatusDesc)
	s.Events = append([]Event(nil), s.Events...)
	for i := range s.Events {
		s.Events[i].Time = s.Events[i].Time.UTC()
		s.Events[i].Name = validUTF8(s.Events[i].Name)
	}
	return s
}

func TestRecorderConcurrentExports(t *testing.T) {
	spans := testSpans(t)
	var buf bytes.Buffer
	rec := NewRecorder(&buf)
	var wg sync.WaitGroup
	const goroutines, rounds = 8, 20
	for range goroutines {
		wg.Go(func() {
			for range rounds {
				if err := rec.ExportSpans(context.Background(), spans); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := rec.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := int64(goroutines * rounds * len(spans))
	if rec.Spans() != want {
		t.Errorf("Spans() = %d, want %d", rec.Spans(), want)
	}
	read, err := Read(&buf, "concurrent.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(read)) != want {
		t.Errorf("read %d spans, want %d", len(read), want)
	}
}

// writeLog records every Write call.
type writeLog struct{ writes [][]byte }

func (w *writeLog) Write(p []byte) (int, error) {
	w.writes = append(w.writes, append([]byte(nil), p...))
	return len(p), nil
}

func TestRecorderWritesWholeLines(t *testing.T) {
	spans := testSpans(t)
	// A batch far larger than the write threshold.
	var batch []sdktrace.ReadOnlySpan
	for len(batch) < 3000 {
		batch = append(batch, spans...)
	}
	w := &writeLog{}
	rec := NewRecorder(w)
	ctx := context.Background()
	for range 3 {
		if err := rec.ExportSpans(ctx, batch); err != nil {
			t.Fatal(err)
		}
		n := len(w.writes)
		if n == 0 || !bytes.HasSuffix(w.writes[n-1], []byte("\n")) {
			t.Fatal("ExportSpans returned with lines not written")
		}
	}
	if len(w.writes) < 6 {
		t.Errorf("%d writes for 3 batches of %d spans: expected the Recorder to write in chunks", len(w.writes), len(batch))
	}
	total := 0
	for i, p := range w.writes {
		if !bytes.HasSuffix(p, []byte("\n")) {
			t.Errorf("write %d does not end with a whole line", i)
		}
		total += bytes.Count(p, []byte("\n"))
	}
	if total != 3*len(batch) || rec.Spans() != int64(total) {
		t.Errorf("wrote %d lines, Spans() = %d, want %d", total, rec.Spans(), 3*len(batch))
	}
	if err := rec.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := rec.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := rec.ExportSpans(ctx, spans); err == nil {
		t.Error("ExportSpans after Shutdown returned no error")
	}
	if err := rec.Shutdown(ctx); err != nil {
		t.Errorf("second Shutdown: %v", err)
	}
}

// failingWriter accepts ok bytes, then fails.
type failingWriter struct {
	ok    int
	calls int
}

var errDiskFull = errors.New("no space left on device")

func (w *failingWriter) Write(p []byte) (int, error) {
	w.calls++
	if len(p) <= w.ok {
		w.ok -= len(p)
		return len(p), nil
	}
	n := w.ok
	w.ok = 0
	return n, errDiskFull
}

func TestRecorderWriteErrorIsSticky(t *testing.T) {
	spans := testSpans(t)
	ctx := context.Background()
	w := &failingWriter{ok: 100}
	rec := NewRecorder(w)
	err := rec.ExportSpans(ctx, spans)
	if !errors.Is(err, errDiskFull) {
		t.Fatalf("ExportSpans = %v, want the write error", err)
	}
	calls := w.calls
	for i := range 3 {
		if err := rec.ExportSpans(ctx, spans); !errors.Is(err, errDiskFull) {
			t.Errorf("ExportSpans #%d after the error = %v", i+2, err)
		}
	}
	if w.calls != calls {
		t.Errorf("the Recorder kept writing after a write error")
	}
	if err := rec.Flush(); !errors.Is(err, errDiskFull) {
		t.Errorf("Flush = %v", err)
	}
	if err := rec.Shutdown(ctx); !errors.Is(err, errDiskFull) {
		t.Errorf("Shutdown = %v", err)
	}
	if err := rec.Shutdown(ctx); !errors.Is(err, errDiskFull) {
		t.Errorf("second Shutdown = %v", err)
	}
	if rec.Spans() != 0 {
		t.Errorf("Spans() = %d after a failed write", rec.Spans())
	}

	// A short write without an error is an error too.
	rec = NewRecorder(shortWriter{})
	if err := rec.ExportSpans(ctx, spans); !errors.Is(err, io.ErrShortWrite) {
		t.Errorf("short write: %v", err)
	}
}

type shortWriter struct{}

func (shortWriter) Write(p []byte) (int, error) { return len(p) / 2, nil }

func TestRecorderCanceledContext(t *testing.T) {
	var buf bytes.Buffer
	rec := NewRecorder(&buf)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := rec.ExportSpans(ctx, testSpans(t)); !errors.Is(err, context.Canceled) {
		t.Errorf("ExportSpans with a canceled context = %v", err)
	}
	if buf.Len() != 0 {
		t.Error("wrote spans with a canceled context")
	}
}

// TestRecorderWithBatchSpanProcessor runs the Recorder as kubeloom does:
// behind a BatchSpanProcessor, flushed by Shutdown.
func TestRecorderWithBatchSpanProcessor(t *testing.T) {
	var buf bytes.Buffer
	rec := NewRecorder(&buf)
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(rec, sdktrace.WithBlocking()))
	tr := tp.Tracer("bsp")
	for i := range 2000 {
		_, s := tr.Start(context.Background(), "syncPod", trace.WithAttributes(attribute.Int("iteration", i)))
		s.End()
	}
	if err := tp.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if rec.Spans() != 2000 {
		t.Errorf("Spans() = %d", rec.Spans())
	}
	spans, err := Read(&buf, "bsp.jsonl")
	if err != nil || len(spans) != 2000 {
		t.Fatalf("read %d spans, err %v", len(spans), err)
	}
	for i, s := range spans {
		if n, _ := s.Attributes.Int("iteration"); n != int64(i) || s.Line != i+1 {
			t.Fatalf("span %d: iteration %d, line %d", i, n, s.Line)
		}
	}
}

func TestAppendFloatMatchesEncodingJSON(t *testing.T) {
	for _, f := range []float64{0, 1, -1, 0.1, 1e20, 1e21, 1.5e21, 1e-6, 9.99e-7, 1e-7, 123456789012345678, 5e-324, math.MaxFloat64, -math.SmallestNonzeroFloat64, 1e100, 1.7976931348623157e308, 2.5e-10, 100, 1e6} {
		sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1}, SpanID: trace.SpanID{1}})
		spans := tracetest.SpanStubs{{Name: "f", SpanContext: sc, Attributes: []attribute.KeyValue{attribute.Float64("f", f)}}}.Snapshots()
		want, err := stdouttraceOutput(t, spans)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := recorderOutput(t, spans)
		if got != want {
			t.Errorf("%v: got\n%s\nwant\n%s", f, got, want)
		}
	}
}

func TestTimeCacheMatchesMarshalJSON(t *testing.T) {
	var c timeCache
	zones := []*time.Location{time.UTC, time.Local, india, west, odd, time.FixedZone("", 24*3600), time.FixedZone("", -23*3600-59*60)}
	if nyc, err := time.LoadLocation("America/New_York"); err == nil {
		zones = append(zones, nyc)
	}
	base := []time.Time{
		{},
		time.Now(),
		time.Date(2025, 3, 9, 6, 59, 59, 999999999, time.UTC), // around a DST change in New York
		time.Date(2025, 3, 9, 7, 0, 0, 0, time.UTC),
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(1969, 12, 31, 23, 59, 59, 500, time.UTC),
	}
	for _, b0 := range base {
		for _, z := range zones {
			for _, ns := range []int{0, 1, 10, 120, 500000, 999999999, 100000000, 123456789} {
				for _, d := range []time.Duration{0, time.Duration(ns), time.Second - 1, time.Second, 59 * time.Minute} {
					tm := b0.In(z).Add(d)
					want, werr := tm.MarshalJSON()
					got, gerr := c.append([]byte("x"), tm)
					if (werr != nil) != (gerr != nil) {
						t.Fatalf("%v: MarshalJSON error %v, timeCache error %v", tm, werr, gerr)
					}
					if werr == nil && string(got) != "x"+string(want) {
						t.Fatalf("%v: got %s, want %s", tm, got[1:], want)
					}
					if werr != nil && string(got) != "x" {
						t.Fatalf("%v: on error the buffer was changed to %q", tm, got)
					}
				}
			}
		}
	}
}

func jsonMarshalString(t testing.TB, s string) string {
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(want)
}

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	check := func(s string) {
		if got, want := string(appendString(nil, s)), jsonMarshalString(t, s); got != want {
			t.Fatalf("appendString(%q) = %s, want %s", s, got, want)
		}
	}
	for c := range 256 {
		for pos := range 18 {
			for _, n := range []int{pos + 1, 18} {
				b := bytes.Repeat([]byte("a"), n)
				b[pos] = byte(c)
				check(string(b))
			}
		}
	}
	for _, s := range trickyStrings {
		check(s)
		check(s + s + "0123456789abcdef")
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "<", "&", "\"", "\\", "\n", "\x00", "é", "日", "🙂", "\u2028", "\u2029", "\xff", "\xe2\x80", "\xed\xa0\x80", "\x7f", " "}
	for range 20000 {
		var sb strings.Builder
		for range rnd.IntN(40) {
			sb.WriteString(alphabet[rnd.IntN(len(alphabet))])
		}
		check(sb.String())
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range trickyStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(appendString(nil, s)), jsonMarshalString(t, s); got != want {
			t.Fatalf("appendString(%q) = %s, want %s", s, got, want)
		}
	})
}

func TestAppendFloatIntegers(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 60, 1e15 - 1, 1e15, -1e15 + 1, 123456789012345, 4503599627370496.5, 1e20} {
		want, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendFloat(nil, f); string(got) != string(want) {
			t.Errorf("appendFloat(%v) = %s, want %s", f, got, want)
		}
	}
}
