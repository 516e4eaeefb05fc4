package jaegertest_test

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/internal/jaegertest"
	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/engine"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/push"
)

// TestARunAndItsPushLookTheSameInJaeger runs informer-basics live (speed
// 100) with an OTLP/HTTP export as spans end into a real Jaeger and checks, through both query APIs,
// that Jaeger holds exactly the recording: every span, its service and
// instance, its parent and its links, at the recorded times moved to the
// wall-clock time of the run. Then it pushes the recording over OTLP/gRPC
// into a fresh Jaeger, moved the same way, and checks the same.
func TestARunAndItsPushLookTheSameInJaeger(t *testing.T) {
	live := jaegertest.Start(t)
	sc, err := scenarios.Resolve("informer-basics")
	if err != nil {
		t.Fatal(err)
	}
	var rec bytes.Buffer
	sum, err := engine.Run(context.Background(), engine.Options{
		Scenario: sc, Recording: &rec, Duration: 20 * time.Second, Speed: 100,
		OTLPEndpoint: live.OTLPHTTP, WallStart: time.Now(),
	})
	if err != nil {
		t.Fatal(err)
	}
	if sum.ExportErr != nil {
		t.Fatalf("the live export to Jaeger failed: %v", sum.ExportErr)
	}
	spans, err := traces.Read(&rec, "informer-basics.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the run recorded %d spans", len(spans))
	shift, ok := traces.WallClockOffset(spans)
	if !ok || shift < 9*365*24*time.Hour {
		t.Fatalf("the recording says the wall clock was %v ahead of the simulated one (%v); want about ten years", shift, ok)
	}
	sent := shifted(spans, shift)
	checkJaegerHolds(t, live, sent)
	t.Run("export --format jaeger", func(t *testing.T) {
		checkExportMatchesJaeger(t, live, rawQuery(sent), sent)
	})

	t.Run("push", func(t *testing.T) {
		fresh := jaegertest.Start(t)
		start := time.Now()
		if err := push.Push(context.Background(), spans, fresh.OTLPGRPC, push.WithShift(shift)); err != nil {
			t.Fatal(err)
		}
		t.Logf("pushed %d spans in %s", len(spans), time.Since(start).Round(time.Millisecond))
		checkJaegerHolds(t, fresh, sent)
	})
}

// TestARunInVirtualTimeArrivesInJaeger runs informer-basics as a user does,
// in virtual time (the built binary), with --otlp-endpoint: the run pushes
// its recording when it ends, and Jaeger holds exactly the recording, moved
// to the wall-clock time of the run.
func TestARunInVirtualTimeArrivesInJaeger(t *testing.T) {
	j := jaegertest.Start(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "kubeloom")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/kubeloom").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	file := filepath.Join(dir, "basics.jsonl")
	out, err := exec.Command(bin, "run", "informer-basics", "-q", "--duration", "20s", "--out", file, "--otlp-endpoint", j.OTLPHTTP).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "pushed ") || strings.Contains(string(out), "warning") {
		t.Fatalf("kubeloom run: %v\n%s", err, out)
	}
	spans, err := traces.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	shift, ok := traces.WallClockOffset(spans)
	if !ok {
		t.Fatal("the recording does not say when it was made")
	}
	checkJaegerHolds(t, j, shifted(spans, shift))
}

// shifted returns copies of spans moved by d, as kubeloom sends them.
func shifted(spans []traces.Span, d time.Duration) []traces.Span {
	out := slices.Clone(spans)
	for i := range out {
		s := &out[i]
		s.Start, s.End = s.Start.Add(d), s.End.Add(d)
		s.Events = slices.Clone(s.Events)
		for j := range s.Events {
			s.Events[j].Time = s.Events[j].Time.Add(d)
		}
	}
	return out
}

// rawQuery asks for every trace of spans as stored (Raw), so that
// timestamps compare exactly.
func rawQuery(spans []traces.Span) jaegertest.Query {
	var minStart, maxStart time.Time
	for _, s := range spans {
		if minStart.IsZero() || s.Start.Before(minStart) {
			minStart = s.Start
		}
		if s.Start.After(maxStart) {
			maxStart = s.Start
		}
	}
	return jaegertest.Query{Start: minStart.Add(-time.Minute), End: maxStart.Add(time.Minute), Raw: true}
}

