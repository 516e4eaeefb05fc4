package traces

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"testing/iotest"
)

// slowRead is Read as it was before the fast path and the chunks: every
// line through parseLine, one after the other. The fast Read must return
// the same spans and errors.
func slowRead(r io.Reader, name string) ([]Span, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var (
		spans []Span
		errs  []error
		long  []byte
	)
	for lineNo := 1; ; lineNo++ {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long[:0], line...)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err != nil && err != io.EOF {
			errs = append(errs, fmt.Errorf("reading %s: %w", name, err))
			break
		}
		complete := len(line) > 0 && line[len(line)-1] == '\n'
		if lineNo == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
			s, perr := parseLine(trimmed, err == io.EOF && !complete)
			if perr != nil {
				errs = append(errs, &LineError{File: name, Line: lineNo, Err: perr})
			} else {
				s.Line = lineNo
				spans = append(spans, s)
			}
		}
		if err == io.EOF {
			break
		}
	}
	return spans, errors.Join(errs...)
}

// fastVariants are lines the fast path must read exactly as parseLine, or
// leave to it.
func fastVariants(t testing.TB) []string {
	// goodLine with only the four common attribute types, which the fast
	// path reads.
	slices := `{"Key":"bs","Value":{"Type":"BOOLSLICE","Value":[true,false]}},{"Key":"is","Value":{"Type":"INT64SLICE","Value":[1,-2]}},{"Key":"fs","Value":{"Type":"FLOAT64SLICE","Value":[0.5,1e21]}},{"Key":"ss","Value":{"Type":"STRINGSLICE","Value":["a","\u003cb\u003e"]}}`
	if !strings.Contains(goodLine, slices) {
		t.Fatal("goodLine changed")
	}
	base := strings.Replace(goodLine, slices, `{"Key":"f","Value":{"Type":"FLOAT64","Value":"NaN"}}`, 1)
	r := func(old, new string) string {
		if !strings.Contains(base, old) {
			t.Fatalf("the line has no %q", old)
		}
		return strings.Replace(base, old, new, 1)
	}
	v := []string{
		base,
		goodLine,
		// Keys and fields encoding/json matches regardless of case.
		r(`"Name":"kubelet/container-gc"`, `"name":"kubelet/container-gc"`),
		r(`"SpanKind":1`, `"spankind":1`),
		r(`"Key":"ok"`, `"KEY":"ok"`),
		r(`"TraceID":"0af7651916cd43dd8448eb211c80319c","SpanID":"b7ad6b7169203331"`, `"traceid":"0af7651916cd43dd8448eb211c80319c","SpanID":"b7ad6b7169203331"`),
		r(`"Name":"kubelet/container-gc"`, `"\u004eame":"kubelet/container-gc"`),
		r(`"Name":"kubelet/container-gc"`, `"Nam\u212a":"kubelet/container-gc"`),
		// Duplicates: encoding/json keeps the last.
		r(`"SpanKind":1`, `"SpanKind":1,"SpanKind":2`),
		r(`"Type":"BOOL","Value":true`, `"Type":"BOOL","Value":true,"Value":false`),
		r(`"Name":"kubelet/container-gc"`, `"Name":"a","Name":"kubelet/container-gc"`),
		// Escapes and odd strings.
		r(`"Name":"kubelet/container-gc"`, `"Name":"kubelet\/container-gc \u00e9\n\"q\""`),
		r(`"Value":"kubelet/container-gc"`, `"Value":"\ud800 lone surrogate"`),
		r(`"Value":"kubelet/container-gc"`, "\"Value\":\"bad \xff utf-8\""),
		r(`"Value":"kubelet/container-gc"`, "\"Value\":\"tab\tinside\""),
		r(`"Value":"kubelet/container-gc"`, `"Value":"bad \x escape"`),
		r(`"Description":"boom"`, `"Description":"日本語 ✓"`),
		// Nulls where values are expected.
		r(`"Name":"kubelet/container-gc"`, `"Name":null`),
		r(`"Parent":{"TraceID":"0af7651916cd43dd8448eb211c80319c","SpanID":"00f067aa0ba902b7","TraceFlags":"01","TraceState":"","Remote":false}`, `"Parent":null`),
		r(`"Attributes":[{"Key":"goroutine.name"`, `"Attributes":null,"X":[{"Key":"goroutine.name"`),
		r(`"Events":[`, `"Events":null,"E":[`),
		r(`"Status":{"Code":"Error","Description":"boom"}`, `"Status":null`),
		r(`"Status":{"Code":"Error","Description":"boom"}`, `"Status":{"Code":null,"Description":null}`),
		r(`"Status":{"Code":"Error","Description":"boom"}`, `"Status":{"Code":2}`),
		r(`"Status":{"Code":"Error","Description":"boom"}`, `"Status":{"Code":1.0}`),
		r(`"InstrumentationScope":{"Name":"kubeloom"`, `"InstrumentationScope":null,"X":{"Name":"kubeloom"`),
		r(`"InstrumentationScope":{"Name":"kubeloom","Version":"","SchemaURL":"","Attributes":null},"InstrumentationLibrary":{"Name":"kubeloom"`, `"InstrumentationScope":{"Version":""},"InstrumentationLibrary":{"Name":"lib"`),
		r(`"Name":"became leader"`, `"Name":null`),
		r(`"Key":"k","Value"`, `"Key":null,"Value"`),
		r(`"Type":"STRING","Value":"v"`, `"Type":"STRING","Value":null`),
		r(`"Type":"STRING","Value":"v"`, `"Value":"v","Type":"STRING"`),
		r(`"Type":"STRING","Value":"v"`, `"Type":"STRING"`),
		// IDs.
		r(`"SpanID":"b7ad6b7169203331"`, `"SpanID":"B7AD6B7169203331"`),
		r(`"SpanID":"b7ad6b7169203331"`, `"SpanID":"0000000000000000"`),
		r(`"SpanID":"00f067aa0ba902b7"`, `"SpanID":"0000000000000000"`),
		r(`"TraceID":"0af7651916cd43dd8448eb211c80319c","SpanID":"00f067aa0ba902b7"`, `"SpanID":"00f067aa0ba902b7"`),
		r(`"TraceID":"0af7651916cd43dd8448eb211c80319c","SpanID":"00f067aa0ba902b7"`, `"TraceID":"","SpanID":""`),
		r(`"SpanID":"2222222222222222"`, `"SpanID":"0000000000000000"`),
		r(`{"SpanContext":{"TraceID":"11111111111111111111111111111111","SpanID":"2222222222222222","TraceFlags":"01","TraceState":"","Remote":false},`, `{`),
		// Numbers and times.
		r(`"SpanKind":1`, `"SpanKind":1.0`),
		r(`"SpanKind":1`, `"SpanKind":-0`),
		r(`"SpanKind":1`, `"SpanKind":01`),
		r(`"SpanKind":1`, `"SpanKind":99999999999999999999`),
		r(`"Value":9007199254740993`, `"Value":-12`),
		r(`"Value":9007199254740993`, `"Value":1e3`),
		r(`"Type":"FLOAT64","Value":60`, `"Type":"FLOAT64","Value":-6.25e-3`),
		r(`"Type":"FLOAT64","Value":60`, `"Type":"FLOAT64","Value":"Infinity"`),
		r(`"EndTime":"2025-03-01T12:01:00Z"`, `"EndTime":"2025-03-01T12:01:00.123456789Z"`),
		r(`"EndTime":"2025-03-01T12:01:00Z"`, `"EndTime":"2025-03-01T12:01:00.1234567891Z"`),
		r(`"EndTime":"2025-03-01T12:01:00Z"`, `"EndTime":"2024-02-29T23:59:59.5Z"`),
		r(`"EndTime":"2025-03-01T12:01:00Z"`, `"EndTime":"2025-02-29T12:00:00Z"`),
		r(`"EndTime":"2025-03-01T12:01:00Z"`, `"EndTime":"2025-03-01T24:00:00Z"`),
		r(`"EndTime":"2025-03-01T12:01:00Z"`, `"EndTime":"2025-03-01T12:01:60Z"`),
		r(`"EndTime":"2025-03-01T12:01:00Z"`, `"EndTime":"2025-03-01t12:01:00z"`),
		r(`"EndTime":"2025-03-01T12:01:00Z"`, `"EndTime":"2025-03-01T12:01:00.Z"`),
		r(`"EndTime":"2025-03-01T12:01:00Z"`, `"EndTime":"2025-03-01T12:01:00-00:00"`),
		r(`"EndTime":"2025-03-01T12:01:00Z"`, `"EndTime":"0000-01-01T00:00:00Z"`),
		// Unknown keys, valid and not.
		r(`"ChildSpanCount":0`, `"ChildSpanCount":{"a":[1,2.5e3,true,false,null,{"b":"\u00e9"}]}`),
		r(`"ChildSpanCount":0`, `"ChildSpanCount":[1,]`),
		r(`"ChildSpanCount":0`, `"ChildSpanCount":tru`),
		r(`"ChildSpanCount":0`, `"ChildSpanCount":-`),
		r(`"ChildSpanCount":0`, `"ChildSpanCount":"ctrl`+"\x01"+`"`),
		r(`"ChildSpanCount":0`, "\"ChildSpanCount\":\"\xff\""),
		r(`"ChildSpanCount":0`, `"Chïld":0`),
		// Lists of strings, which the fast path reads, and what it leaves
		// to parseLine.
		r(`{"Key":"f","Value":{"Type":"FLOAT64","Value":"NaN"}}`, `{"Key":"ss","Value":{"Type":"STRINGSLICE","Value":["a","\u003cb\u003e","kubelet/container-gc"]}}`),
		r(`{"Key":"f","Value":{"Type":"FLOAT64","Value":"NaN"}}`, `{"Key":"ss","Value":{"Type":"STRINGSLICE","Value":[]}}`),
		r(`{"Key":"f","Value":{"Type":"FLOAT64","Value":"NaN"}}`, `{"Key":"ss","Value":{"Type":"STRINGSLICE","Value":[ "a" ,	"b,c" ]}}`),
		r(`{"Key":"f","Value":{"Type":"FLOAT64","Value":"NaN"}}`, `{"Key":"ss","Value":{"Type":"STRINGSLICE","Value":null}}`),
		r(`{"Key":"f","Value":{"Type":"FLOAT64","Value":"NaN"}}`, `{"Key":"ss","Value":{"Type":"STRINGSLICE","Value":["a",null]}}`),
		r(`{"Key":"f","Value":{"Type":"FLOAT64","Value":"NaN"}}`, `{"Key":"ss","Value":{"Type":"STRINGSLICE","Value":["a",1]}}`),
		r(`{"Key":"f","Value":{"Type":"FLOAT64","Value":"NaN"}}`, `{"Key":"ss","Value":{"Type":"STRINGSLICE","Value":["a",]}}`),
		r(`{"Key":"f","Value":{"Type":"FLOAT64","Value":"NaN"}}`, `{"Key":"ss","Value":{"Type":"STRINGSLICE","Value":"a"}}`),
		r(`{"Key":"f","Value":{"Type":"FLOAT64","Value":"NaN"}}`, "{\"Key\":\"ss\",\"Value\":{\"Type\":\"STRINGSLICE\",\"Value\":[\"bad \xff\"]}}"),
		// Whitespace, and what follows the object.
		strings.ReplaceAll(base, `":`, `" : `),
		strings.ReplaceAll(base, `,`, " ,\t"),
		base + ` x`,
		base + `}`,
		base[:len(base)-1],
		`{}`,
		`{"Name":"x"}`,
	}
	return v
}

