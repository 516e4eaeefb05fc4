package traces

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// Recorder is an OpenTelemetry span exporter that writes a kubeloom trace
// file: one span per line, each line exactly the JSON object that the
// go.opentelemetry.io/otel/exporters/stdout/stdouttrace exporter (default
// options) writes for that span, so that any reader of stdouttrace output
// reads a recording and vice versa.
//
// Unlike stdouttrace it encodes by hand into a reused buffer: no reflection,
// and no allocations per span in the steady state (slice-typed attribute
// values aside, which the attribute package copies out). Resources and
// instrumentation scopes are encoded once and reused. Each ExportSpans call writes
// its spans to the underlying writer as whole lines before it returns, so a
// crash loses at most the batch in flight and a clean stop never leaves half
// a line in the file. A writer that buffers (a CompressedWriter, a
// bufio.Writer) is flushed at the end of each call for the same reason.
//
// A Recorder is safe for concurrent use.
type Recorder struct {
	mu      sync.Mutex
	w       io.Writer
	flusher interface{ Flush() error } // w, if it buffers
	buf     []byte
	err     error // sticky write error
	stopped bool
	spans   atomic.Int64

	// Resources and scopes are shared by all spans of a tracer provider and
	// a tracer: their JSON is encoded once and copied afterwards.
	lastRes   *resource.Resource
	lastResJS []byte
	resources map[*resource.Resource][]byte
	lastScope instrumentation.Scope
	lastScJS  []byte
	scopes    map[instrumentation.Scope][]byte

	times timeCache
}

var _ sdktrace.SpanExporter = (*Recorder)(nil)

const (
	// initialBufSize is the buffer a Recorder starts with.
	initialBufSize = writeThreshold + 16<<10
	// writeThreshold: within one ExportSpans call the buffered lines are
	// written out whenever they reach this size. Chunks of this size, written
	// while still in the CPU cache, cost less than one big write per batch
	// (measured: 16 KiB to 4 MiB), and bound the buffer.
	writeThreshold = 256 << 10
	// maxRetainedBuf: a buffer that grew beyond this for an unusual batch is
	// not kept for the next one.
	maxRetainedBuf = 2 * writeThreshold
	// maxCacheEntries bounds the resource and scope caches (kubeloom has a
	// tracer provider, so a resource, per simulated instance).
	maxCacheEntries = 4096
)

// errShutdown is returned by ExportSpans after Shutdown.
var errShutdown = errors.New("traces: Recorder: ExportSpans called after Shutdown")

// NewRecorder returns a Recorder that writes spans to w. The Recorder never
// closes w.
func NewRecorder(w io.Writer) *Recorder {
	r := &Recorder{w: w, buf: make([]byte, 0, initialBufSize)}
	r.flusher, _ = w.(interface{ Flush() error })
	return r
}

// ExportSpans writes spans, one line each, and returns once they are written
// to the underlying writer. A span that cannot be encoded (a timestamp
// outside the years 0–9999, an unknown status code) is left out and
// reported in the returned error; the other spans are written. After a write
// error, ExportSpans writes nothing more and returns that error.
func (r *Recorder) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return r.err
	}
	if r.stopped {
		return errShutdown
	}
	var encErr error
	pending := 0
	for i, s := range spans {
		if s == nil {
			encErr = errors.Join(encErr, fmt.Errorf("traces: span %d of the batch is nil", i))
			continue
		}
		mark := len(r.buf)
		var err error
		r.buf, err = r.appendSpan(r.buf, s)
		if err != nil {
			r.buf = r.buf[:mark]
			encErr = errors.Join(encErr, fmt.Errorf("traces: span %d of the batch (%q) not recorded: %w", i, s.Name(), err))
			continue
		}
		pending++
		if len(r.buf) >= writeThreshold {
			if err := r.write(pending); err != nil {
				return errors.Join(encErr, err)
			}
			pending = 0
		}
	}
	if err := r.write(pending); err != nil {
		return errors.Join(encErr, err)
	}
	if r.flusher != nil {
		if err := r.flusher.Flush(); err != nil {
			r.err = fmt.Errorf("traces: writing the trace file: %w", err)
			return errors.Join(encErr, r.err)
		}
	}
	return encErr
}

