package scenarios

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"
)

// decoder walks the YAML syntax tree of one file and collects every problem it finds.
// Positions come from the tree, so every error names the exact line and column.
type decoder struct {
	file string
	errs errorList
}

// pos returns where n is in the file. A block mapping's own token is the first ':' of it, so
// for those the first key is used: that is where a reader's eye goes.
func (d *decoder) pos(n ast.Node) Position {
	p := Position{File: d.file}
	switch m := n.(type) {
	case nil:
		return p
	case *ast.MappingNode:
		if !m.IsFlowStyle && len(m.Values) > 0 && m.Values[0].Key != nil {
			return d.pos(m.Values[0].Key)
		}
	case *ast.MappingValueNode:
		if m.Key != nil {
			return d.pos(m.Key)
		}
	}
	if tk := n.GetToken(); tk != nil && tk.Position != nil {
		p.Line, p.Column = tk.Position.Line, tk.Position.Column
	}
	return p
}

func (d *decoder) errorf(n ast.Node, path, format string, args ...any) {
	d.errs.add(d.pos(n), path, format, args...)
}

// expected reports that n is not what path needs.
func (d *decoder) expected(n ast.Node, path, what string) {
	d.errorf(n, path, "expected %s, got %s", what, describe(n))
}

// value returns n with the YAML features kubeloom does not support reported: anchors (&a),
// aliases (*a), tags (!!str). It returns false when nothing usable is left. Anchors and
// aliases are rejected rather than expanded: a scenario is short, written out in full it is
// easier to read, and expansion invites "billion laughs" documents.
func (d *decoder) value(n ast.Node, path string) (ast.Node, bool) {
	for {
		switch v := n.(type) {
		case nil:
			return nil, false
		case *ast.AnchorNode:
			d.errorf(v, path, "YAML anchors (&%s) are not supported in scenario files; write the value out in full", anchorName(v.Name))
			n = v.Value
		case *ast.AliasNode:
			d.errorf(v, path, "YAML aliases (*%s) are not supported in scenario files; write the value out in full", anchorName(v.Value))
			return nil, false
		case *ast.TagNode:
			tag := ""
			if v.Start != nil {
				tag = v.Start.Value
			}
			d.errorf(v, path, "YAML tags (%s) are not supported in scenario files; quote a value to make it a string", tag)
			n = v.Value
		default:
			return n, true
		}
	}
}

func anchorName(n ast.Node) string {
	if n == nil {
		return ""
	}
	return n.String()
}

// describe says what n is, for "got ..." in error messages.
func describe(n ast.Node) string {
	switch v := n.(type) {
	case nil:
		return "nothing"
	case *ast.NullNode:
		return "null"
	case *ast.StringNode:
		return quote(v.Value)
	case *ast.LiteralNode:
		return "a block of text"
	case *ast.MappingNode:
		if len(v.Values) == 0 {
			return "an empty mapping"
		}
		return "a mapping"
	case *ast.SequenceNode:
		if len(v.Values) == 0 {
			return "an empty list"
		}
		return "a list"
	case *ast.AnchorNode:
		return describe(v.Value)
	case *ast.TagNode:
		return describe(v.Value)
	case *ast.AliasNode:
		return "an alias"
	}
	if tk := n.GetToken(); tk != nil {
		return tk.Value
	}
	return n.Type().String()
}

// quote quotes s for an error message, shortening long values.
func quote(s string) string {
	const max = 40
	if utf8.RuneCountInString(s) > max {
		r := []rune(s)
		return strconv.Quote(string(r[:max])) + "…"
	}
	return strconv.Quote(s)
}

// keyName returns a mapping key as text. Only plain scalars are keys in scenario files.
func keyName(k ast.Node) (string, bool) {
	switch v := k.(type) {
	case *ast.StringNode:
		return v.Value, true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.NullNode, *ast.InfinityNode, *ast.NanNode:
		if tk := v.GetToken(); tk != nil {
			return tk.Value, true
		}
	}
	return "", false
}

// key returns a mapping key's text; anchors and tags on keys are reported and looked through.
func (d *decoder) key(k ast.Node, path string) (string, bool) {
	if name, ok := keyName(k); ok {
		return name, true
	}
	u, ok := d.value(k, path)
	if !ok {
		return "", false
	}
	if name, ok := keyName(u); ok {
		return name, true
	}
	d.errorf(k, path, "expected a field name, got %s", describe(u))
	return "", false
}

// field is one key: value pair of a mapping.
type field struct {
	key  ast.Node
	val  ast.Node // nil when the value is unusable (already reported)
	path string
}

// fields holds the known keys of one mapping.
type fields struct {
	d     *decoder // reports what the typed reads find wrong
	node  ast.Node
	path  string
	m     map[string]*field
	order []string // field names in file order
}

// get returns the usable value of a field, or false when it is absent or unusable.
func (f *fields) get(name string) (*field, bool) {
	fl, ok := f.m[name]
	if !ok || fl.val == nil {
		return nil, false
	}
	return fl, true
}

