package tracing

import (
	"bytes"
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.uber.org/goleak"

	"github.com/kubeloom/kubeloom/traces"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// closedPort returns a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// silentPort returns a loopback address that accepts connections and
// never answers, as a hung collector does.
func silentPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
		}
	}()
	t.Cleanup(func() {
		l.Close()
		<-done
		for _, c := range conns {
			c.Close()
		}
	})
	return l.Addr().String()
}

func TestExporterFailureKeepsTheRecording(t *testing.T) {
	for _, tc := range []struct {
		name, scheme string
		addr         func(*testing.T) string
	}{{"http refused", "http", closedPort}, {"grpc refused", "grpc", closedPort}, {"http silent", "http", silentPort}, {"grpc silent", "grpc", silentPort}} {
		t.Run(tc.name, func(t *testing.T) {
			var rec, out bytes.Buffer
			tr, err := New(context.Background(), Options{Recording: &rec, Stdout: &out, OTLPEndpoint: tc.scheme + "://" + tc.addr(t), ExportTimeout: 300 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			tp := tr.Provider(attribute.String("service.name", "informers"), attribute.String("service.instance.id", "i-0"))
			tracer := Tracer(tp)
			for range 100 {
				_, sp := tracer.Start(context.Background(), "work")
				sp.End()
			}
			if err := tr.Shutdown(context.Background()); err == nil && tr.ExportError() == nil {
				t.Errorf("no error from an OTLP endpoint that refuses connections")
			}
			spans, err := traces.Read(&rec, "rec.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			if len(spans) != 100 || tr.Spans() != 100 || tr.Ended() != 100 {
				t.Errorf("recording has %d spans (Spans %d, Ended %d), want 100", len(spans), tr.Spans(), tr.Ended())
			}
			if spans[0].Resource.String("service.instance.id") != "i-0" || spans[0].Scope != ScopeName {
				t.Errorf("resource/scope not recorded: %+v %q", spans[0].Resource, spans[0].Scope)
			}
			if n := strings.Count(out.String(), "\n"); n != 100 {
				t.Errorf("stdout got %d lines, want 100", n)
			}
		})
	}
}

func TestProvidersShareTheRecording(t *testing.T) {
	var rec bytes.Buffer
	tr, err := New(context.Background(), Options{Recording: &rec})
	if err != nil {
		t.Fatal(err)
	}
	a := Tracer(tr.Provider(attribute.String("service.instance.id", "a")))
	b := Tracer(tr.Provider(attribute.String("service.instance.id", "b")))
	_, s := a.Start(context.Background(), "x")
	s.End()
	_, s = b.Start(context.Background(), "y")
	s.End()
	if err := tr.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	spans, _ := traces.Read(&rec, "rec.jsonl")
	got := map[string]string{}
	for _, s := range spans {
		got[s.Name] = s.Resource.String("service.instance.id")
	}
	if got["x"] != "a" || got["y"] != "b" {
		t.Errorf("spans by instance = %v", got)
	}
}

func TestBadEndpoint(t *testing.T) {
	for _, ep := range []string{"127.0.0.1:4318", "ftp://127.0.0.1:1", "http://"} {
		if _, err := New(context.Background(), Options{Recording: &bytes.Buffer{}, OTLPEndpoint: ep}); err == nil {
			t.Errorf("endpoint %q accepted", ep)
		}
	}
}
