package scenarios

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/goccy/go-yaml/ast"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"
)

// This file maps the errors of client-go's JSON decoder back to positions in the YAML file.

// strictError reports an unknown field at the field's key.
func (d *decoder) strictError(w *jsonWriter, res Resource, obj runtime.Object, err error) {
	fe, ok := err.(interface{ FieldPath() string })
	if !ok {
		d.errorf(w.root, w.prefix, "invalid object: %v", err)
		return
	}
	fp := fe.FieldPath()
	at := w.keys[fp]
	if at == nil {
		at = w.root
	}
	msg := "unknown field"
	if strings.HasPrefix(err.Error(), "duplicate field") {
		msg = "duplicate field"
	}
	parent, leaf := fp, fp
	if i := strings.LastIndexByte(fp, '.'); i >= 0 {
		parent, leaf = fp[:i], fp[i+1:]
	} else {
		parent = ""
	}
	if obj != nil {
		if t, ok := structAt(reflect.TypeOf(obj), parent); ok {
			names := jsonFieldNames(t)
			explain := strings.TrimSuffix(res.Name+"."+stripIndexes(parent), ".")
			switch c, close := closest(leaf, names); {
			case len(names) <= 12:
				msg += "; expected one of " + strings.Join(names, ", ")
			case close:
				msg += fmt.Sprintf("; did you mean %s? (kubectl explain %s lists every field)", c, explain)
			default:
				msg += fmt.Sprintf("; kubectl explain %s lists the fields of %s", explain, t.Name())
			}
		}
	}
	d.errorf(at, w.full(fp), "%s", msg)
}

// decodeError reports a value of the wrong type at the value. The JSON decoder says how far it
// had read; the innermost value around that offset is the culprit.
func (d *decoder) decodeError(w *jsonWriter, res Resource, err error) {
	off, typ, ok := typeErrorDetails(err)
	if ok {
		var best *jsonSpan
		for i := range w.spans {
			s := &w.spans[i]
			if s.start < off && off <= s.end && (best == nil || s.end-s.start < best.end-best.start) {
				best = s
			}
		}
		if best != nil {
			d.expected(best.node, w.full(best.path), typeWant(typ))
			return
		}
	}
	if obj, nerr := scheme.Scheme.New(res.GVK); nerr == nil {
		if s, uerr, ok := w.failingValue(reflect.TypeOf(obj)); ok {
			d.errorf(s.node, w.full(s.path), "invalid value %s: %v", describe(s.node), uerr)
			return
		}
	}
	d.errorf(w.root, w.prefix, "invalid object: %s", strings.TrimPrefix(err.Error(), "json: "))
}

// failingValue finds the first scalar, in file order, that its Go type refuses on its own:
// types that decode themselves (resource.Quantity, metav1.Time, ...) and base64 []byte. The
// JSON decoder passes such errors on without saying where they happened.
func (w *jsonWriter) failingValue(root reflect.Type) (*jsonSpan, error, bool) {
	var found *jsonSpan
	var foundErr error
	for i := range w.spans {
		s := &w.spans[i]
		switch s.node.(type) {
		case *ast.MappingNode, *ast.SequenceNode:
			continue
		}
		if found != nil && s.start >= found.start {
			continue
		}
		t, ok := typeAt(root, s.path)
		if !ok {
			continue
		}
		if err := json.Unmarshal(w.buf[s.start:s.end], reflect.New(t).Interface()); err != nil {
			found, foundErr = s, err
		}
	}
	return found, foundErr, found != nil
}

// typeErrorDetails reads Offset and Type from a json.UnmarshalTypeError. The decoder client-go
// uses (sigs.k8s.io/json) returns its own internal copy of that type, so the fields are read by
// name.
func typeErrorDetails(err error) (int, reflect.Type, bool) {
	v := reflect.ValueOf(err)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct || !strings.HasSuffix(v.Elem().Type().Name(), "UnmarshalTypeError") {
		return 0, nil, false
	}
	v = v.Elem()
	off, typ := v.FieldByName("Offset"), v.FieldByName("Type")
	if !off.IsValid() || !off.CanInt() || !typ.IsValid() {
		return 0, nil, false
	}
	t, _ := typ.Interface().(reflect.Type)
	return int(off.Int()), t, t != nil
}

