package traces

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// LineError is a line of a trace file that could not be read as a span.
type LineError struct {
	File string // the name given to Read, or the path given to ReadFile
	Line int    // 1-based
	Err  error
}

func (e *LineError) Error() string {
	if e.File == "" {
		return fmt.Sprintf("line %d: %v", e.Line, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
}

func (e *LineError) Unwrap() error { return e.Err }

// ErrTruncated is wrapped by the LineError of a line that ends before its
// JSON object does, typically the last line of a recording that was
// interrupted. Test for it with errors.Is.
var ErrTruncated = errors.New("truncated JSON object")

// ReadFile reads the trace file at path; see Read.
func ReadFile(path string) ([]Span, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// Read reads a trace file (JSON Lines, one stdouttrace span object per line,
// as a Recorder or the stdouttrace exporter writes it) from r; name is used
// in error messages.
//
// Every line that parses becomes a Span, in file order, with Line set; blank
// lines are skipped. A malformed or truncated line does not stop reading:
// Read returns every span it could read together with errors.Join of one
// *LineError per bad line (nil when there is none), plus any error reading
// r.
//
// Spans read from one file share the values that repeat, such as attribute
// keys and goroutine names, and spans of one resource share their Resource
// map: treat a Span's maps as read-only. Large files are parsed on all
// CPUs (GOMAXPROCS) in chunks of lines; the result does not depend on it.
func Read(r io.Reader, name string) ([]Span, error) {
	rd := &chunkReader{r: r, name: name, size: chunkSize}
	first, err := rd.next()
	if err != nil || first.final {
		// One chunk: no need for other goroutines.
		var res chunkResult
		if first != nil {
			res = parseChunk(first, newInternTable())
		}
		return res.spans, errors.Join(append(res.errs, err)...)
	}

	// When the size of the input is known, the spans go straight into one
	// array big enough for them (each chunk gets a place for as many spans
	// as it has lines), saving a copy of them all at the end.
	var arena []Span
	next := 0
	if size := sizeOf(r); size > 0 && first.lines > 0 {
		perLine := float64(len(first.data)) / float64(first.lines)
		arena = make([]Span, int(float64(size)/perLine*1.15)+first.lines+1024)
	}
	place := func(c *chunk) {
		if arena != nil && next+c.lines <= len(arena) {
			c.dst = arena[next : next : next+c.lines]
			next += c.lines
		}
	}
	place(first)

	workers := max(1, runtime.GOMAXPROCS(0))
	jobs := make(chan *chunk, workers)
	results := make(chan chunkResult, workers)
	rd.free = make(chan []byte, 2*workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			tab := newInternTable()
			for c := range jobs {
				results <- parseChunk(c, tab)
				// Spans keep no part of the chunk: its buffer can be reused.
				select {
				case rd.free <- c.data[:0]:
				default:
				}
			}
		})
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	go func() {
		defer close(jobs)
		c := first
		for {
			jobs <- c
			if c.final {
				return
			}
			var err error
			if c, err = rd.next(); err != nil {
				rd.err = err
			}
			if c == nil {
				return
			}
			place(c)
		}
	}()
	var done []chunkResult
	for res := range results {
		done = append(done, res)
	}
	slices.SortFunc(done, func(a, b chunkResult) int { return cmp.Compare(a.seq, b.seq) })
	var errs []error
	for i := range done {
		errs = append(errs, done[i].errs...)
	}
	return assemble(done, arena), errors.Join(append(errs, rd.err)...)
}

// assemble puts the spans of the chunks, in order, into one slice: in
// place in arena if every chunk parsed into it (closing the gaps that blank
// and bad lines left), else into a new one.
func assemble(done []chunkResult, arena []Span) []Span {
	inArena := arena != nil
	total := 0
	for _, res := range done {
		total += len(res.spans)
		inArena = inArena && res.inArena
	}
	if inArena {
		n := 0
		for i := range done {
			// Chunks lie in order: moving a chunk's spans down over the
			// gaps before it never overwrites spans not yet moved.
			if sp := done[i].spans; len(sp) > 0 && &sp[0] != &arena[n] {
				copy(arena[n:], sp)
			}
			n += len(done[i].spans)
		}
		return arena[:n:n]
	}
	spans := make([]Span, 0, total)
	for i := range done {
		spans = append(spans, done[i].spans...)
		done[i].spans = nil
	}
	return spans
}

// sizeOf returns the number of bytes r will give, if it says (a file, a
// bytes.Reader, a strings.Reader), or 0.
func sizeOf(r io.Reader) int64 {
	switch r := r.(type) {
	case interface{ Stat() (os.FileInfo, error) }:
		if fi, err := r.Stat(); err == nil && fi.Mode().IsRegular() {
			if seeker, ok := r.(io.Seeker); ok {
				if off, err := seeker.Seek(0, io.SeekCurrent); err == nil {
					return fi.Size() - off
				}
			}
			return fi.Size()
		}
	case interface{ Len() int }:
		return int64(r.Len())
	}
	return 0
}

// chunkSize is how much of a file one goroutine parses at a time (a
// variable for tests).
var chunkSize = 4 << 20

// A chunk is whole lines of the file.
type chunk struct {
	seq       int
	file      string // the name to give in errors
	firstLine int    // the number of its first line
	data      []byte // whole lines, each ending in '\n' except perhaps the last of the file
	lines     int    // the number of lines in data
	final     bool   // the last chunk of the file
	dst       []Span // where to put its spans (room for one per line), or nil
}

type chunkResult struct {
	seq     int
	spans   []Span
	inArena bool // spans are where the chunk's dst was
	errs    []error
}

// chunkReader cuts a file into chunks of whole lines.
type chunkReader struct {
	r     io.Reader
	name  string
	size  int
	carry []byte // the start of a line, read with the previous chunk
	seq   int
	line  int // the number of the next chunk's first line, minus one
	eof   bool
	big   bool        // a chunk has filled cr.size
	empty int         // reads in a row that returned nothing
	free  chan []byte // buffers of parsed chunks, for reuse
	err   error       // an error reading r, after the chunks it ended
}

// next returns the next chunk, one marked final at the end of the input, or
// an error reading (with no chunk) after the complete lines read before it.
func (cr *chunkReader) next() (*chunk, error) {
	// Small files need no big buffer: start small, and double up to the
	// chunk size (or beyond, for a line longer than that). Once a file
	// has needed a whole chunk, start there.
	size := min(cr.size, 64<<10)
	if cr.big {
		size = cr.size
	}
	var buf []byte
	if size == cr.size && cr.free != nil {
		select {
		case buf = <-cr.free:
		default:
		}
	}
	if cap(buf) < max(size, 2*len(cr.carry)) {
		buf = make([]byte, 0, max(size, 2*len(cr.carry)))
	}
	buf = append(buf[:0], cr.carry...)
	cr.carry = nil
	var readErr error
	for !cr.eof {
		if len(buf) == cap(buf) {
			if len(buf) >= cr.size {
				cr.big = true
				if bytes.LastIndexByte(buf, '\n') >= 0 {
					break
				}
			}
			buf = slices.Grow(buf, len(buf))
		}
		n, err := cr.r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if n == 0 && err == nil {
			// As bufio does: a reader that returns nothing again and
			// again is broken.
			if cr.empty++; cr.empty >= 100 {
				err = io.ErrNoProgress
			}
		} else {
			cr.empty = 0
		}
		if err == io.EOF {
			cr.eof = true
		} else if err != nil {
			readErr = fmt.Errorf("reading %s: %w", cr.name, err)
			break
		}
	}
	c := &chunk{seq: cr.seq, file: cr.name, firstLine: cr.line + 1}
	cr.seq++
	if cr.eof && readErr == nil {
		c.data, c.final = buf, true
	} else {
		end := bytes.LastIndexByte(buf, '\n') + 1
		c.data = buf[:end]
		cr.carry = append(cr.carry, buf[end:]...) // a partial line: dropped after a read error
	}
	c.lines = bytes.Count(c.data, []byte{'\n'})
	if len(c.data) > 0 && c.data[len(c.data)-1] != '\n' {
		c.lines++
	}
	cr.line += c.lines
	if readErr != nil {
		if len(c.data) == 0 {
			return nil, readErr
		}
		// The lines read so far, then the error.
		cr.eof = true
		c.final = true
		return c, readErr
	}
	return c, nil
}

// parseChunk reads the spans of a chunk's lines.
func parseChunk(c *chunk, tab *internTable) chunkResult {
	res := chunkResult{seq: c.seq}
	data := c.data
	if c.firstLine == 1 {
		data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark
	}
	for lineNo := c.firstLine; len(data) > 0; lineNo++ {
		line := data
		complete := false
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data, complete = data[:i+1], data[i+1:], true
		} else {
			data = nil
		}
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) == 0 {
			continue
		}
		if res.spans == nil {
			if c.dst != nil {
				res.spans, res.inArena = c.dst, true
			} else {
				res.spans = make([]Span, 0, len(c.data)/1024+1)
			}
		}
		// Parse in place: a Span is big to copy.
		n := len(res.spans)
		res.spans = append(res.spans, Span{})
		if trimmed[0] == '{' && tab.parseFastInto(trimmed, &res.spans[n]) {
			res.spans[n].Line = lineNo
			continue
		}
		s, err := parseLine(trimmed, c.final && !complete)
		if err != nil {
			res.spans = res.spans[:n]
			res.errs = append(res.errs, &LineError{File: c.file, Line: lineNo, Err: err})
			continue
		}
		s.Line = lineNo
		res.spans[n] = s
	}
	if len(res.spans) == 0 {
		res.spans = nil
		res.inArena = c.dst != nil // no spans: nothing to move
	}
	return res
}