// write writes the buffered lines (pending spans) to w. r.mu is held.
func (r *Recorder) write(pending int) error {
	if len(r.buf) == 0 {
		return nil
	}
	n, err := r.w.Write(r.buf)
	if err == nil && n < len(r.buf) {
		err = io.ErrShortWrite
	}
	if err != nil {
		r.err = fmt.Errorf("traces: writing the trace file: %w", err)
		r.buf = r.buf[:0]
		return r.err
	}
	r.spans.Add(int64(pending))
	if cap(r.buf) > maxRetainedBuf {
		r.buf = make([]byte, 0, initialBufSize)
	} else {
		r.buf = r.buf[:0]
	}
	return nil
}

// Flush returns the first write error, if any. Every ExportSpans call has
// already written its lines before returning, so nothing is held back; Flush
// exists so that callers can treat the Recorder like a buffered writer.
func (r *Recorder) Flush() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// Shutdown flushes the Recorder and stops it: later ExportSpans calls return
// an error. It does not close the underlying writer. It returns the first
// write error, if any.
func (r *Recorder) Shutdown(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopped = true
	r.resources, r.scopes, r.lastRes, r.lastResJS, r.lastScJS = nil, nil, nil, nil, nil
	r.lastScope = instrumentation.Scope{}
	return r.err
}

// Spans returns the number of spans written to the underlying writer so far.
func (r *Recorder) Spans() int64 { return r.spans.Load() }

