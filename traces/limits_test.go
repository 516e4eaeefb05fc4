package traces

import (
	"bytes"
	"context"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
)

// The regression tests of docs/trace-file.md's "Limits": small forms of
// files that made every reader die or hang (issue 30), generated here.

// allocated is how many bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// The array of spans was sized from the bytes a line takes in the first
// chunk: a file of blank lines asked for one span per byte of the file
// (100 M blank lines: 25 GB).
func TestBlankLinesDoNotSizeTheSpans(t *testing.T) {
	text := strings.Repeat("\n", 4<<20) + goodLine + "\n"
	var spans []Span
	var err error
	n := allocated(func() {
		spans, err = ReadWith(strings.NewReader(text), "blank.jsonl", ReadOptions{chunkSize: 64 << 10})
	})
	if err != nil || len(spans) != 1 || spans[0].Line != 4<<20+1 {
		t.Fatalf("read %d spans (%v), want the one on line %d", len(spans), err, 4<<20+1)
	}
	// 4 MiB of text: the chunks' buffers, and room for at most one span
	// per minSpanLine bytes (~7 MB).
	if n > 32<<20 {
		t.Errorf("reading 4 MiB of blank lines allocated %d MiB, want at most 32", n>>20)
	}
}

// A compressed file of blank lines decompresses thousands of times: the
// text the rest of it would give is reckoned at no more than
// maxEstimatedRatio.
func TestCompressedEstimateIsBounded(t *testing.T) {
	d := &decompressor{read: 100, written: 100 * 30000}
	if got := d.estimate(1000); got != 1000*maxEstimatedRatio {
		t.Errorf("estimate of 1000 bytes at 30000:1 = %d, want %d", got, 1000*maxEstimatedRatio)
	}
	d = &decompressor{read: 100, written: 100 * 30}
	if got := d.estimate(1000); got != 1000*30 {
		t.Errorf("estimate of 1000 bytes at 30:1 = %d, want %d", got, 1000*30)
	}
}

// minSpanLine is fewer bytes than the shortest span line.
func TestMinSpanLine(t *testing.T) {
	shortest := `{"Name":"","SpanContext":{"TraceID":"00000000000000000000000000000001","SpanID":"0000000000000001"},"StartTime":"2006-01-02T15:04:05Z","EndTime":"2006-01-02T15:04:05Z"}`
	if _, err := Read(strings.NewReader(shortest), "x"); err != nil {
		t.Fatal(err)
	}
	if len(shortest) < minSpanLine {
		t.Errorf("a span line of %d bytes, fewer than minSpanLine (%d)", len(shortest), minSpanLine)
	}
}

// repeatReader gives n bytes c, then the rest.
type repeatReader struct {
	c    byte
	n    int
	rest io.Reader
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return r.rest.Read(p)
	}
	k := min(len(p), r.n)
	for i := range k {
		p[i] = r.c
	}
	r.n -= k
	return k, nil
}

