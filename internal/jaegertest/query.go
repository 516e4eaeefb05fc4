package jaegertest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// WaitTimeout bounds WaitSpans and WaitSpansV3. Spans are queryable about
// 0.2s after they reach Jaeger (its batch processor).
const WaitTimeout = 30 * time.Second

// Query selects traces, for both APIs.
type Query struct {
	// Service is a service.name; "" queries every service Jaeger knows
	// and merges the traces.
	Service string
	// Start and End bound the start time of the traces' spans. Zero
	// means two days before and after now. (A recording's spans carry
	// simulated time, which runs ahead of the real clock.)
	Start, End time.Time
	// Limit is the maximum number of traces (default 1000).
	Limit int
	// Raw asks for the traces as stored, without the adjustments the
	// query service makes for display (clock skew, ...).
	Raw bool
}

func (q Query) window() (time.Time, time.Time) {
	start, end := q.Start, q.End
	if start.IsZero() {
		start = time.Now().Add(-48 * time.Hour)
	}
	if end.IsZero() {
		end = time.Now().Add(48 * time.Hour)
	}
	return start, end
}

func (q Query) limit() int {
	if q.Limit > 0 {
		return q.Limit
	}
	return 1000
}

// Trace is a trace as /api/traces returns it (the Jaeger UI's JSON).
type Trace struct {
	TraceID   string             `json:"traceID"`
	Spans     []Span             `json:"spans"`
	Processes map[string]Process `json:"processes"`
}

// Span is a span of /api/traces. Span links become references of type
// FOLLOWS_FROM, without their attributes; the parent is a CHILD_OF
// reference.
type Span struct {
	TraceID       string      `json:"traceID"`
	SpanID        string      `json:"spanID"`
	OperationName string      `json:"operationName"`
	References    []Reference `json:"references"`
	StartTime     int64       `json:"startTime"` // µs since the epoch
	Duration      int64       `json:"duration"`  // µs
	Tags          []KeyValue  `json:"tags"`
	Logs          []Log       `json:"logs"`
	ProcessID     string      `json:"processID"`
}

// Reference is a CHILD_OF (parent) or FOLLOWS_FROM (link) reference.
type Reference struct {
	RefType string `json:"refType"`
	TraceID string `json:"traceID"`
	SpanID  string `json:"spanID"`
}

// KeyValue is a tag or log field.
type KeyValue struct {
	Key   string `json:"key"`
	Type  string `json:"type"`
	Value any    `json:"value"`
}

// Log is a span event.
type Log struct {
	Timestamp int64      `json:"timestamp"` // µs since the epoch
	Fields    []KeyValue `json:"fields"`
}

// Process is the resource of a span: service.name and the other attributes as tags.
type Process struct {
	ServiceName string     `json:"serviceName"`
	Tags        []KeyValue `json:"tags"`
}

// Tag is the value of a tag, and whether the span has it.
func (s Span) Tag(key string) (any, bool) { return findKV(s.Tags, key) }

// Service is the service.name of a span of t.
func (t Trace) Service(s Span) string { return t.Processes[s.ProcessID].ServiceName }

