package scenarios

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"
)

// scanDepth finds where a YAML text first nests deeper than limit, without parsing it: the
// parser's memory grows with the square of the depth, so depth is measured first, in one pass
// and a few bytes of memory per level. It returns the line and column of the node past the
// limit.
//
// It reads YAML's structure only as far as depth needs: block levels by the column each node
// starts at (a line's first node, the node after "- ", "? " or ": "), flow levels by the
// brackets, skipping quoted scalars, block scalars (| and >) and comments, where brackets are
// text. Where it is unsure whether a bracket opens a collection, it counts it: an
// overestimate can only refuse a file that is almost too deep already, an underestimate would
// let the parser run away. FuzzParse checks that the depth it measures is never below the
// depth of the tree the parser builds.
func scanDepth(data []byte, limit int) (line, col int, deep bool) {
	s := depthScanner{limit: limit, scalarParent: -1}
	return s.scan(data)
}

// maxDepth returns the deepest nesting scanDepth sees in data (for tests).
func maxDepth(data []byte) int {
	s := depthScanner{limit: int(^uint(0) >> 1), scalarParent: -1}
	s.scan(data)
	return s.max
}

type depthScanner struct {
	limit int
	max   int         // the deepest level seen
	stack []blockNode // the open block nodes, by column
	flow  []byte      // the open flow levels: [ and {, and the implicit ones (see marker)
	// quote is the quote character of a quoted scalar that runs on to the next line, or 0.
	quote byte
	// scalarParent is, inside a block scalar, the column its lines must be indented past;
	// -1 outside one. scalarIndent is the indentation of its text, once known (its first line
	// or its indentation indicator): a line indented less ends it, as in the parser.
	scalarParent, scalarIndent int
	// flowNode says, inside brackets, that the next character starts a node (it follows a
	// bracket, a comma or an indicator): only there does a quote start a quoted scalar.
	flowNode bool
}

func (s *depthScanner) scan(data []byte) (line, col int, deep bool) {
	for n := 1; len(data) > 0; n++ {
		// A line ends at \n, \r\n or a lone \r, as it does for the parser.
		l := data
		if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
			end := i + 1
			if data[i] == '\r' && end < len(data) && data[end] == '\n' {
				end++
			}
			l, data = data[:i], data[end:]
		} else {
			data = nil
		}
		if at, ok := s.line(l); !ok {
			return n, utf8.RuneCount(l[:at]) + 1, true
		}
	}
	return 0, 0, false
}