// typeWant says, for a Go type the decoder wanted, what to write in YAML.
func typeWant(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer that fits " + t.Kind().String()
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "a base64-encoded string"
		}
		return "a list"
	case reflect.Map, reflect.Struct:
		return "a mapping"
	}
	return "a value of type " + t.String()
}

// structAt follows a JSON field path ("spec.containers[0]") through Go types, to the struct
// that holds the path's fields.
func structAt(t reflect.Type, path string) (reflect.Type, bool) {
	t, ok := typeAt(t, path)
	return t, ok && t.Kind() == reflect.Struct
}

// typeAt follows a JSON field path through Go types and returns the type found there, without
// pointers.
func typeAt(t reflect.Type, path string) (reflect.Type, bool) {
	deref := func(t reflect.Type) reflect.Type {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		return t
	}
	t = deref(t)
	if path != "" {
		for _, seg := range strings.Split(path, ".") {
			name, indexes := seg, 0
			for strings.HasSuffix(name, "]") {
				i := strings.LastIndexByte(name, '[')
				if i < 0 {
					return nil, false
				}
				name, indexes = name[:i], indexes+1
			}
			switch t.Kind() {
			case reflect.Map:
				t = deref(t.Elem())
			case reflect.Struct:
				f, ok := jsonField(t, name)
				if !ok {
					return nil, false
				}
				t = deref(f.Type)
			default:
				return nil, false
			}
			for ; indexes > 0; indexes-- {
				if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
					return nil, false
				}
				t = deref(t.Elem())
			}
		}
	}
	return t, true
}

// jsonField finds the struct field that JSON calls name, looking into inlined structs.
func jsonField(t reflect.Type, name string) (found reflect.StructField, ok bool) {
	eachJSONField(t, func(tag string, f reflect.StructField) bool {
		if tag == name {
			found, ok = f, true
			return false
		}
		return true
	})
	return found, ok
}

// jsonFieldNames lists the JSON names of a struct's fields, sorted.
func jsonFieldNames(t reflect.Type) []string {
	var names []string
	eachJSONField(t, func(tag string, _ reflect.StructField) bool {
		names = append(names, tag)
		return true
	})
	sort.Strings(names)
	return names
}

// eachJSONField calls visit with the JSON name of every field JSON encodes,
// in field order, looking into inlined structs, until visit returns false.
// It reports whether the walk went to the end.
func eachJSONField(t reflect.Type, visit func(name string, f reflect.StructField) bool) bool {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, inline := jsonName(f)
		if inline {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct && !eachJSONField(ft, visit) {
				return false
			}
			continue
		}
		if tag != "" && !visit(tag, f) {
			return false
		}
	}
	return true
}

// jsonName returns the field's JSON name ("" when not encoded), or inline for embedded
// structs that JSON flattens (metav1.TypeMeta, metav1.ObjectMeta with ",inline").
func jsonName(f reflect.StructField) (name string, inline bool) {
	if !f.IsExported() && !f.Anonymous {
		return "", false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false
	}
	name, _, _ = strings.Cut(tag, ",")
	if name == "" && f.Anonymous {
		return "", true
	}
	if name == "" {
		name = f.Name
	}
	return name, false
}

