package traces

// What the span reader says about a line it refuses: the field and what
// was expected there ("SpanContext.TraceID: expected 32 hex digits, got
// "xyz""), or where the line stops being JSON.

import (
	"errors"
	"fmt"
	"strconv"
)

// errKind is what a reader of an object, array, string or number returns,
// having read nothing, when the value is of another kind; the caller, who
// knows the field, says so (parser.field).
var errKind = errors.New("a value of another kind")

// A fieldError is a problem with one field of a span line.
type fieldError struct {
	field string // "SpanContext.TraceID", `Attributes[2] ("iteration")`
	err   error
}

func (e *fieldError) Error() string { return e.field + ": " + e.err.Error() }
func (e *fieldError) Unwrap() error { return e.err }

// in names the field an error of a value's reader is about as a field of
// that value, which is field of its parent: "Events[0]" and "Time" make
// "Events[0].Time".
func in(field string, err error) error {
	switch e := err.(type) {
	case nil:
		return nil
	case *fieldError:
		return &fieldError{field + "." + e.field, e.err}
	}
	if err == errSyntax || err == errKind {
		return err
	}
	return &fieldError{field, err}
}

// field is in, for the value at the reader's position: if its reader
// returned errKind, it says that field holds want, not this.
func (p *parser) field(field, want string, err error) error {
	if err == errKind {
		return &fieldError{field, fmt.Errorf("expected %s, got %s", want, p.kindOf())}
	}
	return in(field, err)
}

// kind is field for a list, whose elements' errors name themselves
// ("Events[0].Time"): it only says what the list must be.
func (p *parser) kind(field, want string, err error) error {
	if err == errKind {
		return p.field(field, want, err)
	}
	return err
}

// kindOf describes the JSON value at the reader's position.
func (p *parser) kindOf() string {
	switch c := p.peek(); c {
	case '"':
		return "a JSON string"
	case '{':
		return "a JSON object"
	case '[':
		return "a JSON array"
	case 't', 'f':
		return "a JSON boolean"
	case 'n':
		return "null"
	}
	if tok, ok := p.number(); ok {
		return "a JSON number " + string(tok)
	}
	return "invalid JSON"
}

var errTwice = errors.New("given twice; expected each field once")

func twice(field string) error { return &fieldError{field, errTwice} }

func missing(field, want string) error {
	return &fieldError{field, fmt.Errorf("missing; expected %s", want)}
}

// explain is the error of a line the span reader refused with err: its
// syntax error if it is not JSON, else err.
func explain(line []byte, atEOF bool, err error) error {
	if se := checkSyntax(line); se != nil {
		return syntaxProblem(se, atEOF)
	}
	if line[0] != '{' {
		return fmt.Errorf("expected a JSON object (one span per line), got a JSON %s", jsonKind(line[0]))
	}
	if err == errSyntax || err == errKind {
		// The reader refused valid JSON without saying why: a bug.
		return fmt.Errorf("kubeloom could not read this valid JSON line (%v): please report it at https://github.com/kubeloom/kubeloom/issues", err)
	}
	return err
}

// syntaxProblem describes why a line is not valid JSON.
func syntaxProblem(se *syntaxError, atEOF bool) error {
	switch {
	case se.msg == "":
		if atEOF {
			return fmt.Errorf("%w (the recording was probably interrupted while this line was written)", ErrTruncated)
		}
		return fmt.Errorf("%w (the line ends before its closing '}')", ErrTruncated)
	case se.deep:
		return fmt.Errorf("%s at column %d; a recording's lines nest 6 deep (the limit keeps the reader's stack small)", se.msg, se.col)
	case se.trailing:
		return fmt.Errorf("unexpected text after the JSON object at column %d; expected one JSON object per line", se.col)
	}
	return fmt.Errorf("invalid JSON at column %d: %s; expected one JSON object per line (a span as the stdouttrace exporter writes it)", se.col, se.msg)
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

// quote quotes s for an error message, shortened when long.
func quote(s string) string {
	const max = 48
	if len(s) > max {
		return strconv.Quote(s[:max]) + "..."
	}
	return strconv.Quote(s)
}

// shorten is JSON text for an error message, shortened when long.
func shorten(raw []byte) string {
	if len(raw) > 48 {
		return string(raw[:48]) + "..."
	}
	return string(raw)
}
