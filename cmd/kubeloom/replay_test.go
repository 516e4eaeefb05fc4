package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/termview"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// writeRecording writes spans (made with timelinetest) to a trace file
// through the Recorder, as `kubeloom run` would have written them.
func writeRecording(t testing.TB, spans []traces.Span) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "recording.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec := traces.NewRecorder(f)
	resources := map[string]*resource.Resource{}
	stubs := make(tracetest.SpanStubs, 0, len(spans))
	for _, s := range spans {
		key := fmt.Sprint(s.Resource)
		res := resources[key]
		if res == nil {
			res = resource.NewSchemaless(keyValues(s.Resource)...)
			resources[key] = res
		}
		stubs = append(stubs, stub(&s, res))
	}
	if err := rec.ExportSpans(context.Background(), stubs.Snapshots()); err != nil {
		t.Fatal(err)
	}
	if err := rec.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	return path
}

func stub(s *traces.Span, res *resource.Resource) tracetest.SpanStub {
	st := tracetest.SpanStub{
		Name:                 s.Name,
		SpanContext:          spanContext(s.TraceID, s.SpanID),
		SpanKind:             trace.SpanKind(s.Kind),
		StartTime:            s.Start,
		EndTime:              s.End,
		Attributes:           keyValues(s.Attributes),
		Resource:             res,
		InstrumentationScope: instrumentation.Scope{Name: s.Scope},
	}
	if s.ParentSpanID.IsValid() {
		st.Parent = spanContext(s.TraceID, s.ParentSpanID)
	}
	for _, e := range s.Events {
		st.Events = append(st.Events, sdktrace.Event{Name: e.Name, Time: e.Time, Attributes: keyValues(e.Attributes)})
	}
	for _, l := range s.Links {
		st.Links = append(st.Links, sdktrace.Link{SpanContext: spanContext(l.TraceID, l.SpanID), Attributes: keyValues(l.Attributes)})
	}
	switch s.StatusCode {
	case "Error":
		st.Status = sdktrace.Status{Code: codes.Error, Description: s.StatusDesc}
	case "Ok":
		st.Status = sdktrace.Status{Code: codes.Ok}
	}
	return st
}

func spanContext(tid trace.TraceID, sid trace.SpanID) trace.SpanContext {
	return trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled})
}

func keyValues(a traces.Attributes) []attribute.KeyValue {
	kvs := make([]attribute.KeyValue, 0, len(a))
	for k, v := range a {
		switch v := v.(type) {
		case string:
			kvs = append(kvs, attribute.String(k, v))
		case int64:
			kvs = append(kvs, attribute.Int64(k, v))
		case float64:
			kvs = append(kvs, attribute.Float64(k, v))
		case bool:
			kvs = append(kvs, attribute.Bool(k, v))
		case []string:
			kvs = append(kvs, attribute.StringSlice(k, v))
		default:
			kvs = append(kvs, attribute.String(k, fmt.Sprint(v)))
		}
	}
	return kvs
}

// twoNodes is a small recording: two kubelets with a few loops, and the
// scenario's instance.
func twoNodes() []traces.Span {
	r := tt.New("two-nodes")
	r.Instance("kubeloom", "scenario")
	run := r.Span(tt.Root, "run", 0, 60)
	act := r.Span(run, "action/create", 20, 20, catalog.AttrObjectKey, "default/web-0")
	for _, node := range []string{"node-1", "node-2"} {
		r.Instance("kubelet", node)
		krun := r.Span(tt.Root, "run", 0, 60)
		for _, l := range []struct {
			name, iter string
			period     float64
		}{
			{"kubelet/pleg-relist", "relist", 1},
			{"kubelet/container-gc", "Containers/GarbageCollect", 60},
			{"kubelet/node-status", "syncNodeStatus", 10},
		} {
			g := r.Goroutine(krun, l.name, catalog.KindUntil, 0.5, 60, catalog.AttrGoroutinePeriod, l.period)
			r.Loop(g, l.name, l.iter, 0.5, 60, l.period, 0.01)
		}
		w := r.Goroutine(krun, "kubelet/pod-worker", catalog.KindGo, 20.5, 60, catalog.AttrObjectKey, "default/web-0")
		r.Link(w, act)
		it := r.Iteration(w, "kubelet/pod-worker", "syncPod", 1, 20.5, 21)
		r.Event(it, "pulled image", 20.8)
	}
	return r.Spans()
}