// The intermediate structs below mirror the JSON the stdouttrace exporter
// writes (the Go field names of tracetest.SpanStub and the types it holds).
type jsonSpan struct {
	Name                   *string
	SpanContext            *jsonSpanContext
	Parent                 *jsonSpanContext
	SpanKind               int
	StartTime              json.RawMessage
	EndTime                json.RawMessage
	Attributes             []jsonKeyValue
	Events                 []jsonEvent
	Links                  []jsonLink
	Status                 *jsonStatus
	Resource               []jsonKeyValue
	InstrumentationScope   *jsonScope
	InstrumentationLibrary *jsonScope // older stdouttrace versions wrote only this
}

type jsonSpanContext struct {
	TraceID string
	SpanID  string
}

type jsonKeyValue struct {
	Key   string
	Value jsonValue
}

type jsonValue struct {
	Type  string
	Value json.RawMessage
}

type jsonEvent struct {
	Name       string
	Attributes []jsonKeyValue
	Time       json.RawMessage
}

type jsonLink struct {
	SpanContext jsonSpanContext
	Attributes  []jsonKeyValue
}

type jsonStatus struct {
	Code        json.RawMessage
	Description string
}

type jsonScope struct {
	Name string
}

// parseLine decodes one non-blank line. atEOF says the line is the last of
// the input and has no newline.
func parseLine(line []byte, atEOF bool) (Span, error) {
	if line[0] != '{' {
		if !json.Valid(line) {
			return Span{}, syntaxProblem(line, atEOF)
		}
		return Span{}, fmt.Errorf("expected a JSON object (one span per line), got a JSON %s", jsonKind(line[0]))
	}
	var js jsonSpan
	if err := json.Unmarshal(line, &js); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return Span{}, syntaxProblem(line, atEOF)
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return Span{}, typeProblem(te)
		}
		return Span{}, err
	}

	var s Span
	var err error
	if js.Name == nil {
		return Span{}, errors.New(`Name: missing; expected the span's name (a JSON string)`)
	}
	s.Name = *js.Name
	if js.SpanContext == nil {
		return Span{}, errors.New(`SpanContext: missing; expected {"TraceID":"<32 hex digits>","SpanID":"<16 hex digits>",...}`)
	}
	if s.TraceID, err = hexID("SpanContext.TraceID", js.SpanContext.TraceID, 32, false); err != nil {
		return Span{}, err
	}
	if s.SpanID, err = hexID("SpanContext.SpanID", js.SpanContext.SpanID, 16, false); err != nil {
		return Span{}, err
	}
	if js.Parent != nil && (js.Parent.TraceID != "" || js.Parent.SpanID != "") {
		if _, err = hexID("Parent.TraceID", js.Parent.TraceID, 32, true); err != nil {
			return Span{}, err
		}
		if s.ParentSpanID, err = hexID("Parent.SpanID", js.Parent.SpanID, 16, true); err != nil {
			return Span{}, err
		}
		if s.ParentSpanID == "0000000000000000" {
			s.ParentSpanID = ""
		}
	}
	s.Kind = js.SpanKind
	if s.Start, err = parseTime("StartTime", js.StartTime); err != nil {
		return Span{}, err
	}
	if s.End, err = parseTime("EndTime", js.EndTime); err != nil {
		return Span{}, err
	}
	if s.Attributes, err = attributes("Attributes", js.Attributes); err != nil {
		return Span{}, err
	}
	if len(js.Events) > 0 {
		s.Events = make([]Event, len(js.Events))
		for i, je := range js.Events {
			path := fmt.Sprintf("Events[%d]", i)
			ev := &s.Events[i]
			ev.Name = je.Name
			if ev.Time, err = parseTime(path+".Time", je.Time); err != nil {
				return Span{}, err
			}
			if ev.Attributes, err = attributes(path+".Attributes", je.Attributes); err != nil {
				return Span{}, err
			}
		}
	}
	if len(js.Links) > 0 {
		s.Links = make([]Link, len(js.Links))
		for i, jl := range js.Links {
			path := fmt.Sprintf("Links[%d]", i)
			l := &s.Links[i]
			if l.TraceID, err = hexID(path+".SpanContext.TraceID", jl.SpanContext.TraceID, 32, true); err != nil {
				return Span{}, err
			}
			if l.SpanID, err = hexID(path+".SpanContext.SpanID", jl.SpanContext.SpanID, 16, true); err != nil {
				return Span{}, err
			}
			if l.Attributes, err = attributes(path+".Attributes", jl.Attributes); err != nil {
				return Span{}, err
			}
		}
	}
	s.StatusCode = "Unset"
	if js.Status != nil {
		if s.StatusCode, err = statusCode(js.Status.Code); err != nil {
			return Span{}, err
		}
		s.StatusDesc = js.Status.Description
	}
	if s.Resource, err = attributes("Resource", js.Resource); err != nil {
		return Span{}, err
	}
	switch {
	case js.InstrumentationScope != nil:
		s.Scope = js.InstrumentationScope.Name
	case js.InstrumentationLibrary != nil:
		s.Scope = js.InstrumentationLibrary.Name
	}
	return s, nil
}

