package traces

// Where and why a line is not JSON, said in encoding/json's words ("invalid
// character 'g' looking for beginning of value"), which the messages of
// earlier kubeloom versions quoted. skip reads the values the span does not
// keep; when the span reader refuses a line, checkSyntax, which is skip on
// the whole line, tells a syntax error from a wrong value.

import (
	"errors"
	"fmt"
	"strconv"
)

// errSyntax is what the span reader returns where the line is not valid
// JSON; checkSyntax then says where and why.
var errSyntax = errors.New("invalid JSON")

// A syntaxError is where and why a line is not valid JSON.
type syntaxError struct {
	col      int    // 1-based column of the offending byte; len+1 at the end of the line
	msg      string // "invalid character 'g' looking for beginning of value"; "" at the end of the line
	trailing bool   // text after the value
	deep     bool   // nested deeper than maxNesting
}

func (e *syntaxError) Error() string {
	if e.msg == "" {
		return "unexpected end of JSON input"
	}
	return e.msg
}

// skip reads any JSON value after whitespace; if there is none, it says
// why as encoding/json does. A value nested more than maxNesting deep in
// the one skip started at is an error too: skip recurses, and a line of
// millions of '[' would overflow the stack.
func (p *parser) skip() *syntaxError {
	if p.depth >= maxNesting {
		p.ws()
		return &syntaxError{col: p.p + 1, msg: fmt.Sprintf("JSON nested more than %d deep", maxNesting), deep: true}
	}
	p.depth++
	err := p.skipOne()
	p.depth--
	return err
}

// skipOne is skip, one level down.
func (p *parser) skipOne() *syntaxError {
	c, err := p.nextByte()
	if err != nil {
		return err
	}
	switch c {
	case '{':
		p.p++
		if c, err = p.nextByte(); err != nil {
			return err
		}
		if c == '}' {
			p.p++
			return nil
		}
		for {
			if c != '"' {
				return p.invalid("looking for beginning of object key string")
			}
			if err := p.skipString(); err != nil {
				return err
			}
			if c, err = p.nextByte(); err != nil {
				return err
			}
			if c != ':' {
				return p.invalid("after object key")
			}
			p.p++
			if err := p.skip(); err != nil {
				return err
			}
			if c, err = p.nextByte(); err != nil {
				return err
			}
			if c == '}' {
				p.p++
				return nil
			}
			if c != ',' {
				return p.invalid("after object key:value pair")
			}
			p.p++
			if c, err = p.nextByte(); err != nil {
				return err
			}
		}
	case '[':
		p.p++
		if c, err = p.nextByte(); err != nil {
			return err
		}
		if c == ']' {
			p.p++
			return nil
		}
		for {
			if err := p.skip(); err != nil {
				return err
			}
			if c, err = p.nextByte(); err != nil {
				return err
			}
			if c == ']' {
				p.p++
				return nil
			}
			if c != ',' {
				return p.invalid("after array element")
			}
			p.p++
		}
	case '"':
		return p.skipString()
	case 't':
		return p.literal("true")
	case 'f':
		return p.literal("false")
	case 'n':
		return p.literal("null")
	}
	return p.skipNumber()
}

// nextByte returns the next byte after whitespace, or the error of the
// line's end.
func (p *parser) nextByte() (byte, *syntaxError) {
	p.ws()
	if p.p >= len(p.b) {
		return 0, p.eof()
	}
	return p.b[p.p], nil
}

// skipString reads a string, or says what is wrong with it.
func (p *parser) skipString() *syntaxError {
	start := p.p
	if _, _, err := p.rawString(); err == nil {
		return nil
	}
	// Find the offending byte.
	p.p = start + 1
	for p.p < len(p.b) {
		switch c := p.b[p.p]; {
		case c == '"':
			panic("traces: a string rawString refused is valid")
		case c == '\\':
			p.p++
			if p.p >= len(p.b) {
				return p.eof()
			}
			switch p.b[p.p] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.p++
			case 'u':
				p.p++
				for range 4 {
					if p.p >= len(p.b) {
						return p.eof()
					}
					if !isHexAnyCase(p.b[p.p : p.p+1]) {
						return p.invalid(`in \u hexadecimal character escape`)
					}
					p.p++
				}
			default:
				return p.invalid("in string escape code")
			}
		case c < 0x20:
			return p.invalid("in string literal")
		default:
			p.p++
		}
	}
	return p.eof()
}

// literal reads true, false or null, or says where it differs.
func (p *parser) literal(lit string) *syntaxError {
	for i := 1; i < len(lit); i++ {
		if p.p+i >= len(p.b) {
			p.p += i
			return p.eof()
		}
		if p.b[p.p+i] != lit[i] {
			p.p += i
			return p.invalid("in literal " + lit + " (expecting " + quoteChar(lit[i]) + ")")
		}
	}
	p.p += len(lit)
	return nil
}

// skipNumber reads a number, or says what is wrong with it.
func (p *parser) skipNumber() *syntaxError {
	b := p.b
	if b[p.p] == '-' {
		p.p++
		if p.p >= len(b) {
			return p.eof()
		}
		if !isDigit(b[p.p]) {
			return p.invalid("in numeric literal")
		}
	} else if !isDigit(b[p.p]) {
		return p.invalid("looking for beginning of value")
	}
	if b[p.p] == '0' {
		p.p++
	} else {
		p.digits()
	}
	if p.p < len(b) && b[p.p] == '.' {
		p.p++
		if p.p >= len(b) {
			return p.eof()
		}
		if !isDigit(b[p.p]) {
			return p.invalid("after decimal point in numeric literal")
		}
		p.digits()
	}
	if p.p < len(b) && (b[p.p] == 'e' || b[p.p] == 'E') {
		p.p++
		if p.p < len(b) && (b[p.p] == '+' || b[p.p] == '-') {
			p.p++
		}
		if p.p >= len(b) {
			return p.eof()
		}
		if !isDigit(b[p.p]) {
			return p.invalid("in exponent of numeric literal")
		}
		p.digits()
	}
	return nil
}

func (p *parser) digits() {
	for p.p < len(p.b) && isDigit(p.b[p.p]) {
		p.p++
	}
}

func (p *parser) eof() *syntaxError { return &syntaxError{col: len(p.b) + 1} }

func (p *parser) invalid(context string) *syntaxError {
	return &syntaxError{col: p.p + 1, msg: "invalid character " + quoteChar(p.b[p.p]) + " " + context}
}

// quoteChar quotes a byte as encoding/json's messages do.
func quoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}

// checkSyntax reports where line stops being one JSON value, if it does.
func checkSyntax(line []byte) *syntaxError {
	p := parser{b: line}
	if err := p.skip(); err != nil {
		return err
	}
	p.ws()
	if p.p < len(p.b) {
		err := p.invalid("after top-level value")
		err.trailing = true
		return err
	}
	return nil
}