func TestReplayFilters(t *testing.T) {
	file := writeRecording(t, twoNodes())
	tests := []struct {
		name     string
		args     []string
		want     []string
		dontWant []string
		err      string
	}{{
		name: "everything",
		args: []string{"--width", "100"},
		want: []string{"11 lanes", "kubelet node-1", "kubelet node-2", "kubeloom scenario", "legend:"},
	}, {
		name:     "one instance, globs",
		args:     []string{"--width", "100", "--instance", "node-2", "--goroutine", "pleg*", "--goroutine", "kubelet/*-gc"},
		want:     []string{"2 of 11 lanes", "kubelet node-2", "pleg-relist", "container-gc"},
		dontWant: []string{"kubelet node-1", "node-status", "pod-worker", "kubeloom scenario"},
	}, {
		name:     "comma-separated, service id",
		args:     []string{"--width", "100", "--instance", "kubelet node-1,kubeloom", "--goroutine", "main"},
		want:     []string{"2 of 11 lanes", "kubelet node-1", "kubeloom scenario"},
		dontWant: []string{"node-2", "pleg"},
	}, {
		name:     "with a window",
		args:     []string{"--width", "100", "--goroutine", "pod-worker", "--from", "20s", "--to", "30s"},
		want:     []string{"2 of 11 lanes", "window 20s to 30s"},
		dontWant: []string{"pleg"},
	}, {
		name:     "summary only",
		args:     []string{"--summary", "--instance", "node-1"},
		want:     []string{"INSTANCE", "GOROUTINE", "ITERATIONS", "kubelet node-1  kubelet/pleg-relist", "total", "5 of 11 lanes"},
		dontWant: []string{"legend:", "simulated time ┼", "node-2"},
	}, {
		name: "no such instance",
		args: []string{"--instance", "node-3"},
		err:  "no instance matches --instance node-3: the recording has kubelet node-1, kubelet node-2, kubeloom scenario",
	}, {
		name: "bad glob",
		args: []string{"--goroutine", "[pleg"},
		err:  `--goroutine "[pleg": syntax error in pattern`,
	}, {
		name: "bad colour",
		args: []string{"--color", "sometimes"},
		err:  `invalid argument "sometimes" for "--color" flag: "sometimes" is not a colour mode: use auto, always or never`,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := execute(t, append([]string{"replay", file}, tc.args...)...)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.want {
				if !strings.Contains(out, s) {
					t.Errorf("output lacks %q:\n%s", s, out)
				}
			}
			for _, s := range tc.dontWant {
				if strings.Contains(out, s) {
					t.Errorf("output has %q:\n%s", s, out)
				}
			}
			if strings.Contains(out, "\x1b[") {
				t.Errorf("colour in output that is not a terminal:\n%q", out)
			}
		})
	}
}

func TestReplayColorFlag(t *testing.T) {
	file := writeRecording(t, twoNodes())
	t.Setenv("NO_COLOR", "1")
	for _, tc := range []struct {
		args  []string
		color bool
	}{
		{[]string{"--width", "80"}, false},
		{[]string{"--width", "80", "--color", "never"}, false},
		{[]string{"--width", "80", "--color", "always"}, true}, // the flag wins over NO_COLOR
		{[]string{"--summary", "--color", "always"}, true},
	} {
		out, _, err := execute(t, append([]string{"replay", file}, tc.args...)...)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(out, "\x1b["); got != tc.color {
			t.Errorf("%v: colour %v, want %v", tc.args, got, tc.color)
		}
	}
}

func TestNewReplayCmd(t *testing.T) {
	checkFlags(t, newReplayCmd, deps{}, []flagCase[replayOptions]{{
		name: "defaults",
		args: []string{"run.jsonl"},
		want: replayOptions{file: "run.jsonl", lang: "en"},
	}, {
		name: "latency",
		args: []string{"run.jsonl", "--latency", "--lang", "zh", "--width", "80", "--ascii"},
		want: replayOptions{file: "run.jsonl", latency: true, lang: "zh", width: 80, ascii: true},
	}, {
		name: "bad language",
		args: []string{"run.jsonl", "--latency", "--lang", "fr"},
		err:  `invalid argument "fr" for "--lang" flag: unknown language "fr": expected en (English) or zh (中文)`,
	}, {
		name: "every flag",
		args: []string{"run.jsonl", "--width", "160", "--from", "18s", "--to", "1m", "--ascii", "--instance", "node-1,kubelet node-2", "--instance", "cm-*",
			"--goroutine", "pleg*", "--expand", "replicaset", "--expand", "all", "--summary", "--color", "always"},
		want: replayOptions{file: "run.jsonl", width: 160, from: 18 * time.Second, to: time.Minute, ascii: true,
			instances: []string{"node-1", "kubelet node-2", "cm-*"}, goroutines: []string{"pleg*"}, expand: []string{"replicaset", "all"},
			summary: true, color: termview.ColorAlways, lang: "en"},
	}, {
		name: "no file",
		err:  "accepts 1 arg(s), received 0",
	}, {
		name: "bad pattern",
		args: []string{"run.jsonl", "--goroutine", "[pleg"},
		err:  "--goroutine \"[pleg\": syntax error in pattern: see `go doc path.Match` for the syntax (*, ?, [a-z], \\ to escape)",
	}, {
		name: "bad colour",
		args: []string{"run.jsonl", "--color", "sometimes"},
		err:  `invalid argument "sometimes" for "--color" flag: "sometimes" is not a colour mode: use auto, always or never`,
	}, {
		name: "bad width",
		args: []string{"run.jsonl", "--width", "wide"},
		err:  `invalid argument "wide" for "--width" flag: strconv.ParseInt: parsing "wide": invalid syntax`,
	}})
}