// A line with no end (3 GB without a newline) was held whole. A line
// longer than the limit is a LineError, read past without being kept, and
// the lines after it are read.
func TestLineTooLongIsSkippedNotHeld(t *testing.T) {
	const limit = 4096
	for _, tc := range []struct {
		name string
		in   func() io.Reader
	}{
		{"in the middle", func() io.Reader {
			return io.MultiReader(strings.NewReader(goodLine+"\n"), &repeatReader{c: 'a', n: 64 << 20, rest: strings.NewReader("\n" + goodLine + "\n")})
		}},
		{"at the end", func() io.Reader {
			return io.MultiReader(strings.NewReader(goodLine+"\n\n"), &repeatReader{c: '[', n: 64 << 20, rest: strings.NewReader("")})
		}},
	} {
		var spans []Span
		var err error
		n := allocated(func() {
			spans, err = ReadWith(tc.in(), "long.jsonl", ReadOptions{chunkSize: 1024, maxLine: limit})
		})
		if n > 16<<20 {
			t.Errorf("%s: a line of 64 MiB allocated %d MiB, want at most 16: it was held", tc.name, n>>20)
		}
		les := lineErrors(t, err)
		if len(les) != 1 || les[0].File != "long.jsonl" || !errors.Is(les[0], ErrLineTooLong) || !strings.Contains(les[0].Error(), "longer than 4096 bytes") {
			t.Fatalf("%s: errors %v, want one: line too long", tc.name, err)
		}
		switch tc.name {
		case "in the middle":
			if les[0].Line != 2 || len(spans) != 2 || spans[0].Line != 1 || spans[1].Line != 3 {
				t.Errorf("%s: error on line %d, spans %d; want line 2 and the spans of lines 1 and 3", tc.name, les[0].Line, len(spans))
			}
		case "at the end":
			if les[0].Line != 3 || len(spans) != 1 {
				t.Errorf("%s: error on line %d, spans %d; want line 3 and one span", tc.name, les[0].Line, len(spans))
			}
		}
	}

	// The same, compressed: 64 MiB of text in a few KB.
	var zst bytes.Buffer
	w := NewCompressedWriter(&zst)
	w.Write([]byte(goodLine + "\n"))
	w.Write(bytes.Repeat([]byte("a"), 64<<20))
	w.Write([]byte("\n" + goodLine + "\n"))
	w.Close()
	spans, err := ReadWith(bytes.NewReader(zst.Bytes()), "long.jsonl.zst", ReadOptions{maxLine: limit})
	if les := lineErrors(t, err); len(spans) != 2 || len(les) != 1 || les[0].Line != 2 || !errors.Is(les[0], ErrLineTooLong) {
		t.Errorf("compressed: %d spans, errors %v; want 2 spans and line 2 too long", len(spans), err)
	}
}

// A span with millions of nested '[' in a field the reader skips
// overflowed its stack (a Go fatal error). A line nested deeper than
// maxNesting is a LineError, anywhere in it.
func TestDeepJSONIsALineError(t *testing.T) {
	deep := strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20)
	field := strings.Replace(goodLine, `"SpanKind":1,`, `"SpanKind":1,"Unknown":`+deep+`,`, 1)
	ctx := strings.Replace(goodLine, `"TraceFlags":"01",`, `"TraceFlags":`+deep+`,`, 1)
	attr := strings.Replace(goodLine, `{"Type":"BOOL","Value":true}`, `{"Type":"BOOL","Value":`+deep+`}`, 1)
	justDeepEnough := strings.Replace(goodLine, `"SpanKind":1,`, `"SpanKind":1,"Unknown":`+strings.Repeat("[", maxNesting-1)+strings.Repeat("]", maxNesting-1)+`,`, 1)
	text := strings.Join([]string{field, ctx, attr, goodLine, justDeepEnough}, "\n")
	spans, err := Read(strings.NewReader(text), "deep.jsonl")
	les := lineErrors(t, err)
	if len(les) != 3 {
		t.Fatalf("errors %v, want 3", err)
	}
	for i, le := range les {
		if le.Line != i+1 || !strings.Contains(le.Error(), "JSON nested more than 64 deep at column") {
			t.Errorf("error %v, want line %d nested too deep", le, i+1)
		}
	}
	if len(spans) != 2 || spans[0].Line != 4 || spans[1].Line != 5 {
		t.Errorf("read %d spans, want those of lines 4 and 5", len(spans))
	}
}

