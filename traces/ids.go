package traces

import "go.opentelemetry.io/otel/trace"

// decodeHex fills dst from the hex digits h (two a byte, either case),
// which the caller has checked.
func decodeHex(dst []byte, h []byte) {
	for i := range dst {
		dst[i] = unhex(h[2*i])<<4 | unhex(h[2*i+1])
	}
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

func traceIDOf(h []byte) (id trace.TraceID) {
	decodeHex(id[:], h)
	return id
}

func spanIDOf(h []byte) (id trace.SpanID) {
	decodeHex(id[:], h)
	return id
}
