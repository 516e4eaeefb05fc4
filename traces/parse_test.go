package traces

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"go.opentelemetry.io/otel/trace"
)

// slowRead is Read without the chunks: every line through one parser,
// one after the other. Read, which parses chunks on several goroutines,
// must return the same spans and errors.
func slowRead(r io.Reader, name string) ([]Span, error) {
	return slowReadLimit(r, name, maxLineLength)
}

// slowReadLimit is slowRead with lines of at most maxLine bytes.
func slowReadLimit(r io.Reader, name string, maxLine int) ([]Span, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var (
		spans []Span
		errs  []error
		long  []byte
	)
	tab := newInternTable(keeper{})
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
		if n := len(bytes.TrimSuffix(line, []byte("\n"))); n > maxLine {
			errs = append(errs, &LineError{File: name, Line: lineNo, Err: lineTooLong(maxLine)})
			if err == io.EOF {
				break
			}
			continue
		}
		if lineNo == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
			var s Span
			if perr := tab.parse(trimmed, err == io.EOF && !complete, &s); perr != nil {
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
	// The same limit as Read's, on the line errors (the read error last).
	var lineErrs, other []error
	for _, err := range errs {
		if _, ok := err.(*LineError); ok {
			lineErrs = append(lineErrs, err)
		} else {
			other = append(other, err)
		}
	}
	return spans, errors.Join(append(limitLineErrors(name, lineErrs, 0), other...)...)
}

// lineVariants are variants of goodLine: other layouts, keys, escapes,
// nulls, IDs, numbers and times, some of which the reader refuses. The
// tests of ReadWith and the fuzz targets start from them.
func lineVariants(t testing.TB) []string {
	// base is goodLine with a float attribute in place of the slices.
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
		// Lists of strings, and what is not one.
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

// sameSpan is reflect.DeepEqual, except that NaN equals NaN.
func sameSpan(a, b Span) bool {
	return reflect.DeepEqual(a, b) || fmt.Sprintf("%#v", a) == fmt.Sprintf("%#v", b) && a.Start.Equal(b.Start) && a.End.Equal(b.End)
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
	for name, in := range inputs {
		for _, maxLine := range []int{0, 4096} { // 4096: the lines of 3000 x are too long
			readInChunks(t, name, in, maxLine)
		}
	}

	// A read error: the complete lines before it, then the error.
	in := file.String()
	for _, size := range []int{64, 4096, 1 << 20} {
		r := io.MultiReader(strings.NewReader(in[:len(in)/2]), iotest.ErrReader(errors.New("disk on fire")))
		want, wantErr := slowRead(io.MultiReader(strings.NewReader(in[:len(in)/2]), iotest.ErrReader(errors.New("disk on fire"))), "f.jsonl")
		got, gotErr := ReadWith(r, "f.jsonl", ReadOptions{chunkSize: size})
		if !reflect.DeepEqual(got, want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("read error, chunks of %d: %d spans, error %v\nwant %d spans, error %v", size, len(got), gotErr, len(want), wantErr)
		}
		if !strings.Contains(fmt.Sprint(gotErr), "reading f.jsonl: disk on fire") {
			t.Errorf("read error not reported: %v", gotErr)
		}
	}
}

// readInChunks checks that reading in in chunks of several sizes, with
// lines of at most maxLine bytes (0: the default), reads what slowRead
// does.
func readInChunks(t *testing.T, name, in string, maxLine int) {
	t.Helper()
	limit := maxLine
	if limit == 0 {
		limit = maxLineLength
	}
	want, wantErr := slowReadLimit(strings.NewReader(in), "f.jsonl", limit)
	name = fmt.Sprintf("%s, lines of at most %d", name, limit)
	for _, size := range []int{64, 1000, 4096, 1 << 20} {
		opt := ReadOptions{chunkSize: size, maxLine: maxLine}
		got, gotErr := ReadWith(strings.NewReader(in), "f.jsonl", opt)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s, chunks of %d: %d spans, want %d (or they differ)", name, size, len(got), len(want))
		}
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("%s, chunks of %d: error\n  %v\nwant\n  %v", name, size, gotErr, wantErr)
		}
		// Reading one byte at a time changes nothing.
		got, gotErr = ReadWith(iotest.OneByteReader(strings.NewReader(in)), "f.jsonl", opt)
		if !reflect.DeepEqual(got, want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("%s, chunks of %d, one byte per read: different result", name, size)
		}
	}
}

