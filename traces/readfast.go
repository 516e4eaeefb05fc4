package traces

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The fast path. Almost every line of a recording is a span exactly as the
// Recorder writes it. fastParser reads such lines without reflection,
// straight into a Span, sharing the strings that repeat (attribute keys,
// span names, trace IDs, goroutine names) and the Resource map of the spans
// of one resource. It accepts only what it can read exactly as parseLine
// would, and gives up on anything else (escape sequences in keys,
// duplicate keys, keys encoding/json would match case-insensitively,
// attribute types other than STRING, INT64, FLOAT64, BOOL and STRINGSLICE,
// null where a value is expected, any error): parseLine then reads the
// line, and explains what is wrong with it.
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
	resources map[string]recentResource // by the JSON text of the Resource
	recent    [4]recentResource         // the last resources seen, most recent first
	scopes    [2]recentScope            // the last scope objects seen
	lists     map[string]Attributes     // attribute lists of strings and booleans, by their text
	trimmed   map[string]Attributes     // the same, of the attributes keep keeps
	pairs     []keyValue                // scratch space for attributes
	keep      keeper                    // what of a span to keep
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

func newInternTable(keep keeper) *internTable {
	return &internTable{
		keep:      keep,
		strs:      make(map[string]string, 256),
		vals:      make(map[string]any, 256),
		floats:    map[uint64]any{},
		resources: map[string]recentResource{},
		lists:     map[string]Attributes{},
		trimmed:   map[string]Attributes{},
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
	s.TraceID = traceIDOf(traceID)
	s.SpanID = spanIDOf(spanID)
	s.ParentSpanID = spanIDOf(parentID)
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
				s.TraceID = traceIDOf(traceID)
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
	s.SpanID = spanIDOf(spanID)
	if parentID != nil {
		s.ParentSpanID = spanIDOf(parentID)
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
// Lists whose values are all strings, lists of strings and booleans (a
// call's object key, a causal link's attributes, a watch event's type, a
// kubelet's pods) repeat from span to span: spans with the same list share
// its map.
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
		if !fp.tab.keep.keeps(key) {
			return nil
		}
		switch value.(type) {
		case string, bool, []string:
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
	lists := fp.tab.lists
	if fp.tab.keep.keys != nil {
		lists = fp.tab.trimmed // the same text, fewer attributes
	}
	if shareable {
		text = fp.b[start:fp.p]
		if a, ok := lists[string(text)]; ok {
			return a, nil
		}
	}
	a := make(Attributes, len(pairs))
	for _, kv := range pairs {
		a[kv.key] = kv.value
	}
	if shareable && len(text) <= maxSharedList && len(lists) < maxInterned {
		lists[string(text)] = a
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
	case "STRINGSLICE":
		return fp.stringSlice(raw)
	}
	return nil, errFastPathMiss
}

// stringSlice reads the value of a STRINGSLICE attribute, an array of
// strings, as parseLine does (an empty array is an empty slice). It leaves
// null, and arrays with null or other values in them, to parseLine.
func (fp *fastParser) stringSlice(raw []byte) (any, error) {
	sub := fastParser{b: raw, tab: fp.tab}
	if sub.null() {
		return nil, errFastPathMiss
	}
	n := bytes.Count(raw, []byte{','}) + 1 // at least the elements
	list := make([]string, 0, n)
	_, err := sub.array(func() error {
		b, err := sub.stringBytes()
		if err != nil {
			return err
		}
		list = append(list, sub.tab.str(b))
		return nil
	})
	if err != nil || sub.p != len(raw) {
		return nil, errFastPathMiss
	}
	return list, nil
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
	if r, ok := fp.tab.resources[string(text)]; ok {
		fp.tab.remember(r)
		return r.attrs, nil
	}
	sub := fastParser{b: text, tab: fp.tab}
	keys := fp.tab.keep.keys
	fp.tab.keep.keys = nil // a resource is kept whole
	a, err := sub.attributes()
	fp.tab.keep.keys = keys
	if err != nil || sub.p != len(text) {
		return nil, errFastPathMiss
	}
	r := recentResource{text: bytes.Clone(text), attrs: a}
	if len(fp.tab.resources) < maxResources {
		fp.tab.resources[string(text)] = r
	}
	fp.tab.remember(r)
	return a, nil
}

// recentResource is a resource's text and map.
type recentResource struct {
	text  []byte
	attrs Attributes
}

// remember makes a resource the most recent one. The text is the table's
// own copy: a recording of a hundred kubelets switches resource at almost
// every line, and a copy each time would be a third of a kilobyte of
// garbage a span.
func (t *internTable) remember(r recentResource) {
	copy(t.recent[1:], t.recent[:len(t.recent)-1])
	t.recent[0] = r
}

// events reads the Events list.
func (fp *fastParser) events() ([]Event, error) {
	var evs []Event
	if fp.tab.keep.noEvents {
		// Read them all the same, keeping nothing.
		keys := fp.tab.keep.keys
		fp.tab.keep.keys = dropAll
		defer func() { fp.tab.keep.keys = keys }()
	}
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
		if fp.tab.keep.noEvents {
			return nil
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
					l.TraceID, l.SpanID = traceIDOf(traceID), spanIDOf(spanID)
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
