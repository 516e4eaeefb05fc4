package push

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	"github.com/kubeloom/kubeloom/internal/deadend"
	"github.com/kubeloom/kubeloom/traces"
)

// t0 has nanoseconds, so that a lost digit shows.
var t0 = time.Date(2026, 12, 2, 10, 15, 0, 123456789, time.UTC)

// recording makes a small recording the way kubeloom run does (two
// instances, a goroutine span with a child iteration, an event, a causal
// link across resources, attributes of every type) and reads it back.
func recording(t *testing.T) []traces.Span {
	t.Helper()
	var buf bytes.Buffer
	rec := traces.NewRecorder(&buf)
	provider := func(service, instance string) *sdktrace.TracerProvider {
		return sdktrace.NewTracerProvider(sdktrace.WithSyncer(rec), sdktrace.WithResource(resource.NewSchemaless(
			attribute.String("service.name", service),
			attribute.String("service.instance.id", instance),
			attribute.String("kubeloom.scenario", "push-test"),
		)))
	}
	informers := provider("informers", "informers")
	cm := provider("kube-controller-manager", "cm-0")
	tr := informers.Tracer("github.com/kubeloom/kubeloom/sim")

	ctx, root := tr.Start(context.Background(), "informer/run", trace.WithTimestamp(t0),
		trace.WithAttributes(
			attribute.String("goroutine.name", "informer/run"),
			attribute.Int64("goroutine.period_s", 1),
			attribute.Float64("ratio", 0.25),
			attribute.Bool("sampled", true),
			attribute.StringSlice("handlers", []string{"h0", "h1"}),
			attribute.Int64Slice("ints", []int64{1, -2}),
			attribute.Float64Slice("floats", []float64{1.5}),
			attribute.BoolSlice("bools", []bool{true, false}),
		))
	_, child := tr.Start(ctx, "OnAdd", trace.WithTimestamp(t0.Add(time.Millisecond)),
		trace.WithAttributes(attribute.String("k8s.object.key", "default/web-0"), attribute.Int64("iteration", 1)))
	child.AddEvent("became leader", trace.WithTimestamp(t0.Add(2*time.Millisecond)), trace.WithAttributes(attribute.String("lock", "endpoints")))
	child.SetStatus(codes.Error, "handler failed")
	child.End(trace.WithTimestamp(t0.Add(3 * time.Millisecond)))
	// A worker in another instance (another resource, another trace),
	// caused by the handler call.
	_, worker := cm.Tracer("github.com/kubeloom/kubeloom/sim").Start(context.Background(), "syncPod",
		trace.WithTimestamp(t0.Add(4*time.Millisecond)),
		trace.WithLinks(trace.Link{SpanContext: child.SpanContext(), Attributes: []attribute.KeyValue{
			attribute.String("kubeloom.link", "cause"), attribute.String("k8s.object.key", "default/web-0"),
		}}))
	worker.End(trace.WithTimestamp(t0.Add(5 * time.Millisecond)))
	root.End(trace.WithTimestamp(t0.Add(time.Second)))
	for _, tp := range []*sdktrace.TracerProvider{informers, cm} {
		if err := tp.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	spans, err := traces.Read(&buf, "push-test.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(spans) != 3 {
		t.Fatalf("recorded %d spans, want 3", len(spans))
	}
	return spans
}

// got is what a receiver was sent: every request, decoded.
type got struct {
	mu       sync.Mutex
	requests []*collectortrace.ExportTraceServiceRequest
}

func (g *got) add(req *collectortrace.ExportTraceServiceRequest) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.requests = append(g.requests, req)
}

type receivedSpan struct {
	span     *tracepb.Span
	resource map[string]any
	scope    string
}

// spans indexes the received spans by span ID.
func (g *got) spans() map[trace.SpanID]receivedSpan {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := map[trace.SpanID]receivedSpan{}
	for _, req := range g.requests {
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					out[spanID(s.SpanId)] = receivedSpan{span: s, resource: anyValues(rs.Resource.GetAttributes()), scope: ss.Scope.GetName()}
				}
			}
		}
	}
	return out
}