// syntaxProblem describes why line is not valid JSON.
func syntaxProblem(line []byte, atEOF bool) error {
	var v any
	err := json.Unmarshal(line, &v)
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return fmt.Errorf("invalid JSON (%v); expected one JSON object per line", err)
	}
	if se.Error() == "unexpected end of JSON input" {
		if atEOF {
			return fmt.Errorf("%w (the recording was probably interrupted while this line was written)", ErrTruncated)
		}
		return fmt.Errorf("%w (the line ends before its closing '}')", ErrTruncated)
	}
	if strings.Contains(se.Error(), "after top-level value") {
		return fmt.Errorf("unexpected text after the JSON object at column %d; expected one JSON object per line", se.Offset)
	}
	return fmt.Errorf("invalid JSON at column %d: %s; expected one JSON object per line (a span as the stdouttrace exporter writes it)", se.Offset, strings.TrimPrefix(se.Error(), "json: "))
}

func jsonKind(c byte) string {
	switch c {
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	default:
		return "number"
	}
}

// typeProblem describes a JSON value of the wrong kind for a field.
func typeProblem(te *json.UnmarshalTypeError) error {
	field := te.Field
	if field == "" {
		field = "value"
	}
	return fmt.Errorf("%s: expected %s, got a JSON %s", field, goKind(te.Type), te.Value)
}

func goKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	case reflect.Slice:
		if t == reflect.TypeFor[json.RawMessage]() {
			return "a JSON value"
		}
		return "an array"
	case reflect.Struct, reflect.Pointer:
		return "an object"
	case reflect.Bool:
		return "a boolean"
	}
	return t.String()
}

// quote quotes s for an error message, shortened when long.
func quote(s string) string {
	const max = 48
	if len(s) > max {
		return strconv.Quote(s[:max]) + "..."
	}
	return strconv.Quote(s)
}

// hexID checks that s is n hex digits and returns it in lower case.
// zeroOK allows the all-zero ID (no parent, an invalid link).
func hexID(field, s string, n int, zeroOK bool) (string, error) {
	if len(s) != n {
		return "", fmt.Errorf("%s: expected %d hex digits, got %s", field, n, quote(s))
	}
	zero := true
	lower := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9', 'a' <= c && c <= 'f':
		case 'A' <= c && c <= 'F':
			lower = false
		default:
			return "", fmt.Errorf("%s: expected %d hex digits, got %s", field, n, quote(s))
		}
		if c != '0' {
			zero = false
		}
	}
	if zero && !zeroOK {
		return "", fmt.Errorf("%s: expected a valid ID, got all zeros", field)
	}
	if !lower {
		s = strings.ToLower(s)
	}
	return s, nil
}

func parseTime(field string, raw json.RawMessage) (time.Time, error) {
	const want = `an RFC 3339 time such as "2006-01-02T15:04:05.999999999Z"`
	if raw == nil || string(raw) == "null" {
		return time.Time{}, fmt.Errorf("%s: missing; expected %s", field, want)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		got := string(raw)
		if len(got) > 48 {
			got = got[:48] + "..."
		}
		return time.Time{}, fmt.Errorf("%s: expected %s, got %s", field, want, got)
	}
	var t time.Time
	if err := t.UnmarshalText([]byte(s)); err != nil {
		return time.Time{}, fmt.Errorf("%s: expected %s, got %s", field, want, quote(s))
	}
	return t, nil
}

func statusCode(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "Unset", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		switch s {
		case "Unset", "Error", "Ok":
			return s, nil
		}
		return "", fmt.Errorf(`Status.Code: expected "Unset", "Error" or "Ok", got %s`, quote(s))
	}
	switch string(raw) { // codes.Code also unmarshals from its number
	case "0":
		return "Unset", nil
	case "1":
		return "Error", nil
	case "2":
		return "Ok", nil
	}
	return "", fmt.Errorf(`Status.Code: expected "Unset", "Error" or "Ok", got %s`, raw)
}

// attributes converts a list of stdouttrace key-values.
func attributes(field string, kvs []jsonKeyValue) (Attributes, error) {
	if len(kvs) == 0 {
		return nil, nil
	}
	a := make(Attributes, len(kvs))
	for i := range kvs {
		kv := &kvs[i]
		v, err := attrValue(kv.Value)
		if err != nil {
			return nil, fmt.Errorf("%s[%d] (%s): %w", field, i, quote(kv.Key), err)
		}
		a[kv.Key] = v
	}
	return a, nil
}

const attrTypes = "BOOL, INT64, FLOAT64, STRING, BOOLSLICE, INT64SLICE, FLOAT64SLICE, STRINGSLICE, BYTESLICE, SLICE, MAP or EMPTY"