// has reports whether the field is written in the file at all.
func (f *fields) has(name string) bool {
	_, ok := f.m[name]
	return ok
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func index(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

// mapping checks that n is a mapping whose keys are all in known, each once. A null value is
// taken as an empty mapping, as Kubernetes does. It returns false when n is not a mapping.
func (d *decoder) mapping(n ast.Node, path, what string, known []string) (*fields, bool) {
	f := &fields{d: d, node: n, path: path, m: map[string]*field{}}
	switch v := n.(type) {
	case *ast.NullNode:
		return f, true
	case *ast.MappingNode:
		for _, mv := range v.Values {
			d.mappingValue(f, mv, known)
		}
		return f, true
	}
	d.expected(n, path, what)
	return nil, false
}

// unsupportedKey reports the key forms scenario files refuse (merge keys,
// complex keys) and says whether k is one.
func (d *decoder) unsupportedKey(k ast.MapKeyNode, path string) bool {
	switch k.(type) {
	case *ast.MergeKeyNode:
		d.errorf(k, path, "YAML merge keys (<<) are not supported in scenario files; write the fields out in full")
		return true
	case *ast.MappingKeyNode:
		d.errorf(k, path, "complex YAML keys (? key) are not supported in scenario files; write key: value")
		return true
	}
	return false
}

// duplicateField reports a field set a second time, at k.
func (d *decoder) duplicateField(k, first ast.Node, path string) {
	p := d.pos(first)
	d.errorf(k, path, "duplicate field (first set at line %d, column %d); a field may appear only once", p.Line, p.Column)
}

func (d *decoder) mappingValue(f *fields, mv *ast.MappingValueNode, known []string) {
	if mv == nil || mv.Key == nil {
		return
	}
	if d.unsupportedKey(mv.Key, f.path) {
		return
	}
	name, ok := d.key(mv.Key, f.path)
	if !ok {
		return
	}
	path := join(f.path, name)
	if !slices.Contains(known, name) {
		if len(known) == 0 {
			d.errorf(mv.Key, path, "unknown field; expected no fields: write {}")
		} else {
			d.errorf(mv.Key, path, "unknown field; expected one of %s", strings.Join(known, ", "))
		}
		return
	}
	if prev, dup := f.m[name]; dup {
		d.duplicateField(mv.Key, prev.key, path)
		return
	}
	val, _ := d.value(mv.Value, path)
	f.m[name] = &field{key: mv.Key, val: val, path: path}
	f.order = append(f.order, name)
}

// sequence returns the items of a list (null is an empty list), or false when n is not one.
func (d *decoder) sequence(n ast.Node, path, what string) ([]ast.Node, bool) {
	switch v := n.(type) {
	case *ast.NullNode:
		return nil, true
	case *ast.SequenceNode:
		return v.Values, true
	}
	d.expected(n, path, what)
	return nil, false
}

// str returns the text of a string scalar. Numbers and booleans are not strings: a file that
// says name: 123 is told to quote it, as the Kubernetes API would.
func str(n ast.Node) (string, bool) {
	switch v := n.(type) {
	case *ast.StringNode:
		return v.Value, true
	case *ast.LiteralNode:
		if v.Value == nil {
			return "", true
		}
		return v.Value.Value, true
	}
	return "", false
}

// scalarText returns the text of any scalar (used for command-line flag values).
func scalarText(n ast.Node) (string, bool) {
	if s, ok := str(n); ok {
		return s, true
	}
	switch n.(type) {
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode:
		if tk := n.GetToken(); tk != nil {
			return tk.Value, true
		}
	}
	return "", false
}

// integer returns the value of an integer scalar that fits an int64.
func integer(n ast.Node) (int64, bool) {
	v, ok := n.(*ast.IntegerNode)
	if !ok {
		return 0, false
	}
	switch x := v.Value.(type) {
	case int64:
		return x, true
	case uint64:
		if x <= math.MaxInt64 {
			return int64(x), true
		}
	}
	return 0, false
}

// number returns the value of a finite integer or float scalar.
func number(n ast.Node) (float64, bool) {
	if i, ok := integer(n); ok {
		return float64(i), true
	}
	if v, ok := n.(*ast.FloatNode); ok && !math.IsNaN(v.Value) && !math.IsInf(v.Value, 0) {
		return v.Value, true
	}
	return 0, false
}

func boolean(n ast.Node) (bool, bool) {
	v, ok := n.(*ast.BoolNode)
	if !ok {
		return false, false
	}
	return v.Value, true
}

// duration returns a Go duration string's value ("30s", "1m30s"). A bare 0 is also zero.
func duration(n ast.Node) (time.Duration, bool) {
	if i, ok := integer(n); ok && i == 0 {
		return 0, true
	}
	s, ok := n.(*ast.StringNode)
	if !ok {
		return 0, false
	}
	v, err := time.ParseDuration(s.Value)
	return v, err == nil
}

// badDuration reports that n is not the duration path needs, with a hint when a bare number
// lacks its unit.
func (d *decoder) badDuration(n ast.Node, path, what string) {
	text := ""
	if _, ok := number(n); ok {
		text = n.GetToken().Value
	} else if s, ok := n.(*ast.StringNode); ok {
		if _, err := strconv.ParseFloat(s.Value, 64); err == nil {
			text = s.Value
		}
	}
	if text != "" && !strings.HasPrefix(text, "-") {
		d.errorf(n, path, "expected %s, got %s; add a unit, e.g. %ss", what, describe(n), text)
		return
	}
	d.expected(n, path, what)
}
