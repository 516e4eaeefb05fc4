package locale

import (
	"fmt"
	"strconv"
	"strings"
)

// A message is a text with placeholders, in the one format that Go (here)
// and the HTML page's script (traces/htmlview/assets/js/words.js, msg)
// both read:
//
//   - {name} is the argument name;
//   - {name, plural, one {…} other {…}} picks a form by the argument's
//     number: an exact match (=0, =1, …) first, then the language's CLDR
//     plural category (zero, one, two, few, many), else other, which every
//     plural must have; inside a form, # is the number;
//   - '{', '}' and '#' (in quotes) are the character itself.
//
// It is a small subset of ICU MessageFormat, the format translators know.
type message struct {
	segs []segment
	args map[string]bool // the arguments it names, plural ones too
	src  string          // as written
	pos  pos             // where it is written
}

type segKind int

const (
	segText   segKind = iota // text as it is
	segArg                   // {name}
	segHash                  // # in a plural form
	segPlural                // {name, plural, …}
)

type segment struct {
	kind  segKind
	text  string // the text, or the argument's name
	forms []form // a plural's forms, in the order written
}

// form is one form of a plural: its selector (=1, one, other) and text.
type form struct {
	sel  string
	segs []segment
}

// pluralCategories are the CLDR plural categories a form may name.
var pluralCategories = map[string]bool{"zero": true, "one": true, "two": true, "few": true, "many": true, "other": true}

// parseMessage parses s, or says what is wrong and where in s.
func parseMessage(s string) (*message, error) {
	p := &msgParser{s: s, args: map[string]bool{}}
	segs, err := p.segments(false)
	if err != nil {
		return nil, err
	}
	return &message{segs: segs, args: p.args, src: s}, nil
}

type msgParser struct {
	s    string
	i    int
	args map[string]bool
}

func (p *msgParser) errorf(format string, args ...any) error {
	return fmt.Errorf("at byte %d of %q: %s", p.i, p.s, fmt.Sprintf(format, args...))
}

// segments reads text and placeholders up to the end of the message or,
// in a plural form, up to the form's closing brace (which it consumes).
func (p *msgParser) segments(inForm bool) ([]segment, error) {
	var segs []segment
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			segs = append(segs, segment{kind: segText, text: text.String()})
			text.Reset()
		}
	}
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '\'' && p.i+2 < len(p.s) && strings.IndexByte("{}#", p.s[p.i+1]) >= 0 && p.s[p.i+2] == '\'':
			text.WriteByte(p.s[p.i+1])
			p.i += 3
		case c == '{':
			flush()
			seg, err := p.placeholder()
			if err != nil {
				return nil, err
			}
			segs = append(segs, seg)
		case c == '}' && inForm:
			p.i++
			flush()
			return segs, nil
		case c == '}':
			return nil, p.errorf("a } closes nothing: write '}' for a brace")
		case c == '#' && inForm:
			flush()
			segs = append(segs, segment{kind: segHash})
			p.i++
		default:
			text.WriteByte(c)
			p.i++
		}
	}
	if inForm {
		return nil, p.errorf("a plural form is not closed: it needs its }")
	}
	flush()
	return segs, nil
}

// placeholder reads {name} or {name, plural, …}, starting at its {.
func (p *msgParser) placeholder() (segment, error) {
	p.i++ // {
	p.space()
	name := p.word()
	if name == "" {
		return segment{}, p.errorf("a { starts no placeholder: write {name}, or '{' for a brace")
	}
	p.args[name] = true
	p.space()
	if p.eat('}') {
		return segment{kind: segArg, text: name}, nil
	}
	if !p.eat(',') {
		return segment{}, p.errorf("placeholder {%s: expected its } (or , plural, …)", name)
	}
	p.space()
	if kind := p.word(); kind != "plural" {
		return segment{}, p.errorf("placeholder {%s, %s: the only kind is plural", name, kind)
	}
	p.space()
	if !p.eat(',') {
		return segment{}, p.errorf("{%s, plural: expected a , before the forms", name)
	}
	seg := segment{kind: segPlural, text: name}
	seen := map[string]bool{}
	for {
		p.space()
		if p.eat('}') {
			break
		}
		sel := p.selector()
		switch {
		case sel == "":
			return segment{}, p.errorf("{%s, plural, …}: expected a form (=1, one, other …) or the closing }", name)
		case !strings.HasPrefix(sel, "=") && !pluralCategories[sel]:
			return segment{}, p.errorf("{%s, plural, …}: %q is not a plural category (zero, one, two, few, many, other) or =N", name, sel)
		case seen[sel]:
			return segment{}, p.errorf("{%s, plural, …}: the form %s is there twice", name, sel)
		}
		seen[sel] = true
		p.space()
		if !p.eat('{') {
			return segment{}, p.errorf("{%s, plural, …}: the form %s needs its text in braces: %s {…}", name, sel, sel)
		}
		segs, err := p.segments(true)
		if err != nil {
			return segment{}, err
		}
		seg.forms = append(seg.forms, form{sel: sel, segs: segs})
	}
	if !seen["other"] {
		return segment{}, p.errorf("{%s, plural, …} needs an other form", name)
	}
	return seg, nil
}

func (p *msgParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\n' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *msgParser) eat(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// word reads a name: letters, digits and _.
func (p *msgParser) word() string {
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			break
		}
		p.i++
	}
	return p.s[start:p.i]
}

// selector reads a plural form's selector: a category or =N.
func (p *msgParser) selector() string {
	if p.i < len(p.s) && p.s[p.i] == '=' {
		start := p.i
		p.i++
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		if p.i == start+1 {
			return "="
		}
		return p.s[start:p.i]
	}
	return p.word()
}

// Args are a message's arguments by name.
type Args map[string]any

// format writes m with args; plural picks the CLDR category of a number.
// An argument m names that args lacks is written as its placeholder, so
// that a missing one shows.
func (m *message) format(args Args, plural func(int64) string) string {
	var b strings.Builder
	writeSegments(&b, m.segs, args, plural, "")
	return b.String()
}

func writeSegments(b *strings.Builder, segs []segment, args Args, plural func(int64) string, hash string) {
	for _, s := range segs {
		switch s.kind {
		case segText:
			b.WriteString(s.text)
		case segHash:
			b.WriteString(hash)
		case segArg:
			v, ok := args[s.text]
			if !ok {
				b.WriteString("{" + s.text + "}")
				continue
			}
			b.WriteString(text(v))
		case segPlural:
			v, ok := args[s.text]
			if !ok {
				b.WriteString("{" + s.text + "}")
				continue
			}
			writeSegments(b, choose(s.forms, v, plural), args, plural, text(v))
		}
	}
}

// choose picks the form of a plural for v: =N, then v's category, then other.
func choose(forms []form, v any, plural func(int64) string) []segment {
	n, isInt := integer(v)
	cat := "other"
	if isInt {
		cat = plural(n)
	}
	var other, byCat []segment
	for _, f := range forms {
		switch {
		case isInt && f.sel == "="+strconv.FormatInt(n, 10):
			return f.segs
		case f.sel == cat:
			byCat = f.segs
		case f.sel == "other":
			other = f.segs
		}
	}
	if byCat != nil {
		return byCat
	}
	return other
}

func integer(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int64:
		return x, true
	case int32:
		return int64(x), true
	}
	return 0, false
}

// text writes an argument as the page's script does (String(v)) for the
// strings and integers kubeloom passes.
func text(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	}
	return fmt.Sprint(v)
}