// attrValue converts an attribute value {"Type":..., "Value":...} as
// attribute.Value.MarshalJSON writes it to a Go value.
func attrValue(jv jsonValue) (any, error) {
	raw := jv.Value
	isNull := len(raw) == 0 || string(raw) == "null"
	bad := func(want string) error {
		got := string(raw)
		if len(got) > 48 {
			got = got[:48] + "..."
		}
		return fmt.Errorf("%s value: expected %s, got %s", jv.Type, want, got)
	}
	switch jv.Type {
	case "BOOL":
		switch string(raw) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, bad("true or false")
	case "INT64":
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil {
			return nil, bad("a 64-bit integer")
		}
		return n, nil
	case "FLOAT64":
		f, ok := parseFloat(raw)
		if !ok {
			return nil, bad("a number")
		}
		return f, nil
	case "STRING":
		var s string
		if isNull || json.Unmarshal(raw, &s) != nil {
			return nil, bad("a string")
		}
		return s, nil
	case "BOOLSLICE":
		var s []bool
		if !isNull && json.Unmarshal(raw, &s) != nil {
			return nil, bad("an array of booleans")
		}
		return s, nil
	case "INT64SLICE":
		var ns []json.Number
		if !isNull && json.Unmarshal(raw, &ns) != nil {
			return nil, bad("an array of integers")
		}
		var s []int64
		if ns != nil {
			s = make([]int64, len(ns))
		}
		for i, n := range ns {
			x, err := strconv.ParseInt(string(n), 10, 64)
			if err != nil {
				return nil, bad("an array of 64-bit integers")
			}
			s[i] = x
		}
		return s, nil
	case "FLOAT64SLICE":
		var rs []json.RawMessage
		if !isNull && json.Unmarshal(raw, &rs) != nil {
			return nil, bad("an array of numbers")
		}
		var s []float64
		if rs != nil {
			s = make([]float64, len(rs))
		}
		for i, r := range rs {
			f, ok := parseFloat(r)
			if !ok {
				return nil, bad("an array of numbers")
			}
			s[i] = f
		}
		return s, nil
	case "STRINGSLICE":
		var s []string
		if !isNull && json.Unmarshal(raw, &s) != nil {
			return nil, bad("an array of strings")
		}
		return s, nil
	case "BYTESLICE":
		var s string
		if isNull {
			return []byte(nil), nil
		}
		if json.Unmarshal(raw, &s) != nil {
			return nil, bad("a base64 string")
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, bad("a base64 string")
		}
		return b, nil
	case "SLICE":
		var vs []jsonValue
		if !isNull && json.Unmarshal(raw, &vs) != nil {
			return nil, bad(`an array of {"Type":...,"Value":...} objects`)
		}
		var s []any
		if vs != nil {
			s = make([]any, len(vs))
		}
		for i, v := range vs {
			x, err := attrValue(v)
			if err != nil {
				return nil, fmt.Errorf("SLICE element %d: %w", i, err)
			}
			s[i] = x
		}
		return s, nil
	case "MAP":
		var kvs []jsonKeyValue
		if !isNull && json.Unmarshal(raw, &kvs) != nil {
			return nil, bad(`an array of {"Key":...,"Value":...} objects`)
		}
		m := make(Attributes, len(kvs))
		for i := range kvs {
			x, err := attrValue(kvs[i].Value)
			if err != nil {
				return nil, fmt.Errorf("MAP entry %d (%s): %w", i, quote(kvs[i].Key), err)
			}
			m[kvs[i].Key] = x
		}
		return m, nil
	case "EMPTY", "INVALID":
		return nil, nil
	case "":
		return nil, errors.New(`Type: missing; expected one of ` + attrTypes)
	}
	return nil, fmt.Errorf("Type: unknown attribute type %s; expected one of %s", quote(jv.Type), attrTypes)
}

// parseFloat parses a JSON number, or the strings "NaN", "Infinity" and
// "-Infinity" a Recorder writes for floats JSON cannot hold.
func parseFloat(raw []byte) (float64, bool) {
	switch string(raw) {
	case `"NaN"`:
		return math.NaN(), true
	case `"Infinity"`:
		return math.Inf(1), true
	case `"-Infinity"`:
		return math.Inf(-1), true
	}
	if len(raw) == 0 || !(raw[0] == '-' || '0' <= raw[0] && raw[0] <= '9') {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return 0, false
	}
	return f, true
}

// The fast path. Almost every line of a recording is a span exactly as the
// Recorder writes it. fastParser reads such lines without reflection,
// straight into a Span, sharing the strings that repeat (attribute keys,
// span names, trace IDs, goroutine names) and the Resource map of the spans
// of one resource. It accepts only what it can read exactly as parseLine
// would, and gives up on anything else (escape sequences in keys,
// duplicate keys, keys encoding/json would match case-insensitively,
// attribute types other than STRING, INT64, FLOAT64 and BOOL, null where a
// value is expected, any error): parseLine then reads the line, and
// explains what is wrong with it.
type fastParser struct {
	b   []byte
	p   int
	tab *internTable
}

// internTable holds the values shared between the spans one reader
// goroutine parses. Its maps are bounded: past their size, values are
// allocated as usual.
type internTable struct {
	strs      map[string]string
	vals      map[string]any // boxed strings, for attribute values
	floats    map[uint64]any
	ints      [1024]any
	resources map[string]Attributes // by the JSON text of the Resource
	recent    [4]recentResource     // the last resources seen, most recent first
	scopes    [2]recentScope        // the last scope objects seen
	lists     map[string]Attributes // attribute lists of strings and booleans, by their text
	pairs     []keyValue            // scratch space for attributes
}

// recentScope is the text of an InstrumentationScope (or Library) object
// and its name.
type recentScope struct {
	text []byte
	name string
}

const (
	maxInterned    = 1 << 16
	maxInternedLen = 96
	maxResources   = 4096
)

func newInternTable() *internTable {
	return &internTable{
		strs:      make(map[string]string, 256),
		vals:      make(map[string]any, 256),
		floats:    map[uint64]any{},
		resources: map[string]Attributes{},
		lists:     map[string]Attributes{},
	}
}

