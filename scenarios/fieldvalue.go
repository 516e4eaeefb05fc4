package scenarios

import (
	"cmp"
	"slices"
	"strconv"
	"time"

	"github.com/goccy/go-yaml/ast"
	"k8s.io/apimachinery/pkg/util/validation"
)

// fieldValue is one field of a mapping, looked up to be read as a typed value (f.optional,
// f.required). Its readers (str, integer, number, boolean, duration, oneOf) report a wrong
// value themselves, at the value, as "expected WANT, got …". They return the value as written
// when it has the right type, even when it is out of range (a later check may still use it:
// an action's at against spec.duration), else the zero value; and ok only for a valid value.
// An absent field, or one whose value is unusable (an alias, already reported), reads as the
// zero value and not ok, and reports nothing.
type fieldValue struct {
	d    *decoder
	fl   *field // nil: absent or unusable
	want string // what the field expects, for the error messages
}

// optional looks up a field that may be left out.
func (f *fields) optional(name, want string) fieldValue {
	fl, _ := f.get(name)
	return fieldValue{d: f.d, fl: fl, want: want}
}

// required looks up a field that must be written, and reports it when it is missing.
func (f *fields) required(name, want string) fieldValue {
	fl, _ := f.need(name, want)
	return fieldValue{d: f.d, fl: fl, want: want}
}

// need returns a field's usable value, and reports the field when it is missing.
func (f *fields) need(name, want string) (*field, bool) {
	fl, ok := f.get(name)
	if !ok && !f.has(name) {
		f.missing(name, want)
	}
	return fl, ok
}

// missing reports a required field that is not written, at the mapping that lacks it.
func (f *fields) missing(name, want string) {
	f.d.errorf(f.node, join(f.path, name), "required field is missing; expected %s", want)
}

// set reports whether the field is written with a usable value (right or wrong).
func (v fieldValue) set() bool { return v.fl != nil }

// wrong reports the value as not what the field expects.
func (v fieldValue) wrong() { v.d.expected(v.fl.val, v.fl.path, v.want) }

// str reads a string; valid (nil: any string) says which strings are right.
func (v fieldValue) str(valid func(string) bool) (string, bool) {
	if v.fl == nil {
		return "", false
	}
	s, ok := str(v.fl.val)
	if !ok || (valid != nil && !valid(s)) {
		v.wrong()
		return s, false
	}
	return s, true
}

// integer reads an integer from lo to hi.
func (v fieldValue) integer(lo, hi int64) (int64, bool) { return inRange(v, integer, lo, hi, v.wrong) }

// number reads a finite number from lo to hi.
func (v fieldValue) number(lo, hi float64) (float64, bool) {
	return inRange(v, number, lo, hi, v.wrong)
}

// duration reads a duration from lo to hi, such as 30s; a bare number is told to add a unit.
func (v fieldValue) duration(lo, hi time.Duration) (time.Duration, bool) {
	return inRange(v, duration, lo, hi, func() { v.d.badDuration(v.fl.val, v.fl.path, v.want) })
}

// inRange reads a value with parse and checks it is from lo to hi, calling wrong when not.
func inRange[T cmp.Ordered](v fieldValue, parse func(ast.Node) (T, bool), lo, hi T, wrong func()) (T, bool) {
	if v.fl == nil {
		var zero T
		return zero, false
	}
	x, ok := parse(v.fl.val)
	if !ok || x < lo || x > hi {
		wrong()
		return x, false
	}
	return x, true
}

// boolean reads true or false.
func (v fieldValue) boolean() (bool, bool) {
	if v.fl == nil {
		return false, false
	}
	b, ok := boolean(v.fl.val)
	if !ok {
		v.wrong()
	}
	return b, ok
}

// oneOf reads one of choices, suggesting the nearest when a string is close to one.
func (v fieldValue) oneOf(choices []string) (string, bool) {
	if v.fl == nil {
		return "", false
	}
	s, ok := str(v.fl.val)
	if ok && slices.Contains(choices, s) {
		return s, true
	}
	if c, near := closest(s, choices); ok && near {
		v.d.errorf(v.fl.val, v.fl.path, "expected %s, got %s; did you mean %s?", v.want, describe(v.fl.val), c)
		return "", false
	}
	v.wrong()
	return "", false
}

// count reads an optional integer from 1 to limit (replicas, kubelets, handlers).
func (f *fields) count(name string, limit int) (int, bool) {
	n, ok := f.optional(name, "an integer ≥ 1 and ≤ "+strconv.Itoa(limit)).integer(1, int64(limit))
	return int(n), ok
}

// usable reports whether a field is written with a usable value: absent and unusable (an
// alias, already reported) fields are not.
func (f *fields) usable(name string) bool {
	_, ok := f.get(name)
	return ok
}

// String checks the readers take.

func nonEmpty(s string) bool { return s != "" }

// isDNSLabel: lower-case letters, digits and '-', at most 63 characters (a namespace).
func isDNSLabel(s string) bool { return len(validation.IsDNS1123Label(s)) == 0 }

// isDNSSubdomain: DNS labels joined by '.' (most object names).
func isDNSSubdomain(s string) bool { return len(validation.IsDNS1123Subdomain(s)) == 0 }

// is accepts exactly want.
func is(want string) func(string) bool { return func(s string) bool { return s == want } }
