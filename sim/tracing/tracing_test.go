package tracing

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.uber.org/goleak"

	"github.com/kubeloom/kubeloom/internal/deadend"
	"github.com/kubeloom/kubeloom/traces"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestExporterFailureKeepsTheRecording(t *testing.T) {
	for _, tc := range []struct {
		name, scheme string
		addr         func(testing.TB) string
	}{{"http refused", "http", deadend.Refused}, {"grpc refused", "grpc", deadend.Refused}, {"http silent", "http", deadend.Hung}, {"grpc silent", "grpc", deadend.Hung}} {
		t.Run(tc.name, func(t *testing.T) {
			var rec, out bytes.Buffer
			addr := tc.addr(t)
			tr, err := New(context.Background(), Options{Recording: &rec, Stdout: &out, OTLPEndpoint: tc.scheme + "://" + addr, ExportTimeout: 300 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			tp := tr.Provider(attribute.String("service.name", "informers"), attribute.String("service.instance.id", "i-0"))
			tracer := Tracer(tp)
			for range 100 {
				_, sp := tracer.Start(context.Background(), "work")
				sp.End()
			}
			endpoint := tc.scheme + "://" + addr
			if err := tr.Shutdown(context.Background()); err != nil {
				t.Errorf("Shutdown failed although the recording is complete: %v", err)
			}
			want := "the OTLP export to " + endpoint + " failed: "
			if err := tr.ExportError(); err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("ExportError() = %v, want one that starts with %q", err, want)
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

// An export that ran out of time says so, whichever deadline ended it: the
// exporter's own, or the batch processor's (whose cause is not
// DeadlineExceeded).
func TestExportTimeoutsSayNoAnswer(t *testing.T) {
	for _, cause := range []error{
		context.DeadlineExceeded,
		fmt.Errorf("traces export: Post %q: %w", "http://127.0.0.1:1/v1/traces", errors.New("processor export timeout")),
	} {
		tr := &Tracing{timeout: 500 * time.Millisecond}
		tr.keep("the OTLP export to http://127.0.0.1:1", cause)
		if got := tr.ExportError().Error(); !strings.Contains(got, "failed: no answer within 500ms") {
			t.Errorf("%v: the error says %q", cause, got)
		}
	}
}