func (t *internTable) str(b []byte) string {
	if len(b) > maxInternedLen {
		return string(b)
	}
	if s, ok := t.strs[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(t.strs) < maxInterned {
		t.strs[s] = s
	}
	return s
}

func (t *internTable) strValue(b []byte) any {
	if len(b) > maxInternedLen {
		return string(b)
	}
	if v, ok := t.vals[string(b)]; ok {
		return v
	}
	var v any = t.str(b)
	if len(t.vals) < maxInterned {
		t.vals[v.(string)] = v
	}
	return v
}

func (t *internTable) intValue(n int64) any {
	if n < 0 || n >= int64(len(t.ints)) {
		return n
	}
	if t.ints[n] == nil {
		t.ints[n] = n
	}
	return t.ints[n]
}

func (t *internTable) floatValue(f float64) any {
	bits := math.Float64bits(f)
	if v, ok := t.floats[bits]; ok {
		return v
	}
	var v any = f
	if len(t.floats) < 4096 {
		t.floats[bits] = v
	}
	return v
}

// Field bits, to refuse a key seen twice (encoding/json would keep the last).
const (
	fName = 1 << iota
	fSpanContext
	fParent
	fSpanKind
	fStartTime
	fEndTime
	fAttributes
	fEvents
	fLinks
	fStatus
	fResource
	fScope
	fLibrary
)

// Field names of the structs parseLine decodes into, which encoding/json
// would also match case-insensitively.
var (
	spanFields      = []string{"Name", "SpanContext", "Parent", "SpanKind", "StartTime", "EndTime", "Attributes", "Events", "Links", "Status", "Resource", "InstrumentationScope", "InstrumentationLibrary"}
	contextFields   = []string{"TraceID", "SpanID"}
	keyValueFields  = []string{"Key", "Value"}
	valueFields     = []string{"Type", "Value"}
	eventFields     = []string{"Name", "Attributes", "Time"}
	linkFields      = []string{"SpanContext", "Attributes"}
	statusFields    = []string{"Code", "Description"}
	scopeFields     = []string{"Name"}
	errFastPathMiss = errors.New("not for the fast path")
)

// parseFast reads line, or returns false if parseLine must.
func (tab *internTable) parseFast(line []byte) (Span, bool) {
	var s Span
	ok := tab.parseFastInto(line, &s)
	return s, ok
}

// parseFastInto reads line into *s (a zero Span), or leaves *s zero and
// returns false if parseLine must read it.
func (tab *internTable) parseFastInto(line []byte, s *Span) bool {
	fp := fastParser{b: line, tab: tab}
	if fp.layout(s) == nil {
		return true
	}
	*s = Span{}
	fp.p = 0
	if err := fp.span(s); err != nil {
		*s = Span{}
		return false
	}
	return true
}

// layout reads a line laid out exactly as Recorder and stdouttrace write
// it: every key in its place, no spaces. Comparing the keys as bytes is
// faster than reading them; any difference sends the line to span, which
// reads keys in any order. Values are read as span reads them.
func (fp *fastParser) layout(s *Span) error {
	lit := func(l string) bool {
		if len(fp.b)-fp.p >= len(l) && string(fp.b[fp.p:fp.p+len(l)]) == l {
			fp.p += len(l)
			return true
		}
		return false
	}
	// hex reads n hex digits and the closing quote.
	hex := func(n int, zeroOK bool) []byte {
		if len(fp.b)-fp.p < n+1 || fp.b[fp.p+n] != '"' {
			return nil
		}
		h := fp.b[fp.p : fp.p+n]
		if !isHex(h, n, zeroOK) {
			return nil
		}
		fp.p += n + 1
		return h
	}
	ignored := func(l string) bool { return lit(l) && fp.skip() }
	var err error
	s.StatusCode = "Unset"
	if !lit(`{"Name":`) {
		return errFastPathMiss
	}
	if s.Name, err = fp.internedString(); err != nil {
		return err
	}
	if !lit(`,"SpanContext":{"TraceID":"`) {
		return errFastPathMiss
	}
	traceID := hex(32, false)
	if traceID == nil || !lit(`,"SpanID":"`) {
		return errFastPathMiss
	}
	spanID := hex(16, false)
	if spanID == nil || !ignored(`,"TraceFlags":`) || !ignored(`,"TraceState":`) || !ignored(`,"Remote":`) ||
		!lit(`},"Parent":{"TraceID":"`) || hex(32, true) == nil || !lit(`,"SpanID":"`) {
		return errFastPathMiss
	}
	parentID := hex(16, true)
	if parentID == nil || !ignored(`,"TraceFlags":`) || !ignored(`,"TraceState":`) || !ignored(`,"Remote":`) ||
		!lit(`},"SpanKind":`) {
		return errFastPathMiss
	}
	var kind int64
	if kind, err = fp.integer(); err != nil || !lit(`,"StartTime":`) {
		return errFastPathMiss
	}
	s.Kind = int(kind)
	if s.Start, err = fp.time(); err != nil || !lit(`,"EndTime":`) {
		return errFastPathMiss
	}
	if s.End, err = fp.time(); err != nil || !lit(`,"Attributes":`) {
		return errFastPathMiss
	}
	if s.Attributes, err = fp.attributes(); err != nil || !lit(`,"Events":`) {
		return errFastPathMiss
	}
	if s.Events, err = fp.events(); err != nil || !lit(`,"Links":`) {
		return errFastPathMiss
	}
	if s.Links, err = fp.links(); err != nil || !lit(`,"Status":`) {
		return errFastPathMiss
	}
	if s.StatusCode, s.StatusDesc, err = fp.status(); err != nil ||
		!ignored(`,"DroppedAttributes":`) || !ignored(`,"DroppedEvents":`) || !ignored(`,"DroppedLinks":`) ||
		!ignored(`,"ChildSpanCount":`) || !lit(`,"Resource":`) {
		return errFastPathMiss
	}
	if s.Resource, err = fp.resource(); err != nil || !lit(`,"InstrumentationScope":`) {
		return errFastPathMiss
	}
	scope, err := fp.scope()
	if err != nil || !lit(`,"InstrumentationLibrary":`) {
		return errFastPathMiss
	}
	library, err := fp.scope()
	if err != nil || !lit("}") || fp.p != len(fp.b) {
		return errFastPathMiss
	}
	switch {
	case scope != "\x00":
		s.Scope = scope
	case library != "\x00":
		s.Scope = library
	}
	s.TraceID = fp.tab.str(traceID)
	if !isZero(parentID) {
		var buf [32]byte
		copy(buf[:16], spanID)
		copy(buf[16:], parentID)
		ids := string(buf[:])
		s.SpanID, s.ParentSpanID = ids[:16], ids[16:]
	} else {
		s.SpanID = string(spanID)
	}
	return nil
}

func (fp *fastParser) span(s *Span) error {
	var seen int
	var spanID, parentID []byte
	var scope, library string
	s.StatusCode = "Unset"
	err := fp.object(spanOrder, func(key []byte) error {
		var bit int
		var err error
		switch string(key) {
		case "Name":
			bit = fName
			s.Name, err = fp.internedString()
		case "SpanContext":
			bit = fSpanContext
			var traceID []byte
			traceID, spanID, err = fp.spanContext()
			if err == nil {
				if !isHex(traceID, 32, false) || !isHex(spanID, 16, false) {
					return errFastPathMiss
				}
				s.TraceID = fp.tab.str(traceID)
			}
		case "Parent":
			bit = fParent
			if fp.null() {
				break
			}
			var traceID, id []byte
			traceID, id, err = fp.spanContext()
			if err == nil && (len(traceID) > 0 || len(id) > 0) {
				if !isHex(traceID, 32, true) || !isHex(id, 16, true) {
					return errFastPathMiss
				}
				if !isZero(id) {
					parentID = id
				}
			}
		case "SpanKind":
			bit = fSpanKind
			var n int64
			n, err = fp.integer()
			s.Kind = int(n)
		case "StartTime":
			bit = fStartTime
			s.Start, err = fp.time()
		case "EndTime":
			bit = fEndTime
			s.End, err = fp.time()
		case "Attributes":
			bit = fAttributes
			s.Attributes, err = fp.attributes()
		case "Events":
			bit = fEvents
			s.Events, err = fp.events()
		case "Links":
			bit = fLinks
			s.Links, err = fp.links()
		case "Status":
			bit = fStatus
			s.StatusCode, s.StatusDesc, err = fp.status()
		case "Resource":
			bit = fResource
			s.Resource, err = fp.resource()
		case "InstrumentationScope":
			bit = fScope
			scope, err = fp.scope()
		case "InstrumentationLibrary":
			bit = fLibrary
			library, err = fp.scope()
		default:
			return fp.unknown(key, spanFields)
		}
		if seen&bit != 0 {
			return errFastPathMiss
		}
		seen |= bit
		return err
	})
	if err != nil {
		return err
	}
	fp.ws()
	const required = fName | fSpanContext | fStartTime | fEndTime
	if fp.p != len(fp.b) || seen&required != required {
		return errFastPathMiss
	}
	// One allocation for both IDs.
	if parentID != nil {
		var buf [32]byte
		copy(buf[:16], spanID)
		copy(buf[16:], parentID)
		ids := string(buf[:])
		s.SpanID, s.ParentSpanID = ids[:16], ids[16:]
	} else {
		s.SpanID = string(spanID)
	}
	switch {
	case seen&fScope != 0 && scope != "\x00":
		s.Scope = scope
	case seen&fLibrary != 0 && library != "\x00":
		s.Scope = library
	}
	return nil
}

// keyOrder lists the keys of an object in the order Recorder and
// stdouttrace write them, each as it appears in the line: "Key":.
type keyOrder [][]byte

func order(keys ...string) keyOrder {
	o := make(keyOrder, len(keys))
	for i, k := range keys {
		o[i] = []byte(`"` + k + `":`)
	}
	return o
}

// The keys of the objects of a span line, in the order they are written.
var (
	spanOrder     = order("Name", "SpanContext", "Parent", "SpanKind", "StartTime", "EndTime", "Attributes", "Events", "Links", "Status", "DroppedAttributes", "DroppedEvents", "DroppedLinks", "ChildSpanCount", "Resource", "InstrumentationScope", "InstrumentationLibrary")
	contextOrder  = order("TraceID", "SpanID", "TraceFlags", "TraceState", "Remote")
	keyValueOrder = order("Key", "Value")
	valueOrder    = order("Type", "Value")
	eventOrder    = order("Name", "Attributes", "DroppedAttributeCount", "Time")
	linkOrder     = order("SpanContext", "Attributes", "DroppedAttributeCount")
	statusOrder   = order("Code", "Description")
	scopeOrder    = order("Name", "Version", "SchemaURL", "Attributes")
)

// object reads a JSON object, calling field for each key with the
// position at the key's value; field must read the value. Keys in the
// expected order are recognised by comparing bytes, others are read.
func (fp *fastParser) object(keys keyOrder, field func(key []byte) error) error {
	if !fp.consume('{') {
		return errFastPathMiss
	}
	if fp.consume('}') {
		return nil
	}
	next := 0
	for {
		var key []byte
		if next < len(keys) && bytes.HasPrefix(fp.b[fp.p:], keys[next]) {
			k := keys[next]
			key = k[1 : len(k)-2]
			fp.p += len(k)
			next++
		} else {
			var ok bool
			if key, ok = fp.key(); !ok {
				return errFastPathMiss
			}
			next = len(keys) // out of order: read the rest
		}
		if err := field(key); err != nil {
			return err
		}
		if fp.consume(',') {
			continue
		}
		if fp.consume('}') {
			return nil
		}
		return errFastPathMiss
	}
}

// array reads a JSON array or null, calling elem for each element.
func (fp *fastParser) array(elem func() error) (null bool, err error) {
	if fp.null() {
		return true, nil
	}
	if !fp.consume('[') {
		return false, errFastPathMiss
	}
	if fp.consume(']') {
		return false, nil
	}
	for {
		if err := elem(); err != nil {
			return false, err
		}
		if fp.consume(',') {
			continue
		}
		if fp.consume(']') {
			return false, nil
		}
		return false, errFastPathMiss
	}
}

// unknown skips the value of a key the struct does not have, unless
// encoding/json would match it to one of fields regardless of case.
func (fp *fastParser) unknown(key []byte, fields []string) error {
	switch string(key) {
	case "TraceFlags", "TraceState", "Remote", "DroppedAttributes", "DroppedEvents", "DroppedLinks",
		"ChildSpanCount", "DroppedAttributeCount", "Version", "SchemaURL":
		// What stdouttrace writes and parseLine ignores; none of them
		// folds to a field name.
		if !fp.skip() {
			return errFastPathMiss
		}
		return nil
	}
	for _, c := range key {
		if c >= utf8.RuneSelf {
			return errFastPathMiss // encoding/json folds some non-ASCII letters
		}
	}
	for _, f := range fields {
		if len(f) == len(key) && strings.EqualFold(f, string(key)) {
			return errFastPathMiss
		}
	}
	if !fp.skip() {
		return errFastPathMiss
	}
	return nil
}

func (fp *fastParser) ws() {
	for fp.p < len(fp.b) {
		switch fp.b[fp.p] {
		case ' ', '\t', '\n', '\r':
			fp.p++
		default:
			return
		}
	}
}

func (fp *fastParser) consume(c byte) bool {
	fp.ws()
	if fp.p < len(fp.b) && fp.b[fp.p] == c {
		fp.p++
		return true
	}
	return false
}

func (fp *fastParser) null() bool {
	fp.ws()
	if bytes.HasPrefix(fp.b[fp.p:], []byte("null")) {
		fp.p += 4
		return true
	}
	return false
}

// key reads an object key without escapes, and the colon after it.
func (fp *fastParser) key() ([]byte, bool) {
	fp.ws()
	raw, escaped, ok := fp.rawString()
	if !ok || escaped || !fp.consume(':') {
		return nil, false
	}
	return raw, true
}

// rawString reads a JSON string and returns what is between its quotes,
// whether it has escape sequences or bytes that are not ASCII, and
// whether it is valid JSON.
func (fp *fastParser) rawString() (raw []byte, special, ok bool) {
	b := fp.b
	if fp.p >= len(b) || b[fp.p] != '"' {
		return nil, false, false
	}
	start := fp.p + 1
	i := start
	for {
		// 8 bytes at a time while none is a quote, a backslash, a control
		// character or non-ASCII.
		for i+8 <= len(b) && !special8(binary.LittleEndian.Uint64(b[i:])) {
			i += 8
		}
		if i >= len(b) {
			return nil, false, false
		}
		switch c := b[i]; {
		case c == '"':
			fp.p = i + 1
			return b[start:i], special, true
		case c == '\\':
			special = true
			if i+1 >= len(b) {
				return nil, false, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || !isHexAnyCase(b[i+2:i+6]) {
					return nil, false, false
				}
				i += 6
			default:
				return nil, false, false
			}
		case c < 0x20:
			return nil, false, false
		default:
			if c >= utf8.RuneSelf {
				special = true
			}
			i++
		}
	}
}

// special8 reports whether any of the 8 bytes packed in x is '"', '\\', a
// control character or non-ASCII. (Exact as a whole, not per byte.)
func special8(x uint64) bool {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	q := x ^ (lo * '"')
	s := x ^ (lo * '\\')
	return (x|(x-lo*0x20)&^x|(q-lo)&^q|(s-lo)&^s)&hi != 0
}

// stringValue reads a JSON string as encoding/json decodes it.
func (fp *fastParser) stringBytes() ([]byte, error) {
	fp.ws()
	start := fp.p
	raw, special, ok := fp.rawString()
	if !ok {
		return nil, errFastPathMiss
	}
	if !special || utf8.Valid(raw) && bytes.IndexByte(raw, '\\') < 0 {
		return raw, nil
	}
	// Escapes or invalid UTF-8: decode as encoding/json does.
	var s string
	if err := json.Unmarshal(fp.b[start:fp.p], &s); err != nil {
		return nil, errFastPathMiss
	}
	return []byte(s), nil
}

func (fp *fastParser) internedString() (string, error) {
	b, err := fp.stringBytes()
	if err != nil {
		return "", err
	}
	return fp.tab.str(b), nil
}

// spanContext reads {"TraceID":..., "SpanID":..., ...}; the IDs must be strings.
func (fp *fastParser) spanContext() (traceID, spanID []byte, err error) {
	var seen int
	err = fp.object(contextOrder, func(key []byte) error {
		var err error
		switch string(key) {
		case "TraceID":
			if seen&1 != 0 {
				return errFastPathMiss
			}
			seen |= 1
			traceID, err = fp.stringBytes()
		case "SpanID":
			if seen&2 != 0 {
				return errFastPathMiss
			}
			seen |= 2
			spanID, err = fp.stringBytes()
		default:
			return fp.unknown(key, contextFields)
		}
		return err
	})
	return traceID, spanID, err
}

// isHex reports whether b is n lower-case hex digits (all zeros only if zeroOK).
func isHex(b []byte, n int, zeroOK bool) bool {
	if len(b) != n {
		return false
	}
	var bad byte
	for _, c := range b {
		bad |= notLowerHex[c]
	}
	return bad == 0 && (zeroOK || !isZero(b))
}

// notLowerHex is 1 for the bytes that are not 0-9 or a-f.
var notLowerHex = func() (t [256]byte) {
	for c := range t {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			t[c] = 1
		}
	}
	return t
}()