// TestParseChoices pins down how the reader reads what a recording's lines
// could hold but the Recorder never writes (docs/trace-file.md, "Damaged
// lines"; docs/design.md, "One line parser").
func TestParseChoices(t *testing.T) {
	r := func(old, new string) string {
		t.Helper()
		if !strings.Contains(goodLine, old) {
			t.Fatalf("goodLine has no %q", old)
		}
		return strings.Replace(goodLine, old, new, 1)
	}
	good := func(t *testing.T) Span {
		var s Span
		if err := newInternTable(keeper{}).parse([]byte(goodLine), false, &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, tc := range []struct {
		name string
		line string
		err  string           // the error it starts with, or "" for none
		want func(s *Span)    // what changes from goodLine's span
		test func(Span) error // or a check of the span
	}{{
		name: "another exporter's layout: keys in another order, spaces",
		line: `{ "EndTime" : "2025-03-01T12:01:00Z", "StartTime":"2025-03-01T12:00:00.5+05:30",` + "\t" +
			`"SpanContext":{"SpanID":"b7ad6b7169203331","TraceID":"0af7651916cd43dd8448eb211c80319c"} ,"Name":"x" }`,
		test: func(s Span) error {
			if s.Name != "x" || s.SpanID != (trace.SpanID{0xb7, 0xad, 0x6b, 0x71, 0x69, 0x20, 0x33, 0x31}) || s.ParentSpanID.IsValid() || s.End.IsZero() {
				return fmt.Errorf("read %+v", s)
			}
			return nil
		},
	}, {
		name: "keys are matched exactly, as stdouttrace writes them",
		line: r(`"Name":"kubelet/container-gc"`, `"name":"kubelet/container-gc"`),
		err:  `Name: missing; expected the span's name (a JSON string) (keys are case-sensitive: the line has "name")`,
	}, {
		name: "an escaped key is the key it spells",
		line: r(`"Name":"kubelet/container-gc"`, `"\u004eame":"kubelet/container-gc"`),
	}, {
		name: "a key the span has, given twice",
		line: r(`"SpanKind":1`, `"SpanKind":1,"SpanKind":2`),
		err:  `SpanKind: given twice; expected each field once`,
	}, {
		name: "a key given twice inside an attribute",
		line: r(`"Type":"BOOL","Value":true`, `"Type":"BOOL","Value":true,"Value":false`),
		err:  `Attributes[3] ("ok"): Value: given twice`,
	}, {
		name: "keys the span does not have are skipped, twice or not",
		line: r(`"ChildSpanCount":0`, `"Extra":{"a":[1,2.5e3,true,null]},"Extra":"again"`),
	}, {
		name: "escapes decode; bytes that are not UTF-8 and lone surrogates become U+FFFD",
		line: r(`"Name":"kubelet/container-gc"`, "\"Name\":\"a\\/b \\u00e9\\n\\\"q\\\" \\ud83d\\ude00 \\ud800 \xff\""),
		want: func(s *Span) { s.Name = "a/b é\n\"q\" 😀 \ufffd \ufffd" },
	}, {
		name: "a control character in a string",
		line: r(`"Value":"v"`, "\"Value\":\"tab\there\""),
		err:  fmt.Sprintf(`invalid JSON at column %d: invalid character '\t' in string literal`, strings.Index(goodLine, `"v"`)+5),
	}, {
		name: "null is a field left out",
		line: r(`"Parent":{"TraceID":"0af7651916cd43dd8448eb211c80319c","SpanID":"00f067aa0ba902b7","TraceFlags":"01","TraceState":"","Remote":false}`, `"Parent":null`),
		want: func(s *Span) { s.ParentSpanID = trace.SpanID{} },
	}, {
		name: "a null name is missing",
		line: r(`"Name":"kubelet/container-gc"`, `"Name":null`),
		err:  `Name: missing`,
	}, {
		name: "a null span context is missing",
		line: `{"Name":"x","SpanContext":null,"StartTime":"2025-03-01T12:00:00Z","EndTime":"2025-03-01T12:00:00Z"}`,
		err:  `SpanContext: missing; expected {"TraceID":"<32 hex digits>","SpanID":"<16 hex digits>",...}`,
	}, {
		name: "a status code as a number",
		line: r(`"Code":"Error"`, `"Code":2`),
		want: func(s *Span) { s.StatusCode = "Ok" },
	}, {
		name: "a status code that is no code",
		line: r(`"Code":"Error"`, `"Code":1.0`),
		err:  `Status.Code: expected "Unset", "Error" or "Ok", got 1.0`,
	}, {
		name: "IDs in upper case",
		line: r(`"SpanID":"b7ad6b7169203331"`, `"SpanID":"B7AD6B7169203331"`),
	}, {
		name: "an all-zero parent is none",
		line: r(`"SpanID":"00f067aa0ba902b7"`, `"SpanID":"0000000000000000"`),
		want: func(s *Span) { s.ParentSpanID = trace.SpanID{} },
	}, {
		name: "a parent without its trace",
		line: r(`"Parent":{"TraceID":"0af7651916cd43dd8448eb211c80319c",`, `"Parent":{`),
		err:  `Parent.TraceID: expected 32 hex digits, got ""`,
	}, {
		name: "a link to an invalid span context",
		line: r(`"TraceID":"11111111111111111111111111111111","SpanID":"2222222222222222"`, `"TraceID":"00000000000000000000000000000000","SpanID":"0000000000000000"`),
		want: func(s *Span) { s.Links[0].TraceID, s.Links[0].SpanID = trace.TraceID{}, trace.SpanID{} },
	}, {
		name: "a span kind that is not an integer",
		line: r(`"SpanKind":1`, `"SpanKind":1.5`),
		err:  `SpanKind: expected an integer, got a JSON number 1.5`,
	}, {
		name: "a key of the wrong kind, in an event's attribute",
		line: r(`"Key":"k"`, `"Key":true`),
		err:  `Events[0].Attributes[0]: Key: expected a string, got a JSON boolean`,
	}, {
		name: "an attribute without its value",
		line: r(`"Type":"STRING","Value":"v"`, `"Type":"STRING"`),
		err:  `Events[0].Attributes[0] ("k"): STRING value: expected a string, got nothing`,
	}, {
		name: "null in a list of strings",
		line: r(`["a","\u003cb\u003e"]`, `["a",null]`),
		err:  `Attributes[7] ("ss"): STRINGSLICE value: expected an array of strings, got ["a",null]`,
	}, {
		name: "of two problems, the first in the line is reported",
		line: strings.Replace(r(`"SpanKind":1`, `"SpanKind":"server"`), `"0af7651916cd43dd8448eb211c80319c"`, `"xyz"`, 1),
		err:  `SpanContext.TraceID: expected 32 hex digits, got "xyz"`,
	}, {
		name: "a syntax error before them all: a line cut short is truncated",
		line: r(`"SpanKind":1`, `"SpanKind":"server"`)[:len(goodLine)-50],
		err:  `truncated JSON object`,
	}, {
		name: "a line cut in a literal is cut, not wrong",
		line: goodLine[:strings.Index(goodLine, `true`)+2],
		err:  `truncated JSON object`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			var s Span
			err := newInternTable(keeper{}).parse([]byte(strings.TrimSpace(tc.line)), false, &s)
			switch {
			case tc.err != "":
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Fatalf("error %v, want one starting %q", err, tc.err)
				}
				if !reflect.DeepEqual(s, Span{}) {
					t.Errorf("a refused line left %+v", s)
				}
			case err != nil:
				t.Fatal(err)
			case tc.test != nil:
				if err := tc.test(s); err != nil {
					t.Error(err)
				}
			default:
				want := good(t)
				if tc.want != nil {
					tc.want(&want)
				}
				if !sameSpan(s, want) {
					t.Errorf("read\n  %#v\nwant\n  %#v", s, want)
				}
			}
		})
	}
}