// appendSpan appends the stdouttrace JSON line of s to b. On error the
// returned slice must be truncated by the caller.
func (r *Recorder) appendSpan(b []byte, s sdktrace.ReadOnlySpan) ([]byte, error) {
	var err error
	b = append(b, `{"Name":`...)
	b = appendString(b, s.Name())
	b = append(b, `,"SpanContext":`...)
	b = appendSpanContext(b, s.SpanContext())
	b = append(b, `,"Parent":`...)
	b = appendSpanContext(b, s.Parent())
	b = append(b, `,"SpanKind":`...)
	b = strconv.AppendInt(b, int64(s.SpanKind()), 10)
	b = append(b, `,"StartTime":`...)
	if b, err = r.times.append(b, s.StartTime()); err != nil {
		return b, fmt.Errorf("StartTime: %w", err)
	}
	b = append(b, `,"EndTime":`...)
	if b, err = r.times.append(b, s.EndTime()); err != nil {
		return b, fmt.Errorf("EndTime: %w", err)
	}
	b = append(b, `,"Attributes":`...)
	b = appendKeyValues(b, s.Attributes())

	b = append(b, `,"Events":`...)
	if events := s.Events(); events == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range events {
			ev := &events[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"Name":`...)
			b = appendString(b, ev.Name)
			b = append(b, `,"Attributes":`...)
			b = appendKeyValues(b, ev.Attributes)
			b = append(b, `,"DroppedAttributeCount":`...)
			b = strconv.AppendInt(b, int64(ev.DroppedAttributeCount), 10)
			b = append(b, `,"Time":`...)
			if b, err = r.times.append(b, ev.Time); err != nil {
				return b, fmt.Errorf("Events[%d].Time: %w", i, err)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}

	b = append(b, `,"Links":`...)
	if links := s.Links(); links == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range links {
			l := &links[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"SpanContext":`...)
			b = appendSpanContext(b, l.SpanContext)
			b = append(b, `,"Attributes":`...)
			b = appendKeyValues(b, l.Attributes)
			b = append(b, `,"DroppedAttributeCount":`...)
			b = strconv.AppendInt(b, int64(l.DroppedAttributeCount), 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}

	st := s.Status()
	b = append(b, `,"Status":{"Code":`...)
	switch st.Code {
	case codes.Unset:
		b = append(b, `"Unset"`...)
	case codes.Error:
		b = append(b, `"Error"`...)
	case codes.Ok:
		b = append(b, `"Ok"`...)
	default:
		return b, fmt.Errorf("Status.Code: invalid code: %d", st.Code)
	}
	b = append(b, `,"Description":`...)
	b = appendString(b, st.Description)
	b = append(b, `},"DroppedAttributes":`...)
	b = strconv.AppendInt(b, int64(s.DroppedAttributes()), 10)
	b = append(b, `,"DroppedEvents":`...)
	b = strconv.AppendInt(b, int64(s.DroppedEvents()), 10)
	b = append(b, `,"DroppedLinks":`...)
	b = strconv.AppendInt(b, int64(s.DroppedLinks()), 10)
	b = append(b, `,"ChildSpanCount":`...)
	b = strconv.AppendInt(b, int64(s.ChildSpanCount()), 10)
	b = append(b, `,"Resource":`...)
	b = append(b, r.resourceJSON(s.Resource())...)
	scope := r.scopeJSON(s.InstrumentationScope())
	b = append(b, `,"InstrumentationScope":`...)
	b = append(b, scope...)
	b = append(b, `,"InstrumentationLibrary":`...)
	b = append(b, scope...)
	b = append(b, "}\n"...)
	return b, nil
}

// resourceJSON returns the cached JSON of res (the resource's attribute set,
// as resource.Resource.MarshalJSON writes it).
func (r *Recorder) resourceJSON(res *resource.Resource) []byte {
	if res == r.lastRes && r.lastResJS != nil {
		return r.lastResJS
	}
	enc, ok := r.resources[res]
	if !ok {
		if r.resources == nil || len(r.resources) >= maxCacheEntries {
			r.resources = make(map[*resource.Resource][]byte)
		}
		enc = appendSet(nil, res.Set())
		r.resources[res] = enc
	}
	r.lastRes, r.lastResJS = res, enc
	return enc
}

// scopeJSON returns the cached JSON of the instrumentation scope sc.
func (r *Recorder) scopeJSON(sc instrumentation.Scope) []byte {
	if r.lastScJS != nil && sc == r.lastScope {
		return r.lastScJS
	}
	enc, ok := r.scopes[sc]
	if !ok {
		if r.scopes == nil || len(r.scopes) >= maxCacheEntries {
			r.scopes = make(map[instrumentation.Scope][]byte)
		}
		enc = append([]byte(nil), `{"Name":`...)
		enc = appendString(enc, sc.Name)
		enc = append(enc, `,"Version":`...)
		enc = appendString(enc, sc.Version)
		enc = append(enc, `,"SchemaURL":`...)
		enc = appendString(enc, sc.SchemaURL)
		enc = append(enc, `,"Attributes":`...)
		enc = appendSet(enc, &sc.Attributes)
		enc = append(enc, '}')
		r.scopes[sc] = enc
	}
	r.lastScope, r.lastScJS = sc, enc
	return enc
}

const hexDigits = "0123456789abcdef"

// appendSpanContext appends sc as trace.SpanContext.MarshalJSON writes it.
func appendSpanContext(b []byte, sc trace.SpanContext) []byte {
	const (
		p1 = `{"TraceID":"`
		p2 = `","SpanID":"`
		p3 = `","TraceFlags":"`
		p4 = `","TraceState":`
		n  = len(p1) + 32 + len(p2) + 16 + len(p3) + 2 + len(p4)
	)
	tid := sc.TraceID()
	sid := sc.SpanID()
	f := sc.TraceFlags()
	b = slices.Grow(b, n)
	o := len(b)
	b = b[:o+n]
	out := b[o : o+n]
	copy(out, p1)
	hex.Encode(out[len(p1):len(p1)+32], tid[:])
	copy(out[len(p1)+32:], p2)
	hex.Encode(out[len(p1)+32+len(p2):len(p1)+32+len(p2)+16], sid[:])
	copy(out[len(p1)+32+len(p2)+16:], p3)
	out[n-len(p4)-2] = hexDigits[f>>4]
	out[n-len(p4)-1] = hexDigits[f&0xf]
	copy(out[n-len(p4):], p4)
	if ts := sc.TraceState(); ts.Len() == 0 {
		b = append(b, `""`...)
	} else {
		b = appendString(b, ts.String())
	}
	if sc.IsRemote() {
		b = append(b, `,"Remote":true}`...)
	} else {
		b = append(b, `,"Remote":false}`...)
	}
	return b
}

// hexEncode writes the lower-case hex digits of src to dst (2*len(src) bytes).
// timeCache formats times as time.Time.MarshalJSON does, reusing the date,
// clock and zone text of the last time formatted when the next one falls in
// the same second of the same location (spans that follow each other
// usually do): only the fraction of a second is formatted anew.
type timeCache struct {
	sec   int64
	loc   *time.Location
	valid bool
	head  [32]byte // `"2006-01-02T15:04:05`
	nhead int
	zone  [16]byte // `Z"` or `+05:30"`
	nzone int
}

// append appends t as time.Time.MarshalJSON writes it (RFC 3339 with
// nanoseconds, trailing zeros removed, in quotes), or returns the same error.
func (c *timeCache) append(b []byte, t time.Time) ([]byte, error) {
	sec, loc := t.Unix(), t.Location()
	if c.valid && sec == c.sec && loc == c.loc {
		b = append(b, c.head[:c.nhead]...)
		b = appendFraction(b, t.Nanosecond())
		return append(b, c.zone[:c.nzone]...), nil
	}
	mark := len(b)
	b = append(b, '"')
	out, err := t.AppendText(b)
	if err != nil {
		c.valid = false
		return b[:mark], err
	}
	out = append(out, '"')
	// A valid RFC 3339 text has a 4-digit year: the head is 1+19 bytes.
	text := out[mark:]
	const headLen = len(`"2006-01-02T15:04:05`)
	zone := headLen
	if len(text) > zone && text[zone] == '.' {
		zone++
		for zone < len(text) && '0' <= text[zone] && text[zone] <= '9' {
			zone++
		}
	}
	if len(text) >= headLen && len(text)-zone <= len(c.zone) {
		c.sec, c.loc, c.valid = sec, loc, true
		c.nhead = copy(c.head[:], text[:headLen])
		c.nzone = copy(c.zone[:], text[zone:])
	}
	return out, nil
}

// appendFraction appends the fraction of a second as RFC3339Nano does:
// nothing for 0, else a dot and up to 9 digits without trailing zeros.
func appendFraction(b []byte, ns int) []byte {
	if ns == 0 {
		return b
	}
	var d [10]byte
	d[0] = '.'
	for i := 9; i >= 1; i-- {
		d[i] = byte('0' + ns%10)
		ns /= 10
	}
	n := 10
	for d[n-1] == '0' {
		n--
	}
	return append(b, d[:n]...)
}

// appendSet appends an attribute set as attribute.Set.MarshalJSON writes it:
// null for the zero Set, else a JSON array of key-values.
func appendSet(b []byte, s *attribute.Set) []byte {
	if *s == (attribute.Set{}) {
		return append(b, "null"...)
	}
	b = append(b, '[')
	n := s.Len()
	for i := 0; i < n; i++ {
		kv, _ := s.Get(i)
		if i > 0 {
			b = append(b, ',')
		}
		b = appendKeyValue(b, &kv)
	}
	return append(b, ']')
}

// appendKeyValues appends kvs as encoding/json writes a []attribute.KeyValue.
func appendKeyValues(b []byte, kvs []attribute.KeyValue) []byte {
	if kvs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range kvs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendKeyValue(b, &kvs[i])
	}
	return append(b, ']')
}