func isHexAnyCase(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

func isZero(b []byte) bool {
	for _, c := range b {
		if c != '0' {
			return false
		}
	}
	return true
}

// integer reads a JSON integer that fits an int64.
func (fp *fastParser) integer() (int64, error) {
	tok, ok := fp.number()
	if !ok {
		return 0, errFastPathMiss
	}
	n, err := strconv.ParseInt(string(tok), 10, 64)
	if err != nil {
		return 0, errFastPathMiss
	}
	return n, nil
}

// number reads a JSON number token.
func (fp *fastParser) number() ([]byte, bool) {
	fp.ws()
	b, start := fp.b, fp.p
	i := start
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	default:
		return nil, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !isDigit(b[i]) {
			return nil, false
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return nil, false
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	fp.p = i
	return b[start:i], true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// skip reads any JSON value, checking that it is valid JSON.
func (fp *fastParser) skip() bool {
	fp.ws()
	if fp.p >= len(fp.b) {
		return false
	}
	switch c := fp.b[fp.p]; c {
	case '"':
		_, _, ok := fp.rawString()
		return ok
	case '{':
		return fp.object(nil, func([]byte) error {
			if !fp.skip() {
				return errFastPathMiss
			}
			return nil
		}) == nil
	case '[':
		_, err := fp.array(func() error {
			if !fp.skip() {
				return errFastPathMiss
			}
			return nil
		})
		return err == nil
	case 't', 'f', 'n':
		for _, lit := range []string{"true", "false", "null"} {
			if bytes.HasPrefix(fp.b[fp.p:], []byte(lit)) {
				fp.p += len(lit)
				return true
			}
		}
		return false
	default:
		_, ok := fp.number()
		return ok
	}
}

// time reads an RFC 3339 time in a JSON string, as parseTime does.
func (fp *fastParser) time() (time.Time, error) {
	b, err := fp.stringBytes()
	if err != nil {
		return time.Time{}, err
	}
	if t, ok := parseUTC(b); ok {
		return t, nil
	}
	var t time.Time
	if err := t.UnmarshalText(b); err != nil {
		return time.Time{}, errFastPathMiss
	}
	return t, nil
}

// parseUTC parses the common form "2006-01-02T15:04:05.999999999Z" as
// time.Time's UnmarshalText does, or returns false for anything else.
func parseUTC(b []byte) (time.Time, bool) {
	if len(b) < 20 || b[len(b)-1] != 'Z' || b[4] != '-' || b[7] != '-' || b[10] != 'T' || b[13] != ':' || b[16] != ':' {
		return time.Time{}, false
	}
	num := func(s []byte) int {
		n := 0
		for _, c := range s {
			if !isDigit(c) {
				return -1
			}
			n = n*10 + int(c-'0')
		}
		return n
	}
	year, month, day := num(b[0:4]), num(b[5:7]), num(b[8:10])
	hour, min, sec := num(b[11:13]), num(b[14:16]), num(b[17:19])
	if year < 0 || month < 1 || month > 12 || day < 1 || day > daysIn(month, year) ||
		hour < 0 || hour > 23 || min < 0 || min > 59 || sec < 0 || sec > 59 {
		return time.Time{}, false
	}
	nsec := 0
	if frac := b[19 : len(b)-1]; len(frac) > 0 {
		if len(frac) < 2 || len(frac) > 10 || frac[0] != '.' {
			return time.Time{}, false
		}
		digits := frac[1:]
		n := num(digits)
		if n < 0 {
			return time.Time{}, false
		}
		for range 9 - len(digits) {
			n *= 10
		}
		nsec = n
	}
	return time.Date(year, time.Month(month), day, hour, min, sec, nsec, time.UTC), true
}

func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// attributes reads a list of {"Key":...,"Value":{"Type":...,"Value":...}}.
//
// Lists whose values are all strings and booleans (a call's object key, a
// causal link's attributes, a watch event's type) repeat from span to span:
// spans with the same list share its map.
func (fp *fastParser) attributes() (Attributes, error) {
	fp.ws()
	start := fp.p
	pairs := fp.tab.pairs[:0]
	shareable := true
	_, err := fp.array(func() error {
		var key string
		var value any
		var seen int
		err := fp.object(keyValueOrder, func(k []byte) error {
			var err error
			switch string(k) {
			case "Key":
				if seen&1 != 0 {
					return errFastPathMiss
				}
				seen |= 1
				key, err = fp.internedString()
			case "Value":
				if seen&2 != 0 {
					return errFastPathMiss
				}
				seen |= 2
				value, err = fp.value()
			default:
				return fp.unknown(k, keyValueFields)
			}
			return err
		})
		if err != nil || seen != 3 {
			return errFastPathMiss
		}
		switch value.(type) {
		case string, bool:
		default:
			shareable = false
		}
		pairs = append(pairs, keyValue{key, value})
		return nil
	})
	fp.tab.pairs = pairs[:0]
	if err != nil || len(pairs) == 0 {
		return nil, err
	}
	var text []byte
	if shareable {
		text = fp.b[start:fp.p]
		if a, ok := fp.tab.lists[string(text)]; ok {
			return a, nil
		}
	}
	a := make(Attributes, len(pairs))
	for _, kv := range pairs {
		a[kv.key] = kv.value
	}
	if shareable && len(text) <= maxSharedList && len(fp.tab.lists) < maxInterned {
		fp.tab.lists[string(text)] = a
	}
	return a, nil
}

// keyValue is an attribute read, before it goes into a map.
type keyValue struct {
	key   string
	value any
}

// maxSharedList is the longest attribute list (as text) spans share.
const maxSharedList = 512

// value reads {"Type":...,"Value":...} of the four common types.
func (fp *fastParser) value() (any, error) {
	var typ []byte
	var raw []byte
	var seen int
	err := fp.object(valueOrder, func(k []byte) error {
		switch string(k) {
		case "Type":
			if seen&1 != 0 {
				return errFastPathMiss
			}
			seen |= 1
			fp.ws()
			t, escaped, ok := fp.rawString()
			if !ok || escaped {
				return errFastPathMiss
			}
			typ = t
		case "Value":
			if seen&2 != 0 {
				return errFastPathMiss
			}
			seen |= 2
			fp.ws()
			start := fp.p
			if !fp.skip() {
				return errFastPathMiss
			}
			raw = fp.b[start:fp.p]
		default:
			return fp.unknown(k, valueFields)
		}
		return nil
	})
	if err != nil || seen != 3 {
		return nil, errFastPathMiss
	}
	switch string(typ) {
	case "STRING":
		sub := fastParser{b: raw, tab: fp.tab}
		b, err := sub.stringBytes()
		if err != nil || sub.p != len(raw) {
			return nil, errFastPathMiss
		}
		return fp.tab.strValue(b), nil
	case "INT64":
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil {
			return nil, errFastPathMiss
		}
		return fp.tab.intValue(n), nil
	case "FLOAT64":
		f, ok := parseFloat(raw)
		if !ok {
			return nil, errFastPathMiss
		}
		return fp.tab.floatValue(f), nil
	case "BOOL":
		switch string(raw) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
	}
	return nil, errFastPathMiss
}

// resource reads the Resource list; spans with the same resource text
// share one map.
func (fp *fastParser) resource() (Attributes, error) {
	fp.ws()
	start := fp.p
	// Spans of one resource come in runs: compare with the last ones
	// first (a complete JSON value that is a prefix of the rest of the
	// line is the value there).
	for i := range fp.tab.recent {
		if r := &fp.tab.recent[i]; len(r.text) > 0 && bytes.HasPrefix(fp.b[start:], r.text) {
			fp.p += len(r.text)
			return r.attrs, nil
		}
	}
	if !fp.skip() {
		return nil, errFastPathMiss
	}
	text := fp.b[start:fp.p]
	if a, ok := fp.tab.resources[string(text)]; ok {
		fp.tab.remember(text, a)
		return a, nil
	}
	sub := fastParser{b: text, tab: fp.tab}
	a, err := sub.attributes()
	if err != nil || sub.p != len(text) {
		return nil, errFastPathMiss
	}
	if len(fp.tab.resources) < maxResources {
		fp.tab.resources[string(text)] = a
	}
	fp.tab.remember(text, a)
	return a, nil
}

// recentResource is a resource's text and map.
type recentResource struct {
	text  []byte
	attrs Attributes
}

// remember makes a resource the most recent one.
func (t *internTable) remember(text []byte, a Attributes) {
	copy(t.recent[1:], t.recent[:len(t.recent)-1])
	t.recent[0] = recentResource{text: bytes.Clone(text), attrs: a}
}

// events reads the Events list.
func (fp *fastParser) events() ([]Event, error) {
	var evs []Event
	_, err := fp.array(func() error {
		var ev Event
		var seen int
		err := fp.object(eventOrder, func(k []byte) error {
			var err error
			var bit int
			switch string(k) {
			case "Name":
				bit = 1
				ev.Name, err = fp.internedString()
			case "Attributes":
				bit = 2
				ev.Attributes, err = fp.attributes()
			case "Time":
				bit = 4
				ev.Time, err = fp.time()
			default:
				return fp.unknown(k, eventFields)
			}
			if seen&bit != 0 {
				return errFastPathMiss
			}
			seen |= bit
			return err
		})
		if err != nil || seen&4 == 0 {
			return errFastPathMiss
		}
		evs = append(evs, ev)
		return nil
	})
	if len(evs) == 0 {
		evs = nil
	}
	return evs, err
}

// links reads the Links list.
func (fp *fastParser) links() ([]Link, error) {
	var links []Link
	_, err := fp.array(func() error {
		var l Link
		var seen int
		err := fp.object(linkOrder, func(k []byte) error {
			var err error
			switch string(k) {
			case "SpanContext":
				if seen&1 != 0 {
					return errFastPathMiss
				}
				seen |= 1
				var traceID, spanID []byte
				traceID, spanID, err = fp.spanContext()
				if err == nil {
					if !isHex(traceID, 32, true) || !isHex(spanID, 16, true) {
						return errFastPathMiss
					}
					l.TraceID, l.SpanID = fp.tab.str(traceID), string(spanID)
				}
			case "Attributes":
				if seen&2 != 0 {
					return errFastPathMiss
				}
				seen |= 2
				l.Attributes, err = fp.attributes()
			default:
				return fp.unknown(k, linkFields)
			}
			return err
		})
		if err != nil || seen&1 == 0 {
			return errFastPathMiss
		}
		links = append(links, l)
		return nil
	})
	if len(links) == 0 {
		links = nil
	}
	return links, err
}

// status reads {"Code":...,"Description":...} or null.
func (fp *fastParser) status() (code, desc string, err error) {
	code = "Unset"
	if fp.null() {
		return code, "", nil
	}
	var seen int
	err = fp.object(statusOrder, func(k []byte) error {
		switch string(k) {
		case "Code":
			if seen&1 != 0 {
				return errFastPathMiss
			}
			seen |= 1
			fp.ws()
			start := fp.p
			if !fp.skip() {
				return errFastPathMiss
			}
			switch raw := fp.b[start:fp.p]; string(raw) {
			case `"Unset"`:
				code = "Unset"
			case `"Error"`:
				code = "Error"
			case `"Ok"`:
				code = "Ok"
			default:
				c, err := statusCode(raw)
				if err != nil {
					return errFastPathMiss
				}
				code = c
			}
		case "Description":
			if seen&2 != 0 {
				return errFastPathMiss
			}
			seen |= 2
			d, err := fp.stringBytes()
			if err != nil {
				return err
			}
			desc = fp.tab.str(d)
		default:
			return fp.unknown(k, statusFields)
		}
		return nil
	})
	return code, desc, err
}

// scope reads {"Name":...} or null ("\x00": null, as parseLine tells a
// missing scope from an empty name).
func (fp *fastParser) scope() (string, error) {
	if fp.null() {
		return "\x00", nil
	}
	start := fp.p
	for _, r := range fp.tab.scopes {
		if len(r.text) > 0 && bytes.HasPrefix(fp.b[start:], r.text) {
			fp.p += len(r.text)
			return r.name, nil
		}
	}
	name, err := fp.scopeObject()
	if err == nil {
		sc := &fp.tab.scopes
		sc[1] = sc[0]
		sc[0] = recentScope{text: bytes.Clone(fp.b[start:fp.p]), name: name}
	}
	return name, err
}

func (fp *fastParser) scopeObject() (string, error) {
	name := ""
	seenName := false
	err := fp.object(scopeOrder, func(k []byte) error {
		if string(k) == "Name" {
			if seenName {
				return errFastPathMiss
			}
			seenName = true
			var err error
			name, err = fp.internedString()
			return err
		}
		return fp.unknown(k, scopeFields)
	})
	return name, err
}
