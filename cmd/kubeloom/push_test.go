package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/kubeloom/kubeloom/traces/push"
)

// executePush runs `kubeloom push` (not yet in the root command's list
// here, so built on its own) with args.
func executePush(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := newPushCmd(deps{streams: streams{in: strings.NewReader(""), out: &out, err: &errOut}}, nil)
	cmd.SetArgs(args)
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

// pushRecording writes a two-span recording (a parent and its child, as
// stdouttrace writes them) and returns its path.
func pushRecording(t *testing.T, extra ...string) string {
	t.Helper()
	line := func(name, spanID, parentID, start string) string {
		return fmt.Sprintf(`{"Name":%q,"SpanContext":{"TraceID":"0af7651916cd43dd8448eb211c80319c","SpanID":%q,"TraceFlags":"01","TraceState":"","Remote":false},`+
			`"Parent":{"TraceID":"0af7651916cd43dd8448eb211c80319c","SpanID":%q,"TraceFlags":"01","TraceState":"","Remote":false},"SpanKind":1,`+
			`"StartTime":%q,"EndTime":"2026-12-02T10:15:30Z","Attributes":[{"Key":"goroutine.name","Value":{"Type":"STRING","Value":"informer/run"}}],`+
			`"Events":null,"Links":null,"Status":{"Code":"Unset","Description":""},"DroppedAttributes":0,"DroppedEvents":0,"DroppedLinks":0,"ChildSpanCount":0,`+
			`"Resource":[{"Key":"service.name","Value":{"Type":"STRING","Value":"informers"}}],"InstrumentationScope":{"Name":"github.com/kubeloom/kubeloom/sim","Version":"","SchemaURL":""}}`,
			name, spanID, parentID, start)
	}
	lines := []string{
		line("informer/run", "b7ad6b7169203331", "0000000000000000", "2026-12-02T10:15:00Z"),
		line("HandleDeltas", "00f067aa0ba902b7", "b7ad6b7169203331", "2026-12-02T10:15:01.5Z"),
	}
	lines = append(lines, extra...)
	path := filepath.Join(t.TempDir(), "rec.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// otlpReceiver counts the spans an OTLP/HTTP receiver on 127.0.0.1 gets.
func otlpReceiver(t *testing.T) (*httptest.Server, func() int) {
	srv, received, _ := otlpReceiverWithStarts(t)
	return srv, received
}

// otlpReceiverWithStarts also tells the earliest span start it got.
func otlpReceiverWithStarts(t *testing.T) (*httptest.Server, func() int, func() time.Time) {
	t.Helper()
	var mu sync.Mutex
	n := 0
	var first time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req collectortrace.ExportTraceServiceRequest
		if r.URL.Path != "/v1/traces" || proto.Unmarshal(body, &req) != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		mu.Lock()
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				n += len(ss.Spans)
				for _, sp := range ss.Spans {
					if at := time.Unix(0, int64(sp.StartTimeUnixNano)).UTC(); first.IsZero() || at.Before(first) {
						first = at
					}
				}
			}
		}
		mu.Unlock()
		out, _ := proto.Marshal(&collectortrace.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(out)
	}))
	t.Cleanup(srv.Close)
	return srv, func() int {
			mu.Lock()
			defer mu.Unlock()
			return n
		}, func() time.Time {
			mu.Lock()
			defer mu.Unlock()
			return first
		}
}

// TestPushMovesARunToItsWallClockTime: a recording whose scenario span says
// when the run was made arrives at that time, as it did live; with
// --simulated-time, at its recorded (simulated) time.
func TestPushMovesARunToItsWallClockTime(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "")
	scenario := `{"Name":"scenario informer-basics","SpanContext":{"TraceID":"1af7651916cd43dd8448eb211c80319c","SpanID":"c7ad6b7169203331","TraceFlags":"01","TraceState":"","Remote":false},` +
		`"Parent":{"TraceID":"00000000000000000000000000000000","SpanID":"0000000000000000","TraceFlags":"00","TraceState":"","Remote":false},"SpanKind":1,` +
		`"StartTime":"2026-12-02T10:15:00Z","EndTime":"2026-12-02T10:15:30Z","Attributes":[` +
		`{"Key":"kubeloom.clock.origin","Value":{"Type":"STRING","Value":"2026-12-02T10:15:00Z"}},` +
		`{"Key":"kubeloom.run.wall_start","Value":{"Type":"STRING","Value":"2026-12-03T09:00:00Z"}}],` +
		`"Events":null,"Links":null,"Status":{"Code":"Unset","Description":""},"DroppedAttributes":0,"DroppedEvents":0,"DroppedLinks":0,"ChildSpanCount":0,` +
		`"Resource":[{"Key":"service.name","Value":{"Type":"STRING","Value":"kubeloom"}}],"InstrumentationScope":{"Name":"github.com/kubeloom/kubeloom/sim","Version":"","SchemaURL":""}}`
	file := pushRecording(t, scenario)
	for _, tc := range []struct {
		flags []string
		want  string
	}{
		{nil, "2026-12-03T09:00:00Z"},
		{[]string{"--simulated-time"}, "2026-12-02T10:15:00Z"},
	} {
		srv, _, first := otlpReceiverWithStarts(t)
		out, err := executePush(t, append([]string{file, "--otlp-endpoint", srv.URL}, tc.flags...)...)
		if err != nil {
			t.Fatal(err)
		}
		if got := first().Format(time.RFC3339); got != tc.want {
			t.Errorf("push %v: the first span arrived at %s, want %s\n%s", tc.flags, got, tc.want, out)
		}
	}
}