// blockNode is an open block node: the column it starts at, whether it is a list entry, and
// whether it is an indicator (-, ?, :) with nothing after it on its line: the parser nests the
// next line's node in it even at the same column ("-\n0:" is a list of a mapping).
type blockNode struct {
	col         int
	entry, bare bool
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// endsToken reports whether position i of l ends a token: the end of the line or a blank.
func endsToken(l []byte, i int) bool { return i >= len(l) || isBlank(l[i]) }

// line scans one line. It returns false, and the byte offset of the node, when the line
// nests past the limit.
func (s *depthScanner) line(l []byte) (int, bool) {
	if s.scalarParent >= 0 {
		ind := 0
		for ind < len(l) && l[ind] == ' ' {
			ind++
		}
		if len(bytes.TrimLeft(l[ind:], " \t")) == 0 {
			return 0, true // an empty line of the block scalar's text
		}
		if s.scalarIndent == 0 && ind > s.scalarParent {
			s.scalarIndent = ind
		}
		if s.scalarIndent > 0 && ind >= s.scalarIndent {
			return 0, true // a line of the block scalar's text
		}
		s.scalarParent, s.scalarIndent = -1, 0
	}
	i := 0
	if s.quote != 0 {
		if i = s.skipQuoted(l, 0); s.quote != 0 {
			return 0, true // the quoted scalar goes on
		}
	}
	nodeStart := i == 0 // the next character starts a node
	if len(s.flow) > 0 {
		nodeStart = i == 0 && s.flowNode
	} else if i == 0 && (bytes.HasPrefix(l, []byte("---")) || bytes.HasPrefix(l, []byte("..."))) && endsToken(l, 3) {
		s.stack, i = s.stack[:0], 3 // a document marker: a new document, whose node may follow
	}
	prevStart := -1 // the column of the last block node started on this line
	defer func() { s.flowNode = nodeStart }()
	for i < len(l) {
		c := l[i]
		switch {
		case isBlank(c):
			i++
			continue
		case c == '#' && (i == 0 || isBlank(l[i-1]) || len(s.flow) > 0 && strings.IndexByte("[]{},:", l[i-1]) >= 0):
			// A comment. Inside brackets goccy/go-yaml also starts one right after a
			// bracket, a comma or a colon: "[#]" leaves the list open (found by FuzzParse).
			return 0, true
		}
		if len(s.flow) > 0 {
			switch {
			case c == '[' || c == '{':
				if !s.open(c) {
					return i, false
				}
				nodeStart = true
			case c == ']' || c == '}':
				// Only the matching bracket closes: the parser does not let "{a]" close the
				// mapping, and a bracket it ignores must not lower the count.
				markers := s.endMarkers()
				if open := s.flow[len(s.flow)-1]; c == open+2 { // '['+2 == ']', '{'+2 == '}'
					s.flow = s.flow[:len(s.flow)-1]
				} else {
					s.flow = append(s.flow, markers...) // not closed: nor are they
				}
				nodeStart = false
			case c == ',':
				s.endMarkers()
				nodeStart = true
			case c == ':':
				// In a list, "[a: b]" is a list of a mapping of one pair: a level of its own,
				// up to the next comma. Any colon counts ("[a:{}]" nests too).
				if s.flow[len(s.flow)-1] == '[' && !s.open(':') {
					return i, false
				}
				nodeStart = endsToken(l, i+1)
			case c == '-' && endsToken(l, i+1):
				// The parser reads "{a:- b}" as a list inside the mapping: a level too.
				if !s.open('-') {
					return i, false
				}
				nodeStart = true
			case (c == '\'' || c == '"') && nodeStart:
				if i = s.skipQuoted(l, i); s.quote != 0 {
					return 0, true
				}
				nodeStart = false
				continue
			default:
				nodeStart = false
			}
			i++
			continue
		}
		if !nodeStart {
			// Inside a plain scalar or after one: ": " starts the mapping value.
			if c == ':' && endsToken(l, i+1) {
				nodeStart = true
			}
			i++
			continue
		}
		parent := prevStart
		// A bracket is counted as a flow level only: a block node and a flow collection
		// in one would count the same collection twice.
		if !s.block(i, c == '-' && endsToken(l, i+1), c != '[' && c != '{') {
			return i, false
		}
		if parent < 0 && len(s.stack) > 1 {
			parent = s.stack[len(s.stack)-2].col
		}
		prevStart = i
		switch {
		case (c == '-' || c == '?' || c == ':') && endsToken(l, i+1):
			// An entry, key or value indicator: a node follows, on this line or the next.
			if onlyProperties(l[i+1:]) {
				s.stack[len(s.stack)-1].bare = true
			}
			i++
			continue
		case c == '[' || c == '{':
			if !s.open(c) {
				return i, false
			}
		case c == '\'' || c == '"':
			if i = s.skipQuoted(l, i); s.quote != 0 {
				return 0, true
			}
			nodeStart = false
			continue
		case c == '|' || c == '>':
			// goccy/go-yaml reads a node that follows an empty block scalar as the value of
			// a mapping whose key is the scalar ("0:\n >\n: >\n: x" is three deep): the
			// scalar counts as one level more, an overestimate by one for all the others.
			// Found by FuzzParse; the nested node can only be a scalar (anything else does
			// not parse), so one level covers it.
			if !s.deeper(1) {
				return i, false
			}
			s.blockScalar(l[i+1:], parent)
			return 0, true
		case c == '&' || c == '!' || c == '*' || c == '%':
			// An anchor, tag, alias or directive: a node may follow. Its name ends at a
			// bracket too, which then counts.
			for i < len(l) && !isBlank(l[i]) && strings.IndexByte(",[]{}", l[i]) < 0 {
				i++
			}
			continue
		default:
			nodeStart = false
		}
		i++
	}
	return 0, true
}

// onlyProperties reports whether the rest of a line holds no node: nothing, a comment, or only
// anchors and tags, which belong to the node on the next line.
func onlyProperties(rest []byte) bool {
	for _, f := range bytes.Fields(rest) {
		switch f[0] {
		case '#':
			return true
		case '&', '!':
			continue
		}
		return false
	}
	return true
}

// endMarkers closes the implicit levels (':' a pair in a list, '-' a list entry) that end at a
// comma or a closing bracket, and returns them.
func (s *depthScanner) endMarkers() []byte {
	i := len(s.flow)
	for i > 0 && (s.flow[i-1] == ':' || s.flow[i-1] == '-') {
		i--
	}
	markers := slices.Clone(s.flow[i:])
	s.flow = s.flow[:i]
	return markers
}

// open counts a flow bracket; it returns false past the limit.
func (s *depthScanner) open(bracket byte) bool {
	s.flow = append(s.flow, bracket)
	return s.level()
}

// block notes a block node starting at column col: the nodes at columns ≥ col are closed,
// and it nests in the rest. A list entry ("- ") closes the entries at its column but nests in
// a key there, since YAML lets a key's list start at the key's own column (key:\n- item).
// It returns false past the limit. A node that does not nest (push false) only closes.
func (s *depthScanner) block(col int, entry, push bool) bool {
	for len(s.stack) > 0 {
		top := &s.stack[len(s.stack)-1]
		if top.col == col && top.bare {
			top.bare = false
			break
		}
		if top.col < col || (top.col == col && entry && !top.entry) {
			break
		}
		s.stack = s.stack[:len(s.stack)-1]
	}
	if push {
		s.stack = append(s.stack, blockNode{col: col, entry: entry})
	}
	return s.level()
}

func (s *depthScanner) level() bool { return s.deeper(0) }

// deeper notes a level extra levels below the open ones; it returns false past the limit.
func (s *depthScanner) deeper(extra int) bool {
	d := len(s.stack) + len(s.flow) + extra
	s.max = max(s.max, d)
	return d <= s.limit
}

// blockScalar starts a block scalar whose header follows its | or >. Its lines are those
// indented past its parent node (or, with an indentation indicator, by that much).
func (s *depthScanner) blockScalar(header []byte, parent int) {
	s.scalarParent, s.scalarIndent = max(parent, 0), 0
	for _, c := range header {
		if c >= '1' && c <= '9' {
			s.scalarIndent = max(parent, 0) + int(c-'0')
			break
		}
		if isBlank(c) || c == '#' {
			break
		}
	}
}

// skipQuoted skips the quoted scalar whose quote is at l[i] (or, when s.quote is set, the
// rest of one begun on an earlier line, from i) and returns the offset after it. When the
// line ends inside it, s.quote holds its quote character.
func (s *depthScanner) skipQuoted(l []byte, i int) int {
	q := s.quote
	if q == 0 {
		q, i = l[i], i+1
	}
	for i < len(l) {
		switch c := l[i]; {
		case q == '"' && c == '\\':
			i += 2
		case c == q && q == '\'' && i+1 < len(l) && l[i+1] == '\'':
			i += 2 // '' is a quote inside '...'
		case c == q:
			s.quote = 0
			return i + 1
		default:
			i++
		}
	}
	s.quote = q
	return len(l)
}