// Nested SLICE values took time in the square of their depth (a 586-byte
// file, 18.8 s). They may nest maxAttributeDepth deep.
func TestAttributeDepth(t *testing.T) {
	nested := func(depth int) string {
		v := `{"Type":"INT64","Value":1}`
		for i := range depth {
			if i%2 == 0 {
				v = `{"Type":"SLICE","Value":[` + v + `]}`
			} else {
				v = `{"Type":"MAP","Value":[{"Key":"k","Value":` + v + `}]}`
			}
		}
		return strings.Replace(goodLine, `{"Type":"BOOL","Value":true}`, v, 1)
	}
	spans, err := Read(strings.NewReader(nested(maxAttributeDepth)), "x")
	if err != nil || len(spans) != 1 {
		t.Fatalf("%d levels: %v", maxAttributeDepth, err)
	}
	v := spans[0].Attributes["ok"]
	for range maxAttributeDepth {
		switch x := v.(type) {
		case []any:
			v = x[0]
		case Attributes:
			v = x["k"]
		default:
			t.Fatalf("%d levels read as %#v", maxAttributeDepth, spans[0].Attributes["ok"])
		}
	}
	if v != int64(1) {
		t.Errorf("innermost value %#v, want 1", v)
	}
	_, err = Read(strings.NewReader(nested(maxAttributeDepth+1)), "x")
	if msg := errString(err); !strings.HasPrefix(msg, `x:1: Attributes[3] ("ok"): SLICE element 0: MAP entry 0 ("k"): `) || !strings.HasSuffix(msg, "SLICE value: SLICE and MAP values nested more than 8 deep, the most a reader accepts") {
		t.Errorf("%d levels: error %v, want SLICE and MAP values nested too deep", maxAttributeDepth+1, err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// endless gives span lines for ever, and calls stop after some reads.
type endless struct {
	reads, at int
	stop      func()
}

func (e *endless) Read(p []byte) (int, error) {
	if e.reads++; e.reads == 10 {
		e.stop()
	}
	const line = goodLine + "\n"
	n := 0
	for n < len(p) {
		k := copy(p[n:], line[e.at:])
		n += k
		e.at = (e.at + k) % len(line)
	}
	return n, nil
}

// A long read stops when its context is done, with the spans read so far
// and an error saying why.
func TestReadContextStops(t *testing.T) {
	cause := errors.New("interrupt signal received")
	for _, chunk := range []int{1024, 0} {
		ctx, cancel := context.WithCancelCause(context.Background())
		spans, err := ReadContext(ctx, &endless{stop: func() { cancel(cause) }}, "endless.jsonl", ReadOptions{chunkSize: chunk})
		if !errors.Is(err, cause) || !strings.Contains(err.Error(), "reading endless.jsonl: interrupt signal received") {
			t.Errorf("chunks of %d: error %v, want the cause", chunk, err)
		}
		if len(spans) == 0 {
			t.Errorf("chunks of %d: no spans, want those read before", chunk)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ReadContext(ctx, strings.NewReader(goodLine), "x", ReadOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("done before: %v", err)
	}
}

// An 18 KB compressed file of 100 M bad lines asked for a LineError each,
// gigabytes. Read describes the first maxLineErrors and counts the rest,
// in any chunks.
func TestBadLinesAreCounted(t *testing.T) {
	const bad = 100_000
	text := strings.Repeat("x\n", bad) + goodLine + "\n"
	for _, size := range []int{0, 1000, 64 << 10} {
		var spans []Span
		var err error
		n := allocated(func() {
			spans, err = ReadWith(strings.NewReader(text), "bad.jsonl", ReadOptions{chunkSize: size})
		})
		if len(spans) != 1 || spans[0].Line != bad+1 {
			t.Fatalf("chunks of %d: %d spans, want the one on line %d", size, len(spans), bad+1)
		}
		errs := err.(interface{ Unwrap() []error }).Unwrap()
		les := lineErrors(t, errors.Join(errs[:len(errs)-1]...))
		if len(les) != maxLineErrors || les[0].Line != 1 || les[maxLineErrors-1].Line != maxLineErrors {
			t.Errorf("chunks of %d: %d line errors, want lines 1 to %d", size, len(les), maxLineErrors)
		}
		if want := "bad.jsonl: 99900 more lines could not be read (only the first 100 are listed)"; !strings.HasSuffix(err.Error(), want) {
			t.Errorf("chunks of %d: error ends %q, want %q", size, err.Error()[max(0, len(err.Error())-100):], want)
		}
		if n > 16<<20 {
			t.Errorf("chunks of %d: %d bad lines allocated %d MiB, want at most 16", size, bad, n>>20)
		}
	}
}
