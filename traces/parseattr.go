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
	_, err := p.array(func(i int) error {
		key, value, err := p.keyValue()
		if err != nil {
			return p.attrError(field, i, key, err)
		}
		if !p.tab.keep.keeps(key) {
			return nil
		}
		switch value.(type) {
		case string, bool, []string:
		default:
			shareable = false
		}
		pairs = append(pairs, keyValue{key, value})
		return nil
	})
	p.tab.pairs = pairs[:0]
	if err != nil || len(pairs) == 0 {
		return nil, p.kind(field, "an array", err)
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
	a := make(Attributes, len(pairs))
	for _, kv := range pairs {
		a[kv.key] = kv.value
	}
	if shareable && len(text) <= maxSharedList && len(lists) < maxInterned {
		lists[string(text)] = a
	}
	return a, nil
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
	var seen int
	var typ, raw []byte
	_, err = p.object(keyValueOrder, func(k []byte) error {
		var err error
		switch string(k) {
		case "Key":
			if seen&1 != 0 {
				return twice("Key")
			}
			seen |= 1
			var b []byte
			b, _, err = p.stringOrNull()
			key = p.tab.str(b)
			return p.field("Key", "a string", err)
		case "Value":
			if seen&2 != 0 {
				return twice("Value")
			}
			seen |= 2
			if typ, raw, err = p.typedValue(); err == errKind {
				return p.field("Value", "an object", err)
			}
			return err
		}
		return p.skipValue()
	})
	if err != nil {
		return key, nil, err
	}
	value, err = p.value(typ, raw)
	return key, value, err
}

// typedValue reads {"Type":...,"Value":...}, or null: the type, and the
// value's JSON text (nil if there is none).
func (p *parser) typedValue() (typ, raw []byte, err error) {
	var seen int
	_, err = p.object(valueOrder, func(k []byte) error {
		switch string(k) {
		case "Type":
			if seen&1 != 0 {
				return twice("Type")
			}
			seen |= 1
			var err error
			typ, _, err = p.stringOrNull()
			return p.field("Type", "a string", err)
		case "Value":
			if seen&2 != 0 {
				return twice("Value")
			}
			seen |= 2
			p.ws()
			start := p.p
			if err := p.skipValue(); err != nil {
				return err
			}
			raw = p.b[start:p.p]
			return nil
		}
		return p.skipValue()
	})
	return typ, raw, err
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
	sub := parser{b: raw, tab: p.tab}
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
		if isNull {
			return []string(nil), nil
		}
		list := make([]string, 0, bytes.Count(raw, []byte{','})+1) // at least the elements
		if sub.elements(func(el []byte) bool {
			if el[0] != '"' {
				return false
			}
			b, _ := (&parser{b: el}).stringBytes()
			list = append(list, p.tab.str(b))
			return true
		}) != nil {
			return nil, bad("an array of strings")
		}
		return list, nil
	case "BOOLSLICE":
		if isNull {
			return []bool(nil), nil
		}
		list := []bool{}
		if sub.elements(func(el []byte) bool {
			list = append(list, string(el) == "true")
			return string(el) == "true" || string(el) == "false"
		}) != nil {
			return nil, bad("an array of booleans")
		}
		return list, nil
	case "INT64SLICE":
		if isNull {
			return []int64(nil), nil
		}
		list := []int64{}
		if sub.elements(func(el []byte) bool {
			n, err := strconv.ParseInt(string(el), 10, 64)
			list = append(list, n)
			return err == nil
		}) != nil {
			return nil, bad("an array of 64-bit integers")
		}
		return list, nil
	case "FLOAT64SLICE":
		if isNull {
			return []float64(nil), nil
		}
		list := []float64{}
		if sub.elements(func(el []byte) bool {
			f, ok := parseFloat(el)
			list = append(list, f)
			return ok
		}) != nil {
			return nil, bad("an array of numbers")
		}
		return list, nil
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
		list := []any{}
		_, err := sub.array(func(i int) error {
			typ, raw, err := sub.typedValue()
			if err == nil {
				var x any
				x, err = sub.value(typ, raw)
				list = append(list, x)
			}
			if err != nil && err != errKind {
				return fmt.Errorf("SLICE element %d: %w", i, err)
			}
			return err
		})
		if err == errKind {
			return nil, bad(`an array of {"Type":...,"Value":...} objects`)
		}
		return list, err
	case "MAP":
		m := Attributes{}
		if isNull {
			return m, nil
		}
		_, err := sub.array(func(i int) error {
			key, x, err := sub.keyValue()
			if err != nil && err != errKind {
				return fmt.Errorf("MAP entry %d (%s): %w", i, quote(key), err)
			}
			m[key] = x
			return err
		})
		if err == errKind {
			return nil, bad(`an array of {"Key":...,"Value":...} objects`)
		}
		return m, err
	case "EMPTY", "INVALID":
		return nil, nil
	case "":
		return nil, missing("Type", "one of "+attrTypes)
	}
	return nil, &fieldError{"Type", fmt.Errorf("unknown attribute type %s; expected one of %s", quote(string(typ)), attrTypes)}
}

// elements reads an array of JSON values, calling ok with the text of
// each; errKind if it is not an array, or ok refuses an element.
func (p *parser) elements(ok func(el []byte) bool) error {
	_, err := p.array(func(int) error {
		p.ws()
		start := p.p
		if err := p.skipValue(); err != nil {
			return err
		}
		if !ok(p.b[start:p.p]) {
			return errKind
		}
		return nil
	})
	return err
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