func stripIndexes(path string) string {
	var b strings.Builder
	depth := 0
	for _, r := range path {
		switch {
		case r == '[':
			depth++
		case r == ']':
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// jsonWriter turns a YAML tree into JSON. It records each value's byte span and JSON path and
// each key's node, so that decoding errors can be traced back to the file. The paths use the
// notation of sigs.k8s.io/json's strict errors: "spec.containers[0].image".
type jsonWriter struct {
	d      *decoder
	prefix string // the object's path in the scenario, e.g. spec.objects[0]
	root   ast.Node
	buf    []byte
	spans  []jsonSpan
	keys   map[string]ast.Node // JSON path → key node
	vals   map[string]ast.Node // JSON path → value node
	ok     bool
}

type jsonSpan struct {
	start, end int
	node       ast.Node
	path       string
}

// full returns the scenario path of a JSON path inside the object.
func (w *jsonWriter) full(jp string) string {
	if jp == "" {
		return w.prefix
	}
	if strings.HasPrefix(jp, "[") {
		return w.prefix + jp
	}
	return w.prefix + "." + jp
}

// at returns the node to point at for a JSON path: its value, else its key, else the object.
func (w *jsonWriter) at(jp string) ast.Node {
	if n := w.vals[jp]; n != nil {
		return n
	}
	if n := w.keys[jp]; n != nil {
		return n
	}
	return w.root
}

func (w *jsonWriter) write(n ast.Node, jp string) {
	if w.root == nil {
		w.root = n
	}
	n, ok := w.d.value(n, w.full(jp))
	if !ok {
		w.ok = false
		w.buf = append(w.buf, "null"...)
		return
	}
	start := len(w.buf)
	switch v := n.(type) {
	case *ast.MappingNode:
		w.buf = append(w.buf, '{')
		seen := map[string]ast.Node{}
		first := true
		for _, mv := range v.Values {
			if mv == nil || mv.Key == nil {
				continue
			}
			name, ok := w.key(mv.Key, jp)
			if !ok {
				continue
			}
			kp := name
			if jp != "" {
				kp = jp + "." + name
			}
			if prev, dup := seen[name]; dup {
				w.d.duplicateField(mv.Key, prev, w.full(kp))
				w.ok = false
				continue
			}
			seen[name] = mv.Key
			if !first {
				w.buf = append(w.buf, ',')
			}
			first = false
			w.buf = appendJSONString(w.buf, name)
			w.buf = append(w.buf, ':')
			w.keys[kp] = mv.Key
			w.write(mv.Value, kp)
		}
		w.buf = append(w.buf, '}')
	case *ast.SequenceNode:
		w.buf = append(w.buf, '[')
		for i, item := range v.Values {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			w.write(item, index(jp, i))
		}
		w.buf = append(w.buf, ']')
	case *ast.StringNode:
		w.buf = appendJSONString(w.buf, v.Value)
	case *ast.LiteralNode:
		s, _ := str(v)
		w.buf = appendJSONString(w.buf, s)
	case *ast.IntegerNode:
		switch x := v.Value.(type) {
		case int64:
			w.buf = strconv.AppendInt(w.buf, x, 10)
		case uint64:
			w.buf = strconv.AppendUint(w.buf, x, 10)
		default:
			w.d.expected(v, w.full(jp), "a number")
			w.ok = false
			w.buf = append(w.buf, "null"...)
		}
	case *ast.FloatNode:
		w.buf = strconv.AppendFloat(w.buf, v.Value, 'g', -1, 64)
	case *ast.BoolNode:
		w.buf = strconv.AppendBool(w.buf, v.Value)
	case *ast.NullNode:
		w.buf = append(w.buf, "null"...)
	case *ast.InfinityNode, *ast.NanNode:
		w.d.errorf(v, w.full(jp), "expected a finite number, got %s; quote it if it is text", describe(v))
		w.ok = false
		w.buf = append(w.buf, "null"...)
	default:
		w.d.errorf(v, w.full(jp), "unsupported YAML %s", v.Type())
		w.ok = false
		w.buf = append(w.buf, "null"...)
	}
	w.spans = append(w.spans, jsonSpan{start: start, end: len(w.buf), node: n, path: jp})
	if jp != "" {
		w.vals[jp] = n
	}
}

// key returns a mapping key as JSON object key. Scalar keys are written as their text, as
// sigs.k8s.io/yaml (kubectl) does.
func (w *jsonWriter) key(k ast.MapKeyNode, jp string) (string, bool) {
	if w.d.unsupportedKey(k, w.full(jp)) {
		w.ok = false
		return "", false
	}
	if name, ok := keyName(k); ok {
		// No key of a Kubernetes object holds a character that does not print (field names,
		// label and data keys all have rules that exclude them); one that did could not be
		// written back by Marshal, nor shown safely.
		if strings.IndexFunc(name, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
			w.d.errorf(k, w.full(jp), "expected a key of printing characters, got %s", quote(name))
			w.ok = false
			return "", false
		}
		return name, true
	}
	w.ok = false // the key is unusable or has an anchor or tag: reported by d.key
	name, ok := w.d.key(k, w.full(jp))
	return name, ok
}

func appendJSONString(buf []byte, s string) []byte {
	b, _ := json.Marshal(s) // never fails for a string
	return append(buf, b...)
}
