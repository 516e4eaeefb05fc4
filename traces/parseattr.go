package traces

// Attribute lists, {"Key":...,"Value":{"Type":...,"Value":...}} as
// attribute.KeyValue's MarshalJSON writes them, and the Resource.

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
)

const attrTypes = "BOOL, INT64, FLOAT64, STRING, BOOLSLICE, INT64SLICE, FLOAT64SLICE, STRINGSLICE, BYTESLICE, SLICE, MAP or EMPTY"

// keyValue is an attribute read, before it goes into a map.
type keyValue struct {
	key   string
	value any
}

// attributes reads a list of attributes, or null, keeping those the
// table's keeper keeps (the others are read all the same).
//
// Lists whose values are all strings, lists of strings and booleans (a
// call's object key, a causal link's attributes, a watch event's type, a
// kubelet's pods) repeat from span to span: spans with the same list share
// its map.
func (p *parser) attributes(field string) (Attributes, error) {
	p.ws()
	start := p.p
	pairs := p.tab.pairs[:0]
	shareable := true
	a := p.array()
	for a.next() {
		key, value, err := p.keyValue()
		if err != nil {
			p.tab.pairs = pairs[:0]
			return nil, p.attrError(field, a.i, key, err)
		}
		if !p.tab.keep.keeps(key) {
			continue
		}
		switch value.(type) {
		case string, bool, []string:
		default:
			shareable = false
		}
		pairs = append(pairs, keyValue{key, value})
	}
	p.tab.pairs = pairs[:0]
	if a.err() != nil || len(pairs) == 0 {
		return nil, p.kind(field, "an array", a.err())
	}
	var text []byte
	lists := p.tab.lists
	if p.tab.keep.keys != nil {
		lists = p.tab.trimmed // the same text, fewer attributes
	}
	if shareable {
		text = p.b[start:p.p]
		if a, ok := lists[string(text)]; ok {
			return a, nil
		}
	}
	m := make(Attributes, len(pairs))
	for _, kv := range pairs {
		m[kv.key] = kv.value
	}
	if shareable && len(text) <= maxSharedList && len(lists) < maxInterned {
		lists[string(text)] = m
	}
	return m, nil
}

// attrError names the attribute i of the list field in err, by its key
// when it has one: `Attributes[2] ("iteration"): INT64 value: ...`.
func (p *parser) attrError(field string, i int, key string, err error) error {
	name := fmt.Sprintf("%s[%d]", field, i)
	switch fe, _ := err.(*fieldError); {
	case err == errSyntax:
		return err
	case err == errKind:
		return p.field(name, "an object", err)
	case fe == nil || fe.field != "Key":
		name += " (" + quote(key) + ")"
	}
	return &fieldError{name, err}
}

// keyValue reads {"Key":...,"Value":{"Type":...,"Value":...}}; null is
// an attribute with no key and no type.
func (p *parser) keyValue() (key string, value any, err error) {
	var typ, raw, str []byte
	o := p.object(keyValueOrder)
	for o.next() {
		switch o.field {
		case kvKey:
			if err := o.once(); err != nil {
				return key, nil, err
			}
			b, _, err := p.stringOrNull()
			if err != nil {
				return key, nil, p.field("Key", "a string", err)
			}
			key = p.tab.str(b)
		case kvValue:
			if err := o.once(); err != nil {
				return key, nil, err
			}
			if typ, raw, str, err = p.typedValue(); err != nil {
				if err == errKind {
					err = p.field("Value", "an object", err)
				}
				return key, nil, err
			}
		default:
			if err := p.skipValue(); err != nil {
				return key, nil, err
			}
		}
	}
	if o.err() != nil {
		return key, nil, o.err()
	}
	if str != nil {
		return key, p.tab.strValue(str), nil
	}
	value, err = p.value(typ, raw)
	return key, value, err
}

