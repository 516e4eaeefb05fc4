package printable

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// String returns s with every character a terminal could take as a
// command, or that does not show, written as a visible escape (see the
// package doc), newlines included: for a field that is one line of a
// layout (a name, a label, an attribute value). It returns s itself, with
// no allocation, when there is nothing to escape.
func String(s string) string { return escape(s, false) }

// Text is String for text of several lines (an error, a description, a
// scenario's YAML): it keeps the characters that only lay lines out, '\n',
// '\t' and the '\r' of a "\r\n" line end, so that a file with nothing to
// escape is written byte for byte; a lone '\r', which sends the cursor back
// over what the line said, is escaped.
func Text(s string) string { return escape(s, true) }

const hex = "0123456789abcdef"

// layout reports whether the byte at s[i] lays out lines of text, which
// Text keeps: '\n', '\t', and '\r' before '\n'.
func layout(s string, i int) bool {
	switch s[i] {
	case '\n', '\t':
		return true
	case '\r':
		return i+1 < len(s) && s[i+1] == '\n'
	}
	return false
}

func escape(s string, lines bool) string {
	i := clean(s, lines)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f || lines && c < 0x20 && layout(s, i) {
			b.WriteByte(c)
			i++
			continue
		}
		if c < utf8.RuneSelf {
			switch c {
			case '\t':
				b.WriteString(`\t`)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			default:
				writeByte(&b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			writeByte(&b, c)
		case keep(r):
			b.WriteString(s[i : i+n])
		default:
			writeRune(&b, r)
		}
		i += n
	}
	return b.String()
}

// clean returns the index of the first byte of s that needs escaping, or
// len(s). Printable ASCII, the common case, costs one comparison a byte.
func clean(s string, lines bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f || lines && c < 0x20 && layout(s, i) {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			return i
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || !keep(r) {
			return i
		}
		i += n
	}
	return len(s)
}

// keep reports whether a rune above ASCII is written as it is: all but
// controls, format characters, the line and paragraph separators and
// noncharacters. Private-use and unassigned code points are kept: a
// terminal obeys neither, and an emoji newer than Go's Unicode tables is
// unassigned to them.
func keep(r rune) bool {
	switch {
	case r <= 0x9f: // C1: 0x9b is CSI on some terminals
		return false
	case r >= 0x2070 && r < 0xfdd0: // CJK and most symbols: no format characters
		return true
	case r == 0x200c || r == 0x200d: // zero-width non-joiner, joiner
		return true
	case r >= 0xe0020 && r <= 0xe007f: // tags: 🏴 + tags + U+E007F is a flag
		return true
	case unicode.Is(unicode.Cf, r), r == 0x2028, r == 0x2029:
		return false
	case r >= 0xfdd0 && r <= 0xfdef, r&0xfffe == 0xfffe: // noncharacters
		return false
	}
	return true
}

func writeByte(b *strings.Builder, c byte) {
	b.WriteString(`\x`)
	b.WriteByte(hex[c>>4])
	b.WriteByte(hex[c&0xf])
}

func writeRune(b *strings.Builder, r rune) {
	digits := 4
	if r > 0xffff {
		b.WriteString(`\U`)
		digits = 8
	} else {
		b.WriteString(`\u`)
	}
	for shift := 4 * (digits - 1); shift >= 0; shift -= 4 {
		b.WriteByte(hex[r>>shift&0xf])
	}
}