func TestFastPathMatchesParseLine(t *testing.T) {
	lines := fastVariants(t)
	out, err := recorderOutput(t, testSpans(t))
	if err != nil {
		t.Fatal(err)
	}
	lines = append(lines, strings.Split(strings.TrimSpace(out), "\n")...)
	fast := 0
	tab := newInternTable(keeper{})
	for i, line := range lines {
		want, werr := parseLine([]byte(line), false)
		got, ok := tab.parseFast([]byte(line))
		if !ok {
			continue
		}
		fast++
		if werr != nil {
			t.Errorf("line %d: the fast path reads what parseLine refuses (%v):\n%s", i, werr, line)
			continue
		}
		if !sameSpan(got, want) {
			t.Errorf("line %d: fast path read\n  %#v\nparseLine read\n  %#v\nfrom %s", i, got, want, line)
		}
	}
	t.Logf("%d of %d lines took the fast path", fast, len(lines))
	// The lines the Recorder writes all take the fast path, unless they
	// have the rare attribute types; so do lists of strings (a kubelet's
	// pods).
	common := 0
	rare := regexp.MustCompile(`"(BOOLSLICE|INT64SLICE|FLOAT64SLICE|BYTESLICE|SLICE|MAP|EMPTY)"`)
	for _, line := range append(strings.Split(strings.TrimSpace(out), "\n"), lines[0], stringSliceLine(t, lines)) {
		if rare.MatchString(line) {
			continue
		}
		common++
		if _, ok := tab.parseFast([]byte(line)); !ok {
			t.Errorf("a Recorder line does not take the fast path:\n%s", line)
		}
	}
	if common < 2 {
		t.Errorf("only %d lines of common types to check", common)
	}
}