// httpReceiver is an OTLP/HTTP receiver on 127.0.0.1, as a collector serves it.
func httpReceiver(t *testing.T) (*got, string) {
	t.Helper()
	g := &got{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" {
			http.Error(w, "unexpected "+r.URL.Path, http.StatusNotFound)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var req collectortrace.ExportTraceServiceRequest
		if err := proto.Unmarshal(body, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		g.add(&req)
		out, _ := proto.Marshal(&collectortrace.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(out)
	}))
	t.Cleanup(srv.Close)
	return g, srv.URL
}

type traceService struct {
	collectortrace.UnimplementedTraceServiceServer
	got *got
}

func (s traceService) Export(_ context.Context, req *collectortrace.ExportTraceServiceRequest) (*collectortrace.ExportTraceServiceResponse, error) {
	s.got.add(req)
	return &collectortrace.ExportTraceServiceResponse{}, nil
}

// grpcReceiver is an OTLP/gRPC receiver on 127.0.0.1.
func grpcReceiver(t *testing.T) (*got, string) {
	t.Helper()
	g := &got{}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	collectortrace.RegisterTraceServiceServer(srv, traceService{got: g})
	done := make(chan struct{})
	go func() { srv.Serve(l); close(done) }()
	t.Cleanup(func() { srv.Stop(); <-done })
	return g, "grpc://" + l.Addr().String()
}

func TestPushKeepsTheRecording(t *testing.T) {
	for _, tc := range []struct {
		name     string
		receiver func(*testing.T) (*got, string)
	}{
		{"http", httpReceiver},
		{"grpc", grpcReceiver},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spans := recording(t)
			g, endpoint := tc.receiver(t)
			if err := Push(context.Background(), spans, endpoint); err != nil {
				t.Fatal(err)
			}
			received := g.spans()
			if len(received) != len(spans) {
				t.Fatalf("receiver got %d spans, want %d", len(received), len(spans))
			}
			for _, want := range spans {
				r, ok := received[want.SpanID]
				if !ok {
					t.Errorf("span %s (%s) not received", want.Name, want.SpanID)
					continue
				}
				compare(t, want, r)
			}
		})
	}
}

// traceID and spanID read OTLP's bytes; no bytes (a root's parent) read as
// the zero ID.
func traceID(b []byte) (id trace.TraceID) {
	copy(id[:], b)
	return id
}

func spanID(b []byte) (id trace.SpanID) {
	copy(id[:], b)
	return id
}