// typedValue reads {"Type":...,"Value":...}, or null: the type, and the
// value's JSON text (nil if there is none). A STRING value after its type,
// as attribute.Value writes it, is read at once: str is its value.
func (p *parser) typedValue() (typ, raw, str []byte, err error) {
	o := p.object(valueOrder)
	for o.next() {
		switch o.field {
		case valType:
			if err := o.once(); err != nil {
				return nil, nil, nil, err
			}
			if typ, _, err = p.stringOrNull(); err != nil {
				return nil, nil, nil, p.field("Type", "a string", err)
			}
		case valValue:
			if err := o.once(); err != nil {
				return nil, nil, nil, err
			}
			if p.peek() == '"' && string(typ) == "STRING" {
				if str, err = p.stringBytes(); err != nil {
					return nil, nil, nil, err
				}
				continue
			}
			start := p.p
			if err := p.skipValue(); err != nil {
				return nil, nil, nil, err
			}
			raw = p.b[start:p.p]
		default:
			if err := p.skipValue(); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	return typ, raw, str, o.err()
}

// value converts an attribute value, its type and its JSON text as
// attribute.Value.MarshalJSON writes them, to a Go value. A slice (and a
// map) may be null or left out.
func (p *parser) value(typ, raw []byte) (any, error) {
	bad := func(want string) error {
		got := "nothing"
		if len(raw) > 0 {
			got = shorten(raw)
		}
		return fmt.Errorf("%s value: expected %s, got %s", typ, want, got)
	}
	isNull := len(raw) == 0 || string(raw) == "null"
	sub := parser{b: raw, tab: p.tab, attrDepth: p.attrDepth + 1}
	if (string(typ) == "SLICE" || string(typ) == "MAP") && sub.attrDepth > maxAttributeDepth {
		// Each level reads its elements' text again: the limit keeps
		// the time a value takes in proportion to its size.
		return nil, fmt.Errorf("%s value: SLICE and MAP values nested more than %d deep, the most a reader accepts", typ, maxAttributeDepth)
	}
	switch string(typ) {
	case "STRING":
		if isNull || raw[0] != '"' {
			return nil, bad("a string")
		}
		b, _ := sub.stringBytes() // raw is valid JSON
		return p.tab.strValue(b), nil
	case "INT64":
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil {
			return nil, bad("a 64-bit integer")
		}
		return p.tab.intValue(n), nil
	case "FLOAT64":
		f, ok := parseFloat(raw)
		if !ok {
			return nil, bad("a number")
		}
		return p.tab.floatValue(f), nil
	case "BOOL":
		switch string(raw) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, bad("true or false")
	case "STRINGSLICE":
		return list(sub, raw, "an array of strings", bad, func(el []byte) (string, bool) {
			if el[0] != '"' {
				return "", false
			}
			b, _ := (&parser{b: el}).stringBytes()
			return p.tab.str(b), true
		})
	case "BOOLSLICE":
		return list(sub, raw, "an array of booleans", bad, func(el []byte) (bool, bool) {
			return string(el) == "true", string(el) == "true" || string(el) == "false"
		})
	case "INT64SLICE":
		return list(sub, raw, "an array of 64-bit integers", bad, func(el []byte) (int64, bool) {
			n, err := strconv.ParseInt(string(el), 10, 64)
			return n, err == nil
		})
	case "FLOAT64SLICE":
		return list(sub, raw, "an array of numbers", bad, parseFloat)
	case "BYTESLICE":
		if isNull {
			return []byte(nil), nil
		}
		if raw[0] != '"' {
			return nil, bad("a base64 string")
		}
		s, _ := sub.stringBytes()
		b, err := base64.StdEncoding.DecodeString(string(s))
		if err != nil {
			return nil, bad("a base64 string")
		}
		return b, nil
	case "SLICE":
		if isNull {
			return []any(nil), nil
		}
		vs := []any{}
		a := sub.array()
		for a.next() {
			typ, raw, str, err := sub.typedValue()
			if err == errKind {
				return nil, bad(`an array of {"Type":...,"Value":...} objects`)
			}
			var x any
			if err == nil && str != nil {
				x = p.tab.strValue(str)
			} else if err == nil {
				x, err = sub.value(typ, raw)
			}
			if err != nil {
				return nil, fmt.Errorf("SLICE element %d: %w", a.i, err)
			}
			vs = append(vs, x)
		}
		if a.err() == errKind {
			return nil, bad(`an array of {"Type":...,"Value":...} objects`)
		}
		return vs, a.err()
	case "MAP":
		m := Attributes{}
		if isNull {
			return m, nil
		}
		a := sub.array()
		for a.next() {
			key, x, err := sub.keyValue()
			if err == errKind {
				return nil, bad(`an array of {"Key":...,"Value":...} objects`)
			}
			if err != nil {
				return nil, fmt.Errorf("MAP entry %d (%s): %w", a.i, quote(key), err)
			}
			m[key] = x
		}
		if a.err() == errKind {
			return nil, bad(`an array of {"Key":...,"Value":...} objects`)
		}
		return m, a.err()
	case "EMPTY", "INVALID":
		return nil, nil
	case "":
		return nil, missing("Type", "one of "+attrTypes)
	}
	return nil, &fieldError{"Type", fmt.Errorf("unknown attribute type %s; expected one of %s", quote(string(typ)), attrTypes)}
}

// list reads the value of a list attribute, raw, an array or null (a nil
// slice) or nothing, with read converting each element's JSON text; an
// element it refuses, or a value that is no array, is bad(want).
func list[T any](p parser, raw []byte, want string, bad func(want string) error, read func(el []byte) (T, bool)) (any, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return []T(nil), nil
	}
	l := make([]T, 0, bytes.Count(raw, []byte{','})+1) // at least the elements
	a := p.array()
	for a.next() {
		p.ws()
		start := p.p
		if err := p.skipValue(); err != nil {
			return nil, err
		}
		x, ok := read(p.b[start:p.p])
		if !ok {
			return nil, bad(want)
		}
		l = append(l, x)
	}
	if a.err() != nil {
		return nil, bad(want)
	}
	return l, nil
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

// resource reads the Resource list; spans with the same resource text
// share one map, which is kept whole whatever the keeper says.
func (p *parser) resource() (Attributes, error) {
	p.ws()
	start := p.p
	// Spans of one resource come in runs: compare with the last ones
	// first (a complete JSON value that is a prefix of the rest of the
	// line is the value there).
	for i := range p.tab.recent {
		if r := &p.tab.recent[i]; len(r.text) > 0 && bytes.HasPrefix(p.b[start:], r.text) {
			p.p += len(r.text)
			return r.attrs, nil
		}
	}
	if err := p.skipValue(); err != nil {
		return nil, err
	}
	text := p.b[start:p.p]
	if r, ok := p.tab.resources[string(text)]; ok {
		p.tab.remember(r)
		return r.attrs, nil
	}
	sub := parser{b: text, tab: p.tab}
	keys := p.tab.keep.keys
	p.tab.keep.keys = nil
	a, err := sub.attributes("Resource")
	p.tab.keep.keys = keys
	if err != nil {
		return nil, err
	}
	r := recentResource{text: bytes.Clone(text), attrs: a}
	if len(p.tab.resources) < maxResources {
		p.tab.resources[string(text)] = r
	}
	p.tab.remember(r)
	return a, nil
}
