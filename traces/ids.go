package traces

import (
	"errors"
	"fmt"

	"go.opentelemetry.io/otel/trace"
)

// hexValue is the value of a hex digit (either case), 0xff for any other byte.
var hexValue = func() (t [256]byte) {
	for c := range t {
		switch {
		case '0' <= c && c <= '9':
			t[c] = byte(c - '0')
		case 'a' <= c && c <= 'f':
			t[c] = byte(c - 'a' + 10)
		case 'A' <= c && c <= 'F':
			t[c] = byte(c - 'A' + 10)
		default:
			t[c] = 0xff
		}
	}
	return t
}()

// decodeHex fills dst from the hex digits h, two a byte, and reports
// whether they all were hex digits.
func decodeHex(dst []byte, h []byte) bool {
	if len(h) != 2*len(dst) {
		return false
	}
	var bad byte
	for i := range dst {
		hi, lo := hexValue[h[2*i]], hexValue[h[2*i+1]]
		bad |= hi | lo
		dst[i] = hi<<4 | lo
	}
	return bad&0xf0 == 0
}

// decodeTraceID decodes the trace ID of field, 32 hex digits (all zeros
// only if zeroOK: a link to an invalid span context).
func decodeTraceID(field string, h []byte, zeroOK bool) (id trace.TraceID, err error) {
	err = decodeID(field, id[:], h, zeroOK)
	return id, err
}

// decodeSpanID decodes the span ID of field, 16 hex digits (all zeros only
// if zeroOK: no parent, a link to an invalid span context).
func decodeSpanID(field string, h []byte, zeroOK bool) (id trace.SpanID, err error) {
	err = decodeID(field, id[:], h, zeroOK)
	return id, err
}

func decodeID(field string, id, h []byte, zeroOK bool) error {
	if !decodeHex(id, h) {
		return &fieldError{field, fmt.Errorf("expected %d hex digits, got %s", 2*len(id), quote(string(h)))}
	}
	if !zeroOK && allZero(id) {
		return &fieldError{field, errors.New("expected a valid ID, got all zeros")}
	}
	return nil
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