// compare checks that a received span is the recorded one.
func compare(t *testing.T, want traces.Span, r receivedSpan) {
	t.Helper()
	s := r.span
	if s.Name != want.Name {
		t.Errorf("%s: name %q", want.Name, s.Name)
	}
	if id := traceID(s.TraceId); id != want.TraceID {
		t.Errorf("%s: trace ID %s, want %s", want.Name, id, want.TraceID)
	}
	if id := spanID(s.ParentSpanId); id != want.ParentSpanID {
		t.Errorf("%s: parent span ID %s (%d bytes), want %s", want.Name, id, len(s.ParentSpanId), want.ParentSpanID)
	}
	if got, w := s.StartTimeUnixNano, uint64(want.Start.UnixNano()); got != w {
		t.Errorf("%s: start %d, want %d", want.Name, got, w)
	}
	if got, w := s.EndTimeUnixNano, uint64(want.End.UnixNano()); got != w {
		t.Errorf("%s: end %d, want %d", want.Name, got, w)
	}
	if got, w := int(s.Kind), want.Kind; got != w {
		t.Errorf("%s: kind %d, want %d", want.Name, got, w)
	}
	if got := anyValues(s.Attributes); !equalAttrs(got, want.Attributes) {
		t.Errorf("%s: attributes %v, want %v", want.Name, got, want.Attributes)
	}
	if !equalAttrs(r.resource, want.Resource) {
		t.Errorf("%s: resource %v, want %v", want.Name, r.resource, want.Resource)
	}
	if r.scope != want.Scope {
		t.Errorf("%s: scope %q, want %q", want.Name, r.scope, want.Scope)
	}
	if want.StatusCode == "Error" && (s.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR || s.Status.GetMessage() != want.StatusDesc) {
		t.Errorf("%s: status %v, want Error %q", want.Name, s.Status, want.StatusDesc)
	}
	if len(s.Events) != len(want.Events) {
		t.Errorf("%s: %d events, want %d", want.Name, len(s.Events), len(want.Events))
	} else {
		for i, e := range want.Events {
			ge := s.Events[i]
			if ge.Name != e.Name || ge.TimeUnixNano != uint64(e.Time.UnixNano()) || !equalAttrs(anyValues(ge.Attributes), e.Attributes) {
				t.Errorf("%s: event %d is %v, want %+v", want.Name, i, ge, e)
			}
		}
	}
	if len(s.Links) != len(want.Links) {
		t.Errorf("%s: %d links, want %d", want.Name, len(s.Links), len(want.Links))
	} else {
		for i, l := range want.Links {
			gl := s.Links[i]
			if traceID(gl.TraceId) != l.TraceID || spanID(gl.SpanId) != l.SpanID || !equalAttrs(anyValues(gl.Attributes), l.Attributes) {
				t.Errorf("%s: link %d is %v, want %+v", want.Name, i, gl, l)
			}
		}
	}
}

// anyValues converts OTLP attributes to the Go values traces.Attributes holds.
func anyValues(kvs []*commonpb.KeyValue) map[string]any {
	out := map[string]any{}
	for _, kv := range kvs {
		out[kv.Key] = anyValue(kv.Value)
	}
	return out
}

func anyValue(v *commonpb.AnyValue) any {
	switch x := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_BoolValue:
		return x.BoolValue
	case *commonpb.AnyValue_IntValue:
		return x.IntValue
	case *commonpb.AnyValue_DoubleValue:
		return x.DoubleValue
	case *commonpb.AnyValue_BytesValue:
		return x.BytesValue
	case *commonpb.AnyValue_ArrayValue:
		var out []any
		for _, e := range x.ArrayValue.Values {
			out = append(out, anyValue(e))
		}
		return out
	case *commonpb.AnyValue_KvlistValue:
		return anyValues(x.KvlistValue.Values)
	}
	return nil
}

// equalAttrs compares received values with recorded ones; OTLP carries
// typed slices as arrays of values.
func equalAttrs(got map[string]any, want traces.Attributes) bool {
	if len(got) != len(want) {
		return false
	}
	for k, w := range want {
		if !equalValue(got[k], w) {
			return false
		}
	}
	return true
}

func equalValue(got, want any) bool {
	switch w := want.(type) {
	case []string:
		return equalSlice(got, w)
	case []int64:
		return equalSlice(got, w)
	case []float64:
		return equalSlice(got, w)
	case []bool:
		return equalSlice(got, w)
	}
	return got == want
}

func equalSlice[T comparable](got any, want []T) bool {
	g, ok := got.([]any)
	if !ok || len(g) != len(want) {
		return false
	}
	for i := range want {
		if g[i] != any(want[i]) {
			return false
		}
	}
	return true
}