func TestPush(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "")
	srv, received := otlpReceiver(t)
	file := pushRecording(t)
	out, err := executePush(t, file, "--otlp-endpoint", srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"pushed 2 spans (1 traces) from " + file + " to " + srv.URL, "services: informers", "spans start between"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if n := received(); n != 2 {
		t.Errorf("the receiver got %d spans, want 2", n)
	}
}

func TestPushHonoursTheOTLPEnvironment(t *testing.T) {
	for _, tc := range []struct{ name, variable, path string }{
		{"endpoint", "OTEL_EXPORTER_OTLP_ENDPOINT", ""},                         // the SDK adds /v1/traces
		{"traces endpoint", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "/v1/traces"}, // used as it is
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
			t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "")
			t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "")
			t.Setenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "")
			srv, received := otlpReceiver(t)
			t.Setenv(tc.variable, srv.URL+tc.path)
			out, err := executePush(t, pushRecording(t))
			if err != nil {
				t.Fatal(err)
			}
			if want := "to " + srv.URL + tc.path + " (http/protobuf, from OTEL_EXPORTER_OTLP_*)"; !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
			if n := received(); n != 2 {
				t.Errorf("the receiver got %d spans, want 2", n)
			}
		})
	}
}

func TestPushErrors(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()
	srv, received := otlpReceiver(t)
	bad := pushRecording(t, `{"Name":"broken","SpanContext":{"TraceID":"xyz"}}`)
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"no file", []string{}, []string{"accepts 1 arg"}},
		{"no endpoint", []string{pushRecording(t)}, []string{"no OTLP endpoint", "--otlp-endpoint", "OTEL_EXPORTER_OTLP_ENDPOINT"}},
		{"missing file", []string{"nope.jsonl", "--otlp-endpoint", srv.URL}, []string{"nope.jsonl", "nothing was pushed"}},
		{"bad line", []string{bad, "--otlp-endpoint", srv.URL}, []string{bad + ":3:", "SpanContext.TraceID", "nothing was pushed"}},
		{"bad endpoint", []string{pushRecording(t), "--otlp-endpoint", "127.0.0.1:4318"}, []string{"invalid OTLP endpoint"}},
		{"nobody listening", []string{pushRecording(t), "--otlp-endpoint", closed}, []string{"failed to push to " + closed, "make jaeger"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := executePush(t, tc.args...)
			if err == nil {
				t.Fatal("push succeeded")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
	if n := received(); n != 0 {
		t.Errorf("the receiver got %d spans of failed pushes, want 0", n)
	}
}

func TestNewPushCmd(t *testing.T) {
	newCmd := withoutContext(newPushCmd)
	noEnv := deps{otlpEnv: func() string { return "" }}
	checkFlags(t, newCmd, noEnv, []flagCase[pushOptions]{{
		name: "endpoint",
		args: []string{"run.jsonl", "--otlp-endpoint", "http://127.0.0.1:4318"},
		want: pushOptions{file: "run.jsonl", endpoint: "http://127.0.0.1:4318", timeout: push.DefaultTimeout},
	}, {
		name: "every flag",
		args: []string{"run.jsonl", "--otlp-endpoint", "grpc://127.0.0.1:4317", "--timeout", "3s", "--simulated-time"},
		want: pushOptions{file: "run.jsonl", endpoint: "grpc://127.0.0.1:4317", timeout: 3 * time.Second, simulatedTime: true},
	}, {
		name: "no endpoint",
		args: []string{"run.jsonl"},
		err:  "no OTLP endpoint: give --otlp-endpoint http://127.0.0.1:4318 (or grpc://127.0.0.1:4317), or set OTEL_EXPORTER_OTLP_ENDPOINT; `make jaeger` starts a Jaeger there",
	}, {
		name: "no file",
		args: []string{"--otlp-endpoint", "http://127.0.0.1:4318"},
		err:  "accepts 1 arg(s), received 0",
	}})
	env := deps{otlpEnv: func() string { return "http://127.0.0.1:4318" }}
	checkFlags(t, newCmd, env, []flagCase[pushOptions]{{
		name: "endpoint from the environment",
		args: []string{"run.jsonl"},
		want: pushOptions{file: "run.jsonl", endpoint: "env", timeout: push.DefaultTimeout},
	}, {
		name: "the flag wins",
		args: []string{"run.jsonl", "--otlp-endpoint", "grpc://127.0.0.1:4317"},
		want: pushOptions{file: "run.jsonl", endpoint: "grpc://127.0.0.1:4317", timeout: push.DefaultTimeout},
	}})
}
