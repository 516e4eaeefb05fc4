package traces

// parseLine reads one line of a recording with encoding/json and explains
// what is wrong with a line it cannot read: the path every line the fast
// parser gives up on takes.

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"
)

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
	var h string
	if h, err = hexID("SpanContext.TraceID", js.SpanContext.TraceID, 32, false); err != nil {
		return Span{}, err
	}
	s.TraceID = traceIDOf([]byte(h))
	if h, err = hexID("SpanContext.SpanID", js.SpanContext.SpanID, 16, false); err != nil {
		return Span{}, err
	}
	s.SpanID = spanIDOf([]byte(h))
	if js.Parent != nil && (js.Parent.TraceID != "" || js.Parent.SpanID != "") {
		if _, err = hexID("Parent.TraceID", js.Parent.TraceID, 32, true); err != nil {
			return Span{}, err
		}
		if h, err = hexID("Parent.SpanID", js.Parent.SpanID, 16, true); err != nil {
			return Span{}, err
		}
		s.ParentSpanID = spanIDOf([]byte(h))
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
			var h string
			if h, err = hexID(path+".SpanContext.TraceID", jl.SpanContext.TraceID, 32, true); err != nil {
				return Span{}, err
			}
			l.TraceID = traceIDOf([]byte(h))
			if h, err = hexID(path+".SpanContext.SpanID", jl.SpanContext.SpanID, 16, true); err != nil {
				return Span{}, err
			}
			l.SpanID = spanIDOf([]byte(h))
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