func appendKeyValue(b []byte, kv *attribute.KeyValue) []byte {
	b = append(b, `{"Key":`...)
	b = appendString(b, string(kv.Key))
	b = append(b, `,"Value":`...)
	b = appendValue(b, &kv.Value)
	return append(b, '}')
}

// appendValue appends v as attribute.Value.MarshalJSON writes it:
// {"Type":"STRING","Value":...}.
//
// One deliberate difference: attribute.Value.MarshalJSON fails on NaN and
// ±Inf floats (encoding/json rejects them), which makes stdouttrace drop the
// whole span. The Recorder keeps the span and writes such a float as the
// JSON string "NaN", "Infinity" or "-Infinity", as the attribute package's
// own non-OTLP JSON form does; Read turns them back into floats.
func appendValue(b []byte, v *attribute.Value) []byte {
	switch v.Type() {
	case attribute.BOOL:
		if v.AsBool() {
			return append(b, `{"Type":"BOOL","Value":true}`...)
		}
		return append(b, `{"Type":"BOOL","Value":false}`...)
	case attribute.INT64:
		b = append(b, `{"Type":"INT64","Value":`...)
		b = strconv.AppendInt(b, v.AsInt64(), 10)
	case attribute.FLOAT64:
		b = append(b, `{"Type":"FLOAT64","Value":`...)
		b = appendFloat(b, v.AsFloat64())
	case attribute.STRING:
		b = append(b, `{"Type":"STRING","Value":`...)
		b = appendString(b, v.AsString())
	case attribute.BOOLSLICE:
		b = append(b, `{"Type":"BOOLSLICE","Value":`...)
		b = appendSlice(b, v.AsBoolSlice(), strconv.AppendBool)
	case attribute.INT64SLICE:
		b = append(b, `{"Type":"INT64SLICE","Value":`...)
		b = appendSlice(b, v.AsInt64Slice(), appendInt64)
	case attribute.FLOAT64SLICE:
		b = append(b, `{"Type":"FLOAT64SLICE","Value":`...)
		b = appendSlice(b, v.AsFloat64Slice(), appendFloat)
	case attribute.STRINGSLICE:
		b = append(b, `{"Type":"STRINGSLICE","Value":`...)
		b = appendSlice(b, v.AsStringSlice(), appendString)
	case attribute.BYTESLICE:
		// encoding/json writes a []byte as a base64 string (standard
		// encoding, padded).
		b = append(b, `{"Type":"BYTESLICE","Value":"`...)
		b = base64.StdEncoding.AppendEncode(b, []byte(v.AsString()))
		b = append(b, '"')
	case attribute.SLICE:
		b = append(b, `{"Type":"SLICE","Value":`...)
		s := v.AsSlice()
		if s == nil {
			b = append(b, "null"...)
			break
		}
		b = append(b, '[')
		for i, x := range s {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendValue(b, &x)
		}
		b = append(b, ']')
	case attribute.MAP:
		b = append(b, `{"Type":"MAP","Value":`...)
		b = appendKeyValues(b, v.AsMap())
	case attribute.EMPTY:
		return append(b, `{"Type":"EMPTY","Value":null}`...)
	default:
		// attribute.Value.AsInterface returns an unexported empty struct
		// for a type it does not know, which encoding/json writes as {}.
		b = append(b, `{"Type":`...)
		b = appendString(b, v.Type().String())
		b = append(b, `,"Value":{}`...)
	}
	return append(b, '}')
}