// stringSliceLine is the first of lines with a list of strings.
func stringSliceLine(t *testing.T, lines []string) string {
	for _, line := range lines {
		if strings.Contains(line, `"Type":"STRINGSLICE","Value":["a"`) {
			return line
		}
	}
	t.Fatal("no line with a STRINGSLICE attribute")
	return ""
}

// sameSpan is reflect.DeepEqual, except that NaN equals NaN.
func sameSpan(a, b Span) bool {
	return reflect.DeepEqual(a, b) || fmt.Sprintf("%#v", a) == fmt.Sprintf("%#v", b) && a.Start.Equal(b.Start) && a.End.Equal(b.End)
}

func FuzzFastPath(f *testing.F) {
	for _, line := range fastVariants(f) {
		f.Add([]byte(line))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		got, ok := newInternTable(keeper{}).parseFast(line)
		if !ok {
			return
		}
		want, err := parseLine(line, false)
		if err != nil {
			t.Fatalf("the fast path reads what parseLine refuses (%v)", err)
		}
		if !sameSpan(got, want) {
			t.Fatalf("fast path read\n  %#v\nparseLine read\n  %#v", got, want)
		}
	})
}

// TestReadChunks: reading in chunks on several goroutines gives what
// reading line by line gives, whatever the chunk size: the same spans with
// the same line numbers, the same errors, in order.
func TestReadChunks(t *testing.T) {
	out, err := recorderOutput(t, testSpans(t))
	if err != nil {
		t.Fatal(err)
	}
	good := strings.Split(strings.TrimSpace(out), "\n")
	var file strings.Builder
	file.WriteString("\xef\xbb\xbf")
	for i := range 400 {
		switch {
		case i%37 == 5:
			file.WriteString("   \r\n")
		case i%53 == 7:
			file.WriteString("garbage\n")
		case i%97 == 11:
			file.WriteString(goodLine[:300] + "\n")
		case i%101 == 13:
			file.WriteString(strings.Replace(goodLine, `"v"`, `"`+strings.Repeat("x", 3000)+`"`, 1) + "\n")
		default:
			file.WriteString(good[i%len(good)] + "\n")
		}
	}
	inputs := map[string]string{
		"complete":          file.String(),
		"no final newline":  strings.TrimSuffix(file.String(), "\n"),
		"cut in a line":     file.String() + goodLine[:500],
		"one line":          goodLine,
		"empty":             "",
		"only blank":        "\n\n  \n",
		"one cut line":      goodLine[:100],
		"a newline at last": goodLine + "\n",
	}
	defer func(size int) { chunkSize = size }(chunkSize)
	for name, in := range inputs {
		want, wantErr := slowRead(strings.NewReader(in), "f.jsonl")
		for _, size := range []int{64, 1000, 4096, 1 << 20} {
			chunkSize = size
			got, gotErr := Read(strings.NewReader(in), "f.jsonl")
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, chunks of %d: %d spans, want %d (or they differ)", name, size, len(got), len(want))
			}
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Errorf("%s, chunks of %d: error\n  %v\nwant\n  %v", name, size, gotErr, wantErr)
			}
			// Reading one byte at a time changes nothing.
			got, gotErr = Read(iotest.OneByteReader(strings.NewReader(in)), "f.jsonl")
			if !reflect.DeepEqual(got, want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Errorf("%s, chunks of %d, one byte per read: different result", name, size)
			}
		}
	}

	// A read error: the complete lines before it, then the error.
	in := file.String()
	for _, size := range []int{64, 4096, 1 << 20} {
		chunkSize = size
		r := io.MultiReader(strings.NewReader(in[:len(in)/2]), iotest.ErrReader(errors.New("disk on fire")))
		want, wantErr := slowRead(io.MultiReader(strings.NewReader(in[:len(in)/2]), iotest.ErrReader(errors.New("disk on fire"))), "f.jsonl")
		got, gotErr := Read(r, "f.jsonl")
		if !reflect.DeepEqual(got, want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("read error, chunks of %d: %d spans, error %v\nwant %d spans, error %v", size, len(got), gotErr, len(want), wantErr)
		}
		if !strings.Contains(fmt.Sprint(gotErr), "reading f.jsonl: disk on fire") {
			t.Errorf("read error not reported: %v", gotErr)
		}
	}
}

// FuzzReadSameAsSlow: Read, in small chunks on several goroutines, reads
// any input as reading it line by line through parseLine does.
func FuzzReadSameAsSlow(f *testing.F) {
	for _, line := range fastVariants(f) {
		f.Add([]byte(line + "\n" + line[:len(line)/2] + "\n\n" + line))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer func(size int) { chunkSize = size }(chunkSize)
		chunkSize = 200
		want, wantErr := slowRead(bytes.NewReader(data), "f.jsonl")
		got, gotErr := Read(bytes.NewReader(data), "f.jsonl")
		if len(got) != len(want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("%d spans, error %v; want %d, %v", len(got), gotErr, len(want), wantErr)
		}
		for i := range got {
			if !sameSpan(got[i], want[i]) {
				t.Fatalf("span %d:\n%#v\nwant\n%#v", i, got[i], want[i])
			}
		}
	})
}
