package tracing

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
)

// received collects the span names a real OTLP receiver got.
type received struct {
	mu    sync.Mutex
	names map[string]int
}

func (r *received) add(req *collectortrace.ExportTraceServiceRequest) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				r.names[s.Name]++
			}
		}
	}
}

type traceService struct {
	collectortrace.UnimplementedTraceServiceServer
	got *received
}

func (s traceService) Export(_ context.Context, req *collectortrace.ExportTraceServiceRequest) (*collectortrace.ExportTraceServiceResponse, error) {
	s.got.add(req)
	return &collectortrace.ExportTraceServiceResponse{}, nil
}

func emit(t *testing.T, endpoint string) {
	t.Helper()
	var rec bytes.Buffer
	tr, err := New(context.Background(), Options{Recording: &rec, OTLPEndpoint: endpoint})
	if err != nil {
		t.Fatal(err)
	}
	tracer := Tracer(tr.Provider(attribute.String("service.name", "informers")))
	for _, name := range []string{"pods.List", "pods.Watch", "OnAdd"} {
		_, sp := tracer.Start(context.Background(), name)
		sp.End()
	}
	if err := tr.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := tr.ExportError(); err != nil {
		t.Fatal(err)
	}
}

func TestOTLPHTTPReachesARealReceiver(t *testing.T) {
	got := &received{names: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" {
			http.Error(w, "unexpected "+r.URL.Path, http.StatusNotFound)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req collectortrace.ExportTraceServiceRequest
		if err := proto.Unmarshal(body, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		got.add(&req)
		w.Header().Set("Content-Type", "application/x-protobuf")
		out, _ := proto.Marshal(&collectortrace.ExportTraceServiceResponse{})
		w.Write(out)
	}))
	defer srv.Close()
	emit(t, srv.URL) // http://127.0.0.1:PORT, the path defaults to /v1/traces
	if got.names["pods.List"] != 1 || got.names["pods.Watch"] != 1 || got.names["OnAdd"] != 1 {
		t.Errorf("receiver got %v", got.names)
	}
}

// grpcReceiver serves OTLP/gRPC on a loopback port until the test ends.
func grpcReceiver(t *testing.T) (addr string, got *received) {
	got = &received{names: map[string]int{}}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	collectortrace.RegisterTraceServiceServer(srv, traceService{got: got})
	done := make(chan struct{})
	go func() { srv.Serve(l); close(done) }()
	t.Cleanup(func() { srv.Stop(); <-done })
	return l.Addr().String(), got
}

func TestOTLPGRPCReachesARealReceiver(t *testing.T) {
	addr, got := grpcReceiver(t)
	emit(t, "grpc://"+addr)
	if got.names["pods.List"] != 1 || got.names["OnAdd"] != 1 {
		t.Errorf("receiver got %v", got.names)
	}
}

// TestOTLPFromTheEnvironment: "env" follows OTEL_EXPORTER_OTLP_ENDPOINT and
// OTEL_EXPORTER_OTLP_PROTOCOL, gRPC included.
func TestOTLPFromTheEnvironment(t *testing.T) {
	addr, got := grpcReceiver(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://"+addr)
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
	emit(t, "env")
	if got.names["pods.List"] != 1 || got.names["OnAdd"] != 1 {
		t.Errorf("receiver got %v", got.names)
	}
}
