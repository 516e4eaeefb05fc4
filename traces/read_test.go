package traces

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace"
)

const goodLine = `{"Name":"kubelet/container-gc","SpanContext":{"TraceID":"0af7651916cd43dd8448eb211c80319c","SpanID":"b7ad6b7169203331","TraceFlags":"01","TraceState":"","Remote":false},"Parent":{"TraceID":"0af7651916cd43dd8448eb211c80319c","SpanID":"00f067aa0ba902b7","TraceFlags":"01","TraceState":"","Remote":false},"SpanKind":1,"StartTime":"2025-03-01T12:00:00.5+05:30","EndTime":"2025-03-01T12:01:00Z","Attributes":[{"Key":"goroutine.name","Value":{"Type":"STRING","Value":"kubelet/container-gc"}},{"Key":"goroutine.period_s","Value":{"Type":"FLOAT64","Value":60}},{"Key":"iteration","Value":{"Type":"INT64","Value":9007199254740993}},{"Key":"ok","Value":{"Type":"BOOL","Value":true}},{"Key":"bs","Value":{"Type":"BOOLSLICE","Value":[true,false]}},{"Key":"is","Value":{"Type":"INT64SLICE","Value":[1,-2]}},{"Key":"fs","Value":{"Type":"FLOAT64SLICE","Value":[0.5,1e21]}},{"Key":"ss","Value":{"Type":"STRINGSLICE","Value":["a","\u003cb\u003e"]}}],"Events":[{"Name":"became leader","Attributes":[{"Key":"k","Value":{"Type":"STRING","Value":"v"}}],"DroppedAttributeCount":0,"Time":"2025-03-01T12:00:30Z"}],"Links":[{"SpanContext":{"TraceID":"11111111111111111111111111111111","SpanID":"2222222222222222","TraceFlags":"01","TraceState":"","Remote":false},"Attributes":[{"Key":"kubeloom.link","Value":{"Type":"STRING","Value":"cause"}}],"DroppedAttributeCount":0}],"Status":{"Code":"Error","Description":"boom"},"DroppedAttributes":0,"DroppedEvents":0,"DroppedLinks":0,"ChildSpanCount":0,"Resource":[{"Key":"service.name","Value":{"Type":"STRING","Value":"kubelet"}}],"InstrumentationScope":{"Name":"kubeloom","Version":"","SchemaURL":"","Attributes":null},"InstrumentationLibrary":{"Name":"kubeloom","Version":"","SchemaURL":"","Attributes":null}}`

func TestReadGoodLine(t *testing.T) {
	spans, err := Read(strings.NewReader(goodLine+"\n"), "one.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(spans) != 1 {
		t.Fatalf("read %d spans", len(spans))
	}
	want := Span{
		Name:         "kubelet/container-gc",
		TraceID:      traceID(t, "0af7651916cd43dd8448eb211c80319c"),
		SpanID:       spanID(t, "b7ad6b7169203331"),
		ParentSpanID: spanID(t, "00f067aa0ba902b7"),
		Kind:         1,
		Start:        time.Date(2025, 3, 1, 6, 30, 0, 500000000, time.UTC),
		End:          time.Date(2025, 3, 1, 12, 1, 0, 0, time.UTC),
		Attributes: Attributes{
			"goroutine.name":     "kubelet/container-gc",
			"goroutine.period_s": float64(60),
			"iteration":          int64(9007199254740993), // not representable as a float64
			"ok":                 true,
			"bs":                 []bool{true, false},
			"is":                 []int64{1, -2},
			"fs":                 []float64{0.5, 1e21},
			"ss":                 []string{"a", "<b>"},
		},
		Events:     []Event{{Name: "became leader", Time: time.Date(2025, 3, 1, 12, 0, 30, 0, time.UTC), Attributes: Attributes{"k": "v"}}},
		Links:      []Link{{TraceID: traceID(t, "11111111111111111111111111111111"), SpanID: spanID(t, "2222222222222222"), Attributes: Attributes{"kubeloom.link": "cause"}}},
		Resource:   Attributes{"service.name": "kubelet"},
		Scope:      "kubeloom",
		StatusCode: "Error",
		StatusDesc: "boom",
		Line:       1,
	}
	if got := normalize(spans[0]); !reflect.DeepEqual(got, want) {
		t.Errorf("got\n  %#v\nwant\n  %#v", got, want)
	}
	if _, off := spans[0].Start.Zone(); off != 5*3600+30*60 {
		t.Errorf("start time zone offset %d, want +05:30", off)
	}
}