func findKV(kvs []KeyValue, key string) (any, bool) {
	for _, kv := range kvs {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return nil, false
}

// ID normalises a trace or span ID for comparisons: Jaeger drops the high
// half of a 128-bit trace ID when it is zero.
func ID(hex string, digits int) string {
	hex = strings.ToLower(hex)
	if len(hex) < digits {
		hex = strings.Repeat("0", digits-len(hex)) + hex
	}
	return hex
}

// Services is the service names Jaeger has spans of (/api/services).
func (j *Jaeger) Services(ctx context.Context) ([]string, error) {
	var resp struct {
		Data []string `json:"data"`
	}
	if _, err := j.get(ctx, "/api/services", nil, &resp); err != nil {
		return nil, err
	}
	slices.Sort(resp.Data)
	return resp.Data, nil
}

// Traces queries /api/traces?service=NAME&start=...&end=...&limit=....
// With q.Service "", it queries every service and merges the traces.
func (j *Jaeger) Traces(ctx context.Context, q Query) ([]Trace, error) {
	return tracesAs(ctx, j, q, func(t Trace) string { return t.TraceID })
}

// TracesJSON is Traces as generic JSON (maps, slices, float64), to
// compare the shape of other JSON with the one Jaeger serves.
func (j *Jaeger) TracesJSON(ctx context.Context, q Query) ([]map[string]any, error) {
	return tracesAs(ctx, j, q, func(t map[string]any) string { id, _ := t["traceID"].(string); return id })
}

func tracesAs[T any](ctx context.Context, j *Jaeger, q Query, traceID func(T) string) ([]T, error) {
	services, err := j.servicesOf(ctx, q)
	if err != nil {
		return nil, err
	}
	start, end := q.window()
	seen := map[string]bool{}
	var out []T
	for _, svc := range services {
		v := url.Values{
			"service": {svc},
			"start":   {strconv.FormatInt(start.UnixMicro(), 10)},
			"end":     {strconv.FormatInt(end.UnixMicro(), 10)},
			"limit":   {strconv.Itoa(q.limit())},
		}
		if q.Raw {
			v.Set("raw", "true")
		}
		var resp struct {
			Data   []T `json:"data"`
			Errors []struct {
				Msg string `json:"msg"`
			} `json:"errors"`
		}
		if _, err := j.get(ctx, "/api/traces", v, &resp); err != nil {
			return nil, err
		}
		if len(resp.Errors) > 0 {
			return nil, fmt.Errorf("/api/traces?%s: %s", v.Encode(), resp.Errors[0].Msg)
		}
		for _, tr := range resp.Data {
			if id := ID(traceID(tr), 32); !seen[id] {
				seen[id] = true
				out = append(out, tr)
			}
		}
	}
	return out, nil
}

func (j *Jaeger) servicesOf(ctx context.Context, q Query) ([]string, error) {
	if q.Service != "" {
		return []string{q.Service}, nil
	}
	return j.Services(ctx)
}

// CountSpans is the number of spans in traces.
func CountSpans(traces []Trace) int {
	n := 0
	for _, t := range traces {
		n += len(t.Spans)
	}
	return n
}

// WaitSpans polls Traces until the traces hold at least n spans, and
// returns them; the test fails after WaitTimeout.
func (j *Jaeger) WaitSpans(t testing.TB, q Query, n int) []Trace {
	t.Helper()
	return poll(t, fmt.Sprintf("%d spans of service %q in /api/traces", n, q.Service), func(ctx context.Context) ([]Trace, int, error) {
		tr, err := j.Traces(ctx, q)
		return tr, CountSpans(tr), err
	}, n)
}

// OTLP JSON as /api/v3/traces returns it: IDs in hex, 64-bit integers
// (times, intValue) as strings.

// ResourceSpans is the spans of one resource.
type ResourceSpans struct {
	Resource struct {
		Attributes []OTLPKeyValue `json:"attributes"`
	} `json:"resource"`
	ScopeSpans []ScopeSpans `json:"scopeSpans"`
}

// ScopeSpans is the spans of one instrumentation scope.
type ScopeSpans struct {
	Scope struct {
		Name string `json:"name"`
	} `json:"scope"`
	Spans []OTLPSpan `json:"spans"`
}

// OTLPSpan is a span of /api/v3/traces.
type OTLPSpan struct {
	TraceID           string         `json:"traceId"`
	SpanID            string         `json:"spanId"`
	ParentSpanID      string         `json:"parentSpanId"`
	Name              string         `json:"name"`
	Kind              int            `json:"kind"`
	StartTimeUnixNano string         `json:"startTimeUnixNano"`
	EndTimeUnixNano   string         `json:"endTimeUnixNano"`
	Attributes        []OTLPKeyValue `json:"attributes"`
	Events            []struct {
		Name         string         `json:"name"`
		TimeUnixNano string         `json:"timeUnixNano"`
		Attributes   []OTLPKeyValue `json:"attributes"`
	} `json:"events"`
	Links []OTLPLink `json:"links"`
}

// OTLPLink is a span link, with its attributes.
type OTLPLink struct {
	TraceID    string         `json:"traceId"`
	SpanID     string         `json:"spanId"`
	Attributes []OTLPKeyValue `json:"attributes"`
}

// OTLPKeyValue is an attribute.
type OTLPKeyValue struct {
	Key   string    `json:"key"`
	Value OTLPValue `json:"value"`
}

// OTLPValue is an attribute value; exactly one field is set.
type OTLPValue struct {
	StringValue *string          `json:"stringValue"`
	BoolValue   *bool            `json:"boolValue"`
	IntValue    *json.RawMessage `json:"intValue"` // a string, or a number
	DoubleValue *float64         `json:"doubleValue"`
	BytesValue  *string          `json:"bytesValue"` // base64
	ArrayValue  *struct {
		Values []OTLPValue `json:"values"`
	} `json:"arrayValue"`
	KvlistValue *struct {
		Values []OTLPKeyValue `json:"values"`
	} `json:"kvlistValue"`
}

// Any is the value as a Go value: string, bool, int64, float64, []any or
// map[string]any (bytes stay base64 strings); nil when empty.
func (v OTLPValue) Any() any {
	switch {
	case v.StringValue != nil:
		return *v.StringValue
	case v.BoolValue != nil:
		return *v.BoolValue
	case v.IntValue != nil:
		n, _ := strconv.ParseInt(strings.Trim(string(*v.IntValue), `"`), 10, 64)
		return n
	case v.DoubleValue != nil:
		return *v.DoubleValue
	case v.BytesValue != nil:
		return *v.BytesValue
	case v.ArrayValue != nil:
		out := make([]any, len(v.ArrayValue.Values))
		for i, e := range v.ArrayValue.Values {
			out[i] = e.Any()
		}
		return out
	case v.KvlistValue != nil:
		return Attrs(v.KvlistValue.Values)
	}
	return nil
}

// Attrs converts OTLP attributes to a map.
func Attrs(kvs []OTLPKeyValue) map[string]any {
	out := make(map[string]any, len(kvs))
	for _, kv := range kvs {
		out[kv.Key] = kv.Value.Any()
	}
	return out
}

// StartTime is the span's start.
func (s OTLPSpan) StartTime() time.Time { return unixNano(s.StartTimeUnixNano) }

// EndTime is the span's end.
func (s OTLPSpan) EndTime() time.Time { return unixNano(s.EndTimeUnixNano) }

func unixNano(s string) time.Time {
	n, _ := strconv.ParseInt(s, 10, 64)
	return time.Unix(0, n)
}

// TracesV3 queries /api/v3/traces?query.service_name=...&query.start_time_min=
// ...&query.start_time_max=...&query.num_traces=... and returns the
// resource spans of every trace found (none: an empty result, not an
// error). With q.Service "", it queries every service; a span found
// twice is kept once.
func (j *Jaeger) TracesV3(ctx context.Context, q Query) ([]ResourceSpans, error) {
	services, err := j.servicesOf(ctx, q)
	if err != nil {
		return nil, err
	}
	start, end := q.window()
	seen := map[string]bool{}
	var out []ResourceSpans
	for _, svc := range services {
		v := url.Values{
			"query.service_name":   {svc},
			"query.start_time_min": {start.UTC().Format(time.RFC3339Nano)},
			"query.start_time_max": {end.UTC().Format(time.RFC3339Nano)},
			"query.num_traces":     {strconv.Itoa(q.limit())},
		}
		if q.Raw {
			v.Set("query.raw_traces", "true")
		}
		var resp struct {
			Result struct {
				ResourceSpans []ResourceSpans `json:"resourceSpans"`
			} `json:"result"`
		}
		status, err := j.get(ctx, "/api/v3/traces", v, &resp)
		if status == http.StatusNotFound {
			continue // "No traces found"
		}
		if err != nil {
			return nil, err
		}
		for _, rs := range resp.Result.ResourceSpans {
			kept := rs
			kept.ScopeSpans = nil
			for _, ss := range rs.ScopeSpans {
				keptSS := ss
				keptSS.Spans = nil
				for _, s := range ss.Spans {
					k := ID(s.TraceID, 32) + "/" + ID(s.SpanID, 16)
					if !seen[k] {
						seen[k] = true
						keptSS.Spans = append(keptSS.Spans, s)
					}
				}
				if len(keptSS.Spans) > 0 {
					kept.ScopeSpans = append(kept.ScopeSpans, keptSS)
				}
			}
			if len(kept.ScopeSpans) > 0 {
				out = append(out, kept)
			}
		}
	}
	return out, nil
}

// CountSpansV3 is the number of spans in rss.
func CountSpansV3(rss []ResourceSpans) int {
	n := 0
	for _, rs := range rss {
		for _, ss := range rs.ScopeSpans {
			n += len(ss.Spans)
		}
	}
	return n
}

// WaitSpansV3 polls TracesV3 until it returns at least n spans, and
// returns them; the test fails after WaitTimeout.
func (j *Jaeger) WaitSpansV3(t testing.TB, q Query, n int) []ResourceSpans {
	t.Helper()
	return poll(t, fmt.Sprintf("%d spans of service %q in /api/v3/traces", n, q.Service), func(ctx context.Context) ([]ResourceSpans, int, error) {
		rss, err := j.TracesV3(ctx, q)
		return rss, CountSpansV3(rss), err
	}, n)
}

// poll calls query every pollInterval until it reports at least n, and
// fails the test after WaitTimeout with the last count or error.
func poll[T any](t testing.TB, what string, query func(context.Context) (T, int, error), n int) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), WaitTimeout)
	defer cancel()
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	var (
		got     int
		lastErr error
	)
	for {
		v, count, err := query(ctx)
		if err == nil && count >= n {
			return v
		}
		if err != nil {
			lastErr = err
		} else {
			got = count
		}
		select {
		case <-ctx.Done():
			t.Fatalf("jaegertest: waited %s for %s: got %d (last error: %v)", WaitTimeout, what, got, lastErr)
			var zero T
			return zero
		case <-tick.C:
		}
	}
}

// get GETs path?query from the query service and decodes the JSON into
// out; it returns the HTTP status.
func (j *Jaeger) get(ctx context.Context, path string, query url.Values, out any) (int, error) {
	u := j.Query + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, err
	}
	resp, err := j.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, fmt.Errorf("GET %s: %w", u, err)
	}
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, fmt.Errorf("GET %s: %s: %s", u, resp.Status, strings.TrimSpace(string(body)))
	}
	if err := json.Unmarshal(body, out); err != nil {
		return resp.StatusCode, fmt.Errorf("GET %s: decoding the answer: %w", u, err)
	}
	return resp.StatusCode, nil
}
