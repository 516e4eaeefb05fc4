package jaegertest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kubeloom/kubeloom/internal/jaegertest"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/export"
)

// checkExportMatchesJaeger compares `kubeloom export --format jaeger` with
// what a real Jaeger serves on /api/traces for the same spans, as generic
// JSON: the same keys on traces, spans and processes, and for every span the
// same operation, times, flags, references, tags and logs, and the same
// process. That is the file Jaeger UI's "upload JSON" expects.
func checkExportMatchesJaeger(t *testing.T, j *jaegertest.Jaeger, q jaegertest.Query, spans []traces.Span) {
	served, err := j.TracesJSON(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := export.Jaeger(&buf, spans); err != nil {
		t.Fatal(err)
	}
	var ours struct {
		Data []map[string]any `json:"data"`
	}
	if err := json.Unmarshal(buf.Bytes(), &ours); err != nil {
		t.Fatalf("export.Jaeger wrote invalid JSON: %v", err)
	}
	if len(ours.Data) != len(served) {
		t.Errorf("the export has %d traces, Jaeger serves %d", len(ours.Data), len(served))
	}

	type located struct {
		span    map[string]any
		process map[string]any
	}
	index := func(trs []map[string]any) map[string]located {
		out := map[string]located{}
		for _, tr := range trs {
			procs, _ := tr["processes"].(map[string]any)
			for _, s := range list(tr["spans"]) {
				sp := s.(map[string]any)
				p, _ := procs[str(sp["processID"])].(map[string]any)
				out[jaegertest.ID(str(sp["spanID"]), 16)] = located{sp, p}
			}
		}
		return out
	}
	if len(served) > 0 && len(ours.Data) > 0 {
		if a, b := keys(ours.Data[0]), keys(served[0]); !slices.Equal(a, b) {
			t.Errorf("trace keys: the export has %v, Jaeger %v", a, b)
		}
	}
	theirs, mine := index(served), index(ours.Data)
	if len(mine) != len(spans) || len(theirs) != len(spans) {
		t.Errorf("spans: the export has %d, Jaeger %d, the recording %d", len(mine), len(theirs), len(spans))
	}
	problems := 0
	report := func(format string, args ...any) {
		if problems++; problems <= 20 {
			t.Errorf(format, args...)
		}
	}
	for id, want := range theirs {
		got, ok := mine[id]
		if !ok {
			report("span %s (%s) is served by Jaeger but not in the export", id, want.span["operationName"])
			continue
		}
		name := str(want.span["operationName"])
		if a, b := keys(got.span), keys(want.span); !slices.Equal(a, b) {
			report("%s: span keys %v, Jaeger %v", name, a, b)
		}
		for _, k := range []string{"operationName", "startTime", "duration", "flags"} {
			if !reflect.DeepEqual(got.span[k], want.span[k]) {
				report("%s: %s %v, Jaeger %v", name, k, got.span[k], want.span[k])
			}
		}
		if a, b := refs(got.span), refs(want.span); !slices.Equal(a, b) {
			report("%s: references %v, Jaeger %v", name, a, b)
		}
		if a, b := kvs(got.span["tags"]), kvs(want.span["tags"]); !maps.Equal(a, b) {
			report("%s: tags\n  export %v\n  Jaeger %v", name, a, b)
		}
		if a, b := logs(got.span), logs(want.span); !slices.Equal(a, b) {
			report("%s: logs\n  export %v\n  Jaeger %v", name, a, b)
		}
		if a, b := keys(got.process), keys(want.process); !slices.Equal(a, b) {
			report("%s: process keys %v, Jaeger %v", name, a, b)
		}
		if got.process["serviceName"] != want.process["serviceName"] || !maps.Equal(kvs(got.process["tags"]), kvs(want.process["tags"])) {
			report("%s: process\n  export %v %v\n  Jaeger %v %v", name,
				got.process["serviceName"], kvs(got.process["tags"]), want.process["serviceName"], kvs(want.process["tags"]))
		}
	}
	if problems > 20 {
		t.Errorf("... and %d more differences", problems-20)
	}
}

func list(v any) []any { l, _ := v.([]any); return l }

func str(v any) string { s, _ := v.(string); return s }

func keys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

// kvs maps a tag list to key → "type:value".
func kvs(v any) map[string]string {
	out := map[string]string{}
	for _, e := range list(v) {
		kv := e.(map[string]any)
		out[str(kv["key"])] = fmt.Sprintf("%v:%v", kv["type"], kv["value"])
	}
	return out
}

// refs lists a span's references as "TYPE trace/span", the parent first
// and then the links in order.
func refs(span map[string]any) []string {
	var out []string
	for _, e := range list(span["references"]) {
		r := e.(map[string]any)
		out = append(out, fmt.Sprintf("%v %s/%s", r["refType"], jaegertest.ID(str(r["traceID"]), 32), jaegertest.ID(str(r["spanID"]), 16)))
	}
	return out
}

// logs lists a span's logs as "timestamp field=type:value ...".
func logs(span map[string]any) []string {
	var out []string
	for _, e := range list(span["logs"]) {
		l := e.(map[string]any)
		fields := kvs(l["fields"])
		var b strings.Builder
		fmt.Fprintf(&b, "%v", l["timestamp"])
		for _, k := range slices.Sorted(maps.Keys(fields)) {
			fmt.Fprintf(&b, " %s=%s", k, fields[k])
		}
		out = append(out, b.String())
	}
	return out
}