func TestReadRootSpanAndOldScope(t *testing.T) {
	line := `{"Name":"root","SpanContext":{"TraceID":"0AF7651916CD43DD8448EB211C80319C","SpanID":"B7AD6B7169203331"},"Parent":{"TraceID":"00000000000000000000000000000000","SpanID":"0000000000000000","TraceFlags":"00","TraceState":"","Remote":false},"StartTime":"0001-01-01T00:00:00Z","EndTime":"0001-01-01T00:00:00Z","Attributes":null,"Status":{"Code":1,"Description":""},"InstrumentationLibrary":{"Name":"old"}}`
	spans, err := Read(strings.NewReader("\n  \n"+line+"\r\n\n"), "old.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	s := spans[0]
	if s.ParentSpanID.IsValid() || s.TraceID != traceID(t, "0af7651916cd43dd8448eb211c80319c") || s.SpanID != spanID(t, "b7ad6b7169203331") ||
		s.Scope != "old" || s.StatusCode != "Error" || !s.Start.IsZero() || s.Line != 3 || s.Attributes != nil {
		t.Errorf("read %+v", s)
	}
}

func traceID(t testing.TB, h string) trace.TraceID {
	t.Helper()
	id, err := trace.TraceIDFromHex(h)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func spanID(t testing.TB, h string) trace.SpanID {
	t.Helper()
	id, err := trace.SpanIDFromHex(h)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// lineErrors returns the LineErrors joined in err.
func lineErrors(t *testing.T, err error) []*LineError {
	t.Helper()
	joined, ok := err.(interface{ Unwrap() []error })
	if !ok {
		t.Fatalf("error %v (%T) is not a join of LineErrors", err, err)
	}
	var les []*LineError
	for _, e := range joined.Unwrap() {
		var le *LineError
		if !errors.As(e, &le) {
			t.Fatalf("%v is not a *LineError", e)
		}
		les = append(les, le)
	}
	return les
}

func TestReadBadLines(t *testing.T) {
	bad := map[int]struct{ line, wantErr string }{
		2:  {"garbage in the middle", `bad.jsonl:2: invalid JSON at column 1: invalid character 'g' looking for beginning of value; expected one JSON object per line`},
		3:  {strings.Replace(goodLine, "0af7651916cd43dd8448eb211c80319c", "xyz", 1), `bad.jsonl:3: SpanContext.TraceID: expected 32 hex digits, got "xyz"`},
		5:  {`[1,2,3]`, `bad.jsonl:5: expected a JSON object (one span per line), got a JSON array`},
		6:  {`{}`, `bad.jsonl:6: Name: missing`},
		7:  {strings.Replace(goodLine, `"2025-03-01T12:01:00Z"`, `"yesterday"`, 1), `bad.jsonl:7: EndTime: expected an RFC 3339 time such as "2006-01-02T15:04:05.999999999Z", got "yesterday"`},
		8:  {strings.Replace(goodLine, `"SpanID":"b7ad6b7169203331"`, `"SpanID":"0000000000000000"`, 1), `bad.jsonl:8: SpanContext.SpanID: expected a valid ID, got all zeros`},
		9:  {strings.Replace(goodLine, `"Type":"INT64","Value":9007199254740993`, `"Type":"INT64","Value":1.5`, 1), `bad.jsonl:9: Attributes[2] ("iteration"): INT64 value: expected a 64-bit integer, got 1.5`},
		10: {strings.Replace(goodLine, `"Type":"BOOL"`, `"Type":"COMPLEX"`, 1), `bad.jsonl:10: Attributes[3] ("ok"): Type: unknown attribute type "COMPLEX"`},
		11: {strings.Replace(goodLine, `"SpanKind":1`, `"SpanKind":"server"`, 1), `bad.jsonl:11: SpanKind: expected an integer, got a JSON string`},
		12: {goodLine + `}`, `bad.jsonl:12: unexpected text after the JSON object at column`},
		13: {strings.Replace(goodLine, `"Code":"Error"`, `"Code":"Failed"`, 1), `bad.jsonl:13: Status.Code: expected "Unset", "Error" or "Ok", got "Failed"`},
		14: {strings.Replace(goodLine, `"Time":"2025-03-01T12:00:30Z"`, `"Time":42`, 1), `bad.jsonl:14: Events[0].Time: expected an RFC 3339 time such as "2006-01-02T15:04:05.999999999Z", got 42`},
		15: {strings.Replace(goodLine, `"SpanID":"2222222222222222"`, `"SpanID":"22"`, 1), `bad.jsonl:15: Links[0].SpanContext.SpanID: expected 16 hex digits, got "22"`},
		16: {goodLine[:200], `bad.jsonl:16: truncated JSON object (the line ends before its closing '}')`},
		18: {goodLine[:len(goodLine)/2], `bad.jsonl:18: truncated JSON object (the recording was probably interrupted while this line was written)`},
	}
	var file bytes.Buffer
	const lines = 18
	for i := 1; i <= lines; i++ {
		switch {
		case i == 4:
			file.WriteString("   \n") // blank: skipped
		case bad[i].line != "":
			file.WriteString(bad[i].line)
			if i != lines {
				file.WriteString("\n")
			}
		default:
			file.WriteString(goodLine + "\n")
		}
	}
	spans, err := Read(&file, "bad.jsonl")
	var gotLines []int
	for _, s := range spans {
		gotLines = append(gotLines, s.Line)
	}
	if want := []int{1, 17}; !reflect.DeepEqual(gotLines, want) {
		t.Errorf("read spans from lines %v, want %v", gotLines, want)
	}
	les := lineErrors(t, err)
	if len(les) != len(bad) {
		t.Errorf("%d line errors, want %d:\n%v", len(les), len(bad), err)
	}
	for _, le := range les {
		want := bad[le.Line].wantErr
		if want == "" {
			t.Errorf("unexpected error for line %d: %v", le.Line, le)
			continue
		}
		if le.File != "bad.jsonl" || !strings.HasPrefix(le.Error(), want) {
			t.Errorf("line %d error:\n  %v\nwant it to start with\n  %s", le.Line, le, want)
		}
	}
	if !errors.Is(err, ErrTruncated) {
		t.Error("errors.Is(err, ErrTruncated) is false")
	}
	t.Logf("errors as a user sees them:\n%v", err)
}

func TestReadLongLine(t *testing.T) {
	long := strings.Replace(goodLine, `"Value":"v"`, `"Value":"`+strings.Repeat("x", 300<<10)+`"`, 1)
	spans, err := Read(strings.NewReader(goodLine+"\n"+long+"\n"+goodLine), "long.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(spans) != 3 || len(spans[1].Events[0].Attributes.String("k")) != 300<<10 || spans[2].Line != 3 {
		t.Fatalf("long line not read: %d spans", len(spans))
	}
}

func TestReadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(goodLine+"\n"+goodLine[:100]), 0o644); err != nil {
		t.Fatal(err)
	}
	spans, err := ReadFile(path)
	if len(spans) != 1 {
		t.Errorf("read %d spans", len(spans))
	}
	if err == nil || !strings.HasPrefix(err.Error(), path+":2: truncated JSON object") {
		t.Errorf("error %v", err)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestReadStdouttraceOutput reads what the stdouttrace exporter itself
// writes.
func TestReadStdouttraceOutput(t *testing.T) {
	spans := testSpans(t)
	out, err := stdouttraceOutput(t, spans)
	if err != nil {
		t.Fatal(err)
	}
	read, err := Read(strings.NewReader(out), "stdout.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(read) != len(spans) {
		t.Fatalf("read %d of %d spans", len(read), len(spans))
	}
	for i, ro := range spans {
		if got, want := normalize(read[i]), normalize(expectedSpan(ro, i+1)); !reflect.DeepEqual(got, want) {
			t.Errorf("span %d read back as\n  %#v\nwant\n  %#v", i, got, want)
		}
	}
}

// FuzzRead: whatever the input, Read returns spans in line order and an
// error per bad line; read in small chunks on several goroutines, it reads
// what reading line by line reads; every line is valid JSON or not as
// encoding/json says, and a line refused is explained.
func FuzzRead(f *testing.F) {
	out, _ := recorderOutput(f, testSpans(f))
	for _, l := range strings.SplitAfter(out, "\n")[:4] {
		f.Add([]byte(l))
	}
	for _, line := range lineVariants(f) {
		f.Add([]byte(line + "\n" + line[:len(line)/2] + "\n\n" + line))
	}
	f.Add([]byte(goodLine + "\n" + goodLine[:300]))
	f.Add([]byte("garbage\n\n{}\n[1]\nnull\n\"x\""))
	f.Add([]byte(`{"Name":"x","SpanContext":{"TraceID":"0af7651916cd43dd8448eb211c80319c","SpanID":"b7ad6b7169203331"},"StartTime":"2025-03-01T12:00:00Z","EndTime":"2025-03-01T12:00:00Z","Attributes":[{"Key":"s","Value":{"Type":"SLICE","Value":[{"Type":"MAP","Value":[{"Key":"k","Value":{"Type":"BYTESLICE","Value":"aGk="}}]}]}}]}`))
	// Small forms of the files of docs/trace-file.md's "Limits" (issue
	// 30): blank lines, deep nesting in a skipped field and in an
	// attribute, nested SLICE values, a line longer than the fuzzer's
	// limit (300 bytes, below).
	f.Add([]byte(strings.Repeat("\n", 5000) + goodLine))
	f.Add([]byte(strings.Replace(goodLine, `"SpanKind":1,`, `"SpanKind":1,"X":`+strings.Repeat("[", 70)+strings.Repeat("]", 70)+`,`, 1)))
	f.Add([]byte(strings.Replace(goodLine, `{"Type":"BOOL","Value":true}`, `{"Type":"BOOL","Value":`+strings.Repeat("[", 70)+`}`, 1)))
	f.Add([]byte(strings.Replace(goodLine, `{"Type":"BOOL","Value":true}`, strings.Repeat(`{"Type":"SLICE","Value":[`, 10)+`{"Type":"INT64","Value":1}`+strings.Repeat(`]}`, 10), 1)))
	f.Add([]byte(goodLine + "\n" + strings.Repeat("a", 400) + "\n" + goodLine[:200] + "\n" + strings.Repeat(" ", 301)))
	f.Fuzz(func(t *testing.T, data []byte) {
		spans, err := Read(bytes.NewReader(data), "fuzz.jsonl")
		lines := bytes.Count(data, []byte("\n")) + 1
		prev := 0
		for _, s := range spans {
			if s.Line <= prev || s.Line > lines {
				t.Fatalf("span line %d after %d (%d lines)", s.Line, prev, lines)
			}
			prev = s.Line
		}
		if err != nil {
			for _, le := range lineErrors(t, err) {
				if le.Line < 1 || le.Line > lines || le.Err == nil {
					t.Fatalf("bad LineError %+v", le)
				}
				if strings.Contains(le.Error(), "could not read this valid JSON") {
					t.Fatalf("refused without a reason: %v", le)
				}
			}
		}

		want, wantErr := slowRead(bytes.NewReader(data), "fuzz.jsonl")
		got, gotErr := ReadWith(bytes.NewReader(data), "fuzz.jsonl", ReadOptions{chunkSize: 200})
		if len(got) != len(want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Fatalf("in chunks: %d spans, error %v; line by line: %d, %v", len(got), gotErr, len(want), wantErr)
		}
		for i := range got {
			if !sameSpan(got[i], want[i]) {
				t.Fatalf("span %d in chunks:\n%#v\nline by line:\n%#v", i, got[i], want[i])
			}
		}
		// Lines of at most 300 bytes: the longer ones are LineErrors.
		want, wantErr = slowReadLimit(bytes.NewReader(data), "fuzz.jsonl", 300)
		got, gotErr = ReadWith(bytes.NewReader(data), "fuzz.jsonl", ReadOptions{chunkSize: 200, maxLine: 300})
		if len(got) != len(want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("lines of at most 300 bytes, in chunks: %d spans, error %v; line by line: %d, %v", len(got), gotErr, len(want), wantErr)
		}

		for _, line := range bytes.Split(data, []byte("\n")) {
			if line = bytes.TrimSpace(line); len(line) > 0 {
				if err := syntaxAsEncodingJSON(line); err != nil {
					t.Fatalf("%q: %v", line, err)
				}
			}
		}
	})
}
