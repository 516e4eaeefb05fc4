package traces

// The JSON of a line as the span reader (parse.go) reads it: whitespace,
// strings, numbers, and objects and arrays whose members it hands to the
// reader of each field.

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// parser reads one line. Its position p moves past what each method reads.
type parser struct {
	b   []byte
	p   int
	tab *internTable
}

func (p *parser) ws() {
	for p.p < len(p.b) {
		switch p.b[p.p] {
		case ' ', '\t', '\n', '\r':
			p.p++
		default:
			return
		}
	}
}

// peek returns the next byte after whitespace, or 0 at the end.
func (p *parser) peek() byte {
	p.ws()
	if p.p < len(p.b) {
		return p.b[p.p]
	}
	return 0
}

// consume reads c after whitespace, if it is next.
func (p *parser) consume(c byte) bool {
	if p.peek() == c && p.p < len(p.b) {
		p.p++
		return true
	}
	return false
}

// null reads the literal null, if it is next.
func (p *parser) null() bool {
	p.ws()
	if bytes.HasPrefix(p.b[p.p:], []byte("null")) {
		p.p += 4
		return true
	}
	return false
}

// rawString reads a JSON string at p and returns what is between its
// quotes, and whether it has escape sequences or bytes that are not ASCII.
func (p *parser) rawString() (raw []byte, special bool, err error) {
	b := p.b
	if p.p >= len(b) || b[p.p] != '"' {
		return nil, false, errSyntax
	}
	start := p.p + 1
	i := start
	for {
		// 8 bytes at a time while none is a quote, a backslash, a control
		// character or non-ASCII.
		for i+8 <= len(b) && !special8(binary.LittleEndian.Uint64(b[i:])) {
			i += 8
		}
		if i >= len(b) {
			return nil, false, errSyntax
		}
		switch c := b[i]; {
		case c == '"':
			p.p = i + 1
			return b[start:i], special, nil
		case c == '\\':
			special = true
			if i+1 >= len(b) {
				return nil, false, errSyntax
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || !isHexAnyCase(b[i+2:i+6]) {
					return nil, false, errSyntax
				}
				i += 6
			default:
				return nil, false, errSyntax
			}
		case c < 0x20:
			return nil, false, errSyntax
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

// stringBytes reads a JSON string after whitespace and returns its value:
// escapes decoded, and each byte that is not valid UTF-8 (and each lone
// UTF-16 surrogate) replaced by U+FFFD, as encoding/json reads it. The
// bytes are the line's own when there is nothing to decode.
func (p *parser) stringBytes() ([]byte, error) {
	p.ws()
	raw, special, err := p.rawString()
	if err != nil || !special {
		return raw, err
	}
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return raw, nil
	}
	return unquote(raw), nil
}

// unquote decodes the inside of a valid JSON string.
func unquote(raw []byte) []byte {
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
			e := raw[i+1]
			i += 2
			switch e {
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r := rune(hex4(raw[i:]))
				i += 4
				if utf16.IsSurrogate(r) {
					r2 := utf8.RuneError
					if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
						r2 = rune(hex4(raw[i+2:]))
					}
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						i += 6
						r = d
					} else {
						r = utf8.RuneError
					}
				}
				out = utf8.AppendRune(out, r)
			default: // '"', '\\', '/'
				out = append(out, e)
			}
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, n := utf8.DecodeRune(raw[i:])
			out = utf8.AppendRune(out, r) // U+FFFD for a byte that is not UTF-8
			i += n
		}
	}
	return out
}

func hex4(b []byte) uint16 {
	var v uint16
	for _, c := range b[:4] {
		v = v<<4 | uint16(unhex(c))
	}
	return v
}

func isHexAnyCase(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// number reads a JSON number token after whitespace.
func (p *parser) number() ([]byte, bool) {
	p.ws()
	start := p.p
	if p.p >= len(p.b) || p.skipNumber() != nil {
		p.p = start
		return nil, false
	}
	return p.b[start:p.p], true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// keyOrder lists the keys of an object in the order the Recorder and
// stdouttrace write them, each as it appears in the line: "Key":.
type keyOrder [][]byte

func order(keys ...string) keyOrder {
	o := make(keyOrder, len(keys))
	for i, k := range keys {
		o[i] = []byte(`"` + k + `":`)
	}
	return o
}

// object reads a JSON object or null after whitespace, calling field with
// each key and the position at its value; field must read the value. A
// key in its place in keys is recognised by comparing bytes, faster than
// reading it. If the value is not an object, object returns errKind and
// reads nothing.
func (p *parser) object(keys keyOrder, field func(key []byte) error) (null bool, err error) {
	switch p.peek() {
	case '{':
		p.p++
	case 'n':
		if p.null() {
			return true, nil
		}
		return false, errSyntax
	default:
		return false, errKind
	}
	if p.consume('}') {
		return false, nil
	}
	next := 0
	for {
		var key []byte
		if next < len(keys) && bytes.HasPrefix(p.b[p.p:], keys[next]) {
			k := keys[next]
			key = k[1 : len(k)-2]
			p.p += len(k)
			next++
		} else {
			if key, err = p.key(); err != nil {
				return false, err
			}
			next = len(keys) // out of order: read the rest
		}
		if err := field(key); err != nil {
			return false, err
		}
		if p.consume(',') {
			continue
		}
		if p.consume('}') {
			return false, nil
		}
		return false, errSyntax
	}
}

// key reads an object key and the colon after it.
func (p *parser) key() ([]byte, error) {
	p.ws()
	raw, special, err := p.rawString()
	if err != nil {
		return nil, err
	}
	if special && bytes.IndexByte(raw, '\\') >= 0 {
		raw = unquote(raw) // "\u004eame" is "Name"
	}
	if !p.consume(':') {
		return nil, errSyntax
	}
	return raw, nil
}

// array reads a JSON array or null after whitespace, calling elem with
// the position at each element. If the value is not an array, array
// returns errKind and reads nothing.
func (p *parser) array(elem func(i int) error) (null bool, err error) {
	switch p.peek() {
	case '[':
		p.p++
	case 'n':
		if p.null() {
			return true, nil
		}
		return false, errSyntax
	default:
		return false, errKind
	}
	if p.consume(']') {
		return false, nil
	}
	for i := 0; ; i++ {
		if err := elem(i); err != nil {
			return false, err
		}
		if p.consume(',') {
			continue
		}
		if p.consume(']') {
			return false, nil
		}
		return false, errSyntax
	}
}

// skipValue reads a value a span does not keep.
func (p *parser) skipValue() error {
	if p.skip() != nil {
		return errSyntax
	}
	return nil
}

// stringOrNull reads a string, or null; errKind if it is neither.
func (p *parser) stringOrNull() (b []byte, null bool, err error) {
	switch p.peek() {
	case '"':
		b, err = p.stringBytes()
		return b, false, err
	case 'n':
		if p.null() {
			return nil, true, nil
		}
		return nil, false, errSyntax
	}
	return nil, false, errKind
}

// integerOrNull reads an integer that fits an int64 (0 for null); errKind
// if it is not one.
func (p *parser) integerOrNull() (int64, error) {
	if p.null() {
		return 0, nil
	}
	start := p.p
	tok, ok := p.number()
	if !ok {
		return 0, errKind
	}
	n, err := strconv.ParseInt(string(tok), 10, 64)
	if err != nil {
		p.p = start
		return 0, errKind
	}
	return n, nil
}