// checkJaegerHolds checks that Jaeger holds exactly the recorded spans.
func checkJaegerHolds(t *testing.T, j *jaegertest.Jaeger, spans []traces.Span) {
	t.Helper()
	byID := map[string]traces.Span{}
	parents, links := 0, 0
	for _, s := range spans {
		byID[s.SpanID.String()] = s
		if s.ParentSpanID.IsValid() {
			parents++
		}
		links += len(s.Links)
	}
	if parents == 0 || links == 0 {
		t.Fatalf("the recording has %d parented spans and %d links: nothing to check", parents, links)
	}
	q := rawQuery(spans)

	t.Run("api/traces", func(t *testing.T) {
		got := j.WaitSpans(t, q, len(spans))
		if n := jaegertest.CountSpans(got); n != len(spans) {
			t.Errorf("Jaeger has %d spans, the recording %d", n, len(spans))
		}
		services, err := j.Services(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"kubeloom", "informers"} {
			if !slices.Contains(services, want) {
				t.Errorf("services %v lack %q", services, want)
			}
		}
		childOf, followsFrom := 0, 0
		for _, tr := range got {
			for _, s := range tr.Spans {
				want, ok := byID[jaegertest.ID(s.SpanID, 16)]
				if !ok {
					t.Errorf("span %s %q is not in the recording", s.SpanID, s.OperationName)
					continue
				}
				if s.OperationName != want.Name {
					t.Errorf("span %s: operation %q, want %q", s.SpanID, s.OperationName, want.Name)
				}
				if jaegertest.ID(s.TraceID, 32) != want.TraceID.String() {
					t.Errorf("%s: trace %s, want %s", want.Name, s.TraceID, want.TraceID)
				}
				p := tr.Processes[s.ProcessID]
				if p.ServiceName != want.Resource.String("service.name") {
					t.Errorf("%s: service %q, want %q", want.Name, p.ServiceName, want.Resource.String("service.name"))
				}
				if inst, _ := findTag(p.Tags, "service.instance.id"); inst != want.Resource.String("service.instance.id") {
					t.Errorf("%s: service.instance.id %v, want %q", want.Name, inst, want.Resource.String("service.instance.id"))
				}
				if s.StartTime != want.Start.UnixMicro() {
					t.Errorf("%s: start %dµs, want %dµs", want.Name, s.StartTime, want.Start.UnixMicro())
				}
				var parent string
				var linked []string
				for _, r := range s.References {
					switch r.RefType {
					case "CHILD_OF":
						parent = jaegertest.ID(r.SpanID, 16)
						childOf++
					case "FOLLOWS_FROM":
						linked = append(linked, jaegertest.ID(r.TraceID, 32)+"/"+jaegertest.ID(r.SpanID, 16))
						followsFrom++
					}
				}
				if parent != parentHex(want) {
					t.Errorf("%s: CHILD_OF %q, want parent %q", want.Name, parent, parentHex(want))
				}
				if w := linkIDs(want); !sameSet(linked, w) {
					t.Errorf("%s: FOLLOWS_FROM %v, want the links %v", want.Name, linked, w)
				}
			}
		}
		if childOf != parents || followsFrom != links {
			t.Errorf("Jaeger has %d CHILD_OF and %d FOLLOWS_FROM references, the recording %d parents and %d links", childOf, followsFrom, parents, links)
		}
	})

	t.Run("api/v3/traces", func(t *testing.T) {
		got := j.WaitSpansV3(t, q, len(spans))
		if n := jaegertest.CountSpansV3(got); n != len(spans) {
			t.Errorf("Jaeger has %d spans, the recording %d", n, len(spans))
		}
		causes := 0
		for _, rs := range got {
			res := jaegertest.Attrs(rs.Resource.Attributes)
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					want, ok := byID[jaegertest.ID(s.SpanID, 16)]
					if !ok {
						t.Errorf("span %s %q is not in the recording", s.SpanID, s.Name)
						continue
					}
					for _, k := range []string{"service.name", "service.instance.id", "kubeloom.scenario"} {
						if res[k] != want.Resource[k] {
							t.Errorf("%s: resource %s = %v, want %v", want.Name, k, res[k], want.Resource[k])
						}
					}
					if ss.Scope.Name != want.Scope {
						t.Errorf("%s: scope %q, want %q", want.Name, ss.Scope.Name, want.Scope)
					}
					if s.ParentSpanID != parentHex(want) {
						t.Errorf("%s: parent %q, want %q", want.Name, s.ParentSpanID, parentHex(want))
					}
					end := want.End
					if end.Equal(want.Start) {
						// Jaeger keeps no span of zero length: it stores one of a
						// nanosecond. In virtual time work takes no time, so most
						// spans are of zero length.
						end = end.Add(time.Nanosecond)
					}
					if !s.StartTime().Equal(want.Start) || !s.EndTime().Equal(end) {
						t.Errorf("%s: %s–%s, want %s–%s", want.Name, s.StartTime(), s.EndTime(), want.Start, want.End)
					}
					if g, w := jaegertest.Attrs(s.Attributes)["goroutine.name"], want.Attributes["goroutine.name"]; g != w {
						t.Errorf("%s: goroutine.name %v, want %v", want.Name, g, w)
					}
					if len(s.Links) != len(want.Links) {
						t.Errorf("%s: %d links, want %d", want.Name, len(s.Links), len(want.Links))
						continue
					}
					for i, l := range s.Links {
						wl := want.Links[i]
						attrs := jaegertest.Attrs(l.Attributes)
						if l.TraceID != wl.TraceID.String() || l.SpanID != wl.SpanID.String() {
							t.Errorf("%s: link %d to %s/%s, want %s/%s", want.Name, i, l.TraceID, l.SpanID, wl.TraceID, wl.SpanID)
						}
						for k, v := range wl.Attributes {
							if attrs[k] != v {
								t.Errorf("%s: link %d attribute %s = %v, want %v", want.Name, i, k, attrs[k], v)
							}
						}
						if attrs["kubeloom.link"] == "cause" {
							causes++
						}
					}
				}
			}
		}
		if causes == 0 {
			t.Error("no link with kubeloom.link=cause in /api/v3/traces")
		}
	})
}

func findTag(kvs []jaegertest.KeyValue, key string) (any, bool) {
	for _, kv := range kvs {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return nil, false
}

func linkIDs(s traces.Span) []string {
	var ids []string
	for _, l := range s.Links {
		ids = append(ids, l.TraceID.String()+"/"+l.SpanID.String())
	}
	return ids
}

// parentHex is the parent's span ID as Jaeger's JSON writes it: "" for a root.
func parentHex(s traces.Span) string {
	if !s.ParentSpanID.IsValid() {
		return ""
	}
	return s.ParentSpanID.String()
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