// appendFloat appends f as encoding/json's float64 encoder writes it
// (ES6 number formatting), and NaN/±Inf as strings (see appendValue).
func appendFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(b, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(b, `"-Infinity"`...)
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e15 && (f != 0 || !math.Signbit(f)) {
		// An integral value: 'f' with the shortest precision writes it as
		// the integer it is (-0 is left to AppendFloat, which writes "-0").
		return strconv.AppendInt(b, int64(f), 10)
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// htmlSafe[c] is true for the ASCII bytes encoding/json copies unescaped
// into a string when HTML escaping is on (the default, and what
// json.Marshal and json.Encoder do): all but control characters, '"', '\\',
// '<', '>' and '&'.
var htmlSafe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = true
	}
	t['"'], t['\\'], t['<'], t['>'], t['&'] = false, false, false, false, false
	return t
}()

// appendString appends s as a JSON string exactly as encoding/json writes it
// with HTML escaping: \" \\ \b \f \n \r \t, other control characters and
// <, >, & as \u00XX, U+2028 and U+2029 as \u2028 and \u2029, and each byte of
// invalid UTF-8 as \ufffd.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	i := 0
	// Skip 8 bytes at a time while they are all ASCII that needs no escaping;
	// the last 8 bytes (which may overlap those already checked) finish the
	// string.
	if len(s) >= 8 {
		for ; i+8 <= len(s); i += 8 {
			if needsEscape8(load8(s[i:])) {
				break
			}
		}
		if i+8 > len(s) && !needsEscape8(load8(s[len(s)-8:])) {
			i = len(s)
		}
	}
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if htmlSafe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// load8 returns the first 8 bytes of s as a little-endian uint64 (the
// compiler turns this into one load).
func load8(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// needsEscape8 reports whether any of the 8 bytes packed in x is not
// htmlSafe ASCII: a control character, '"', '\\', '<', '>', '&' or a byte
// of a multi-byte UTF-8 sequence. (The bit tricks are exact as a whole,
// though not per byte, which is all this needs.)
func needsEscape8(x uint64) bool {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	q := (x | lo*0x04) ^ (lo * 0x26) // a zero byte where x has '"' (0x22) or '&' (0x26)
	a := (x | lo*0x02) ^ (lo * 0x3e) // where x has '<' (0x3c) or '>' (0x3e)
	s := x ^ (lo * '\\')             // where x has '\\'
	return (x|(x-lo*0x20)&^x|(q-lo)&^q|(a-lo)&^a|(s-lo)&^s)&hi != 0
}

// appendSlice appends s as a JSON array (null for a nil slice, as
// encoding/json writes it), each element by appendElem.
func appendSlice[T any](b []byte, s []T, appendElem func([]byte, T) []byte) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendElem(b, x)
	}
	return append(b, ']')
}

func appendInt64(b []byte, n int64) []byte { return strconv.AppendInt(b, n, 10) }