func TestPushSendsARequestPerResourceAndBatch(t *testing.T) {
	spans := recording(t) // informers ×2, kube-controller-manager ×1
	spans = append(spans, spans...)
	g, endpoint := httpReceiver(t)
	if err := Push(context.Background(), spans, endpoint, WithBatchSize(3)); err != nil {
		t.Fatal(err)
	}
	var sizes []int
	for _, req := range g.requests {
		if len(req.ResourceSpans) != 1 {
			t.Errorf("a request holds %d resources, want 1", len(req.ResourceSpans))
		}
		n := 0
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				n += len(ss.Spans)
			}
		}
		sizes = append(sizes, n)
	}
	// informers: 4 spans in batches of 3 and 1; the cm: 2.
	if want := []int{3, 1, 2}; !equalInts(sizes, want) {
		t.Errorf("request sizes %v, want %v", sizes, want)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestPushAnUnreachableEndpointFailsWithinTheTimeout(t *testing.T) {
	spans := recording(t)
	closed, silent := deadend.Refused(t), deadend.Hung(t)
	const timeout = 500 * time.Millisecond
	cases := []struct{ name, endpoint string }{
		{"http closed port", "http://" + closed},
		{"grpc closed port", "grpc://" + closed},
		{"http never answers", "http://" + silent},
		{"grpc never answers", "grpc://" + silent},
	}
	// All at once (t.Parallel would run only GOMAXPROCS of them at a time).
	type result struct {
		err  error
		took time.Duration
	}
	results := make([]result, len(cases))
	var wg sync.WaitGroup
	for i, tc := range cases {
		wg.Go(func() {
			start := time.Now()
			err := Push(context.Background(), spans, tc.endpoint, WithTimeout(timeout))
			results[i] = result{err, time.Since(start)}
		})
	}
	wg.Wait()
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := results[i]
			if r.err == nil {
				t.Fatal("Push succeeded")
			}
			t.Logf("after %s: %v", r.took.Round(time.Millisecond), r.err)
			// The bound is the timeout (and a second to close the
			// connection); the rest is a margin for a loaded machine.
			if r.took > timeout+time.Second+2*time.Second {
				t.Errorf("Push took %s, want at most about %s", r.took, timeout+time.Second)
			}
			for _, want := range []string{tc.endpoint, "0 of 3 spans", "make jaeger"} {
				if !strings.Contains(r.err.Error(), want) {
					t.Errorf("error %q does not say %q", r.err, want)
				}
			}
		})
	}
}

func TestPushStopsWhenTheContextEnds(t *testing.T) {
	spans := recording(t)
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Push(ctx, spans, "http://"+silent.Addr().String()); !errors.Is(err, context.Canceled) {
		t.Errorf("Push = %v, want context.Canceled", err)
	}
}

func TestPushRejectsBadInput(t *testing.T) {
	good := recording(t)
	badID := append([]traces.Span(nil), good...)
	badID[1].SpanID = trace.SpanID{}
	for _, tc := range []struct {
		name     string
		spans    []traces.Span
		endpoint string
		want     string
	}{
		{"no scheme", good, "127.0.0.1:4318", "invalid OTLP endpoint"},
		{"unknown scheme", good, "ftp://127.0.0.1:4318", "the scheme must be http, https, grpc or grpcs"},
		{"bad span ID", badID, "http://127.0.0.1:1", "line 2: span"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Push(context.Background(), tc.spans, tc.endpoint)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Push = %v, want an error saying %q", err, tc.want)
			}
		})
	}
	if err := Push(context.Background(), nil, "http://127.0.0.1:1"); err != nil {
		t.Errorf("Push of no spans = %v, want nil (nothing to send)", err)
	}
}

func TestValueRoundTripsEveryType(t *testing.T) {
	for _, v := range []any{nil, "s", true, int64(-3), 1.5, []string{"a"}, []bool{true}, []int64{1}, []float64{2.5},
		[]byte{1, 2}, []any{"a", int64(1)}, traces.Attributes{"k": "v"}} {
		av := value(v)
		if v == nil {
			if av.Type() != attribute.EMPTY {
				t.Errorf("value(nil) is %s", av.Type())
			}
			continue
		}
		if av.Type() == attribute.STRING && v != "s" {
			t.Errorf("value(%#v) fell back to a string", v)
		}
	}
}
