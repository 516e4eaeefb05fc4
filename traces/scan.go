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
	// depth is how many values skip is inside (maxNesting at most).
	depth int
	// attrDepth is how many SLICE and MAP attribute values the text
	// read is inside (maxAttributeDepth at most).
	attrDepth int
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
	return p.stringAt()
}

// stringAt is stringBytes without the whitespace.
func (p *parser) stringAt() ([]byte, error) {
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
		v = v<<4 | uint16(hexValue[c])
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

// index returns the place of key in the order, or -1.
func (o keyOrder) index(key []byte) int {
	for i, k := range o {
		if string(k[1:len(k)-2]) == string(key) {
			return i
		}
	}
	return -1
}

// An objectReader hands out the members of a JSON object one at a time,
// the reader at each one's value:
//
//	o := p.object(keys)
//	for o.next() {
//		switch o.field { ... read the value ... }
//	}
//	if err := o.err(); err != nil { ... }
//
// field is the place of the member's key in keys, -1 for a key not in
// them. A key in its place in keys is recognised by comparing bytes,
// faster than reading it; a switch on its place is faster than one on the
// key. For null, next returns false at once and null is set;
// for a value of another kind, err is errKind and nothing is read.
type objectReader struct {
	p     *parser
	keys  keyOrder
	order int    // the place in keys of the next key
	field int    // the place in keys of the current member's key, or -1
	key   []byte // the current member's key, when it is not in keys
	seen  int    // the places of the keys read (once)
	null  bool
	state uint8
	fail  failure
}

// The states of an objectReader or arrayReader.
const (
	atFirst uint8 = iota // after the opening bracket
	inside               // after a member or element
	done
)

// failure is why an objectReader or arrayReader stopped early. (Not an
// error value: the compiler's escape analysis does not tell a struct's
// fields apart, and an error in the reader, which goes to the heap, would
// take the parser it points to along.)
type failure uint8

const (
	noFailure failure = iota
	syntaxFailure
	kindFailure
)

func (f failure) err() error {
	switch f {
	case syntaxFailure:
		return errSyntax
	case kindFailure:
		return errKind
	}
	return nil
}

func (o *objectReader) err() error { return o.fail.err() }
func (a *arrayReader) err() error  { return a.fail.err() }

// object starts reading a JSON object, or null, after whitespace.
func (p *parser) object(keys keyOrder) objectReader {
	o := objectReader{p: p, keys: keys, state: done}
	switch p.peek() {
	case '{':
		p.p++
		o.state = atFirst
	case 'n':
		if o.null = p.null(); !o.null {
			o.fail = syntaxFailure
		}
	default:
		o.fail = kindFailure
	}
	return o
}

// next moves to the next member, if there is one. It first tries the
// common cases without whitespace: the end of the object, and the next key
// in its place after the opening brace or a comma.
func (o *objectReader) next() bool {
	p := o.p
	i := p.p
	switch {
	case i >= len(p.b) || o.state == done:
		return o.nextMember()
	case o.state == inside && p.b[i] == '}':
		p.p++
		o.state = done
		return false
	case o.state == inside && p.b[i] == ',':
		i++
	case o.state == inside:
		return o.nextMember()
	}
	if o.order < len(o.keys) {
		k := o.keys[o.order]
		if e := i + len(k); e <= len(p.b) && string(p.b[i:e]) == string(k) {
			p.p, o.state = e, inside
			o.field = o.order
			o.order++
			return true
		}
	}
	return o.nextMember()
}

func (o *objectReader) nextMember() bool {
	p := o.p
	switch o.state {
	case inside:
		if !p.consume(',') {
			if !p.consume('}') {
				o.fail = syntaxFailure
			}
			o.state = done
			return false
		}
	case done:
		return false
	default: // atFirst
		if p.consume('}') {
			o.state = done
			return false
		}
		o.state = inside
	}
	if o.order < len(o.keys) && bytes.HasPrefix(p.b[p.p:], o.keys[o.order]) {
		p.p += len(o.keys[o.order])
		o.field = o.order
		o.order++
		return true
	}
	o.order = len(o.keys) // out of order: read the rest
	p.ws()
	raw, special, err := p.rawString()
	if err == nil && !p.consume(':') {
		err = errSyntax
	}
	if err != nil {
		o.fail, o.state = syntaxFailure, done
		return false
	}
	if special && bytes.IndexByte(raw, '\\') >= 0 {
		raw = unquote(raw) // "\u004eame" is "Name"
	}
	o.key = raw
	o.field = o.keys.index(raw)
	return true
}

// once is nil the first time a member's key (one in keys: field is not
// -1) is read, and says the key is given twice after that.
func (o *objectReader) once() error {
	bit := 1 << o.field
	if o.seen&bit != 0 {
		return twice(o.name())
	}
	o.seen |= bit
	return nil
}

// name is the current member's key.
func (o *objectReader) name() string {
	if o.field >= 0 {
		k := o.keys[o.field]
		return string(k[1 : len(k)-2])
	}
	return string(o.key)
}

// An arrayReader hands out the elements of a JSON array (or none, for
// null) one at a time, as an objectReader does the members of an object;
// i is the index of the current one.
type arrayReader struct {
	p     *parser
	i     int
	state uint8
	fail  failure
}

// array starts reading a JSON array, or null, after whitespace.
func (p *parser) array() arrayReader {
	a := arrayReader{p: p, i: -1, state: done}
	switch p.peek() {
	case '[':
		p.p++
		a.state = atFirst
	case 'n':
		if !p.null() {
			a.fail = syntaxFailure
		}
	default:
		a.fail = kindFailure
	}
	return a
}

// next moves to the next element, if there is one.
func (a *arrayReader) next() bool {
	p := a.p
	if a.state == inside && p.p < len(p.b) { // the common cases, without whitespace
		switch p.b[p.p] {
		case ',':
			p.p++
			a.i++
			return true
		case ']':
			p.p++
			a.state = done
			return false
		}
	}
	switch a.state {
	case done:
		return false
	case atFirst:
		if p.consume(']') {
			a.state = done
			return false
		}
		a.state = inside
	case inside:
		if !p.consume(',') {
			if !p.consume(']') {
				a.fail = syntaxFailure
			}
			a.state = done
			return false
		}
	}
	a.i++
	return true
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
		b, err = p.stringAt()
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
