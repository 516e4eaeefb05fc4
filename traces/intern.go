package traces

import "math"

// internTable holds the values shared between the spans one reader
// goroutine parses: the strings that repeat (attribute keys, span names,
// goroutine names), boxed attribute values, the Resource maps of the spans
// of one resource, and attribute lists that repeat. Its maps are bounded:
// past their size, values are allocated as usual.
type internTable struct {
	strs      map[string]string
	vals      map[string]any // boxed strings, for attribute values
	floats    map[uint64]any
	ints      [1024]any
	resources map[string]recentResource // by the JSON text of the Resource
	recent    [4]recentResource         // the last resources seen, most recent first
	scopes    [2]recentScope            // the last scope objects seen
	lists     map[string]Attributes     // attribute lists of strings and booleans, by their text
	trimmed   map[string]Attributes     // the same, of the attributes keep keeps
	pairs     []keyValue                // scratch space for attributes
	keep      keeper                    // what of a span to keep
}

// recentResource is a resource's text and map.
type recentResource struct {
	text  []byte
	attrs Attributes
}

// recentScope is the text of an InstrumentationScope (or Library) object
// and its name.
type recentScope struct {
	text []byte
	name string
}

const (
	maxInterned    = 1 << 16
	maxInternedLen = 96
	maxResources   = 4096
	maxSharedList  = 512 // the longest attribute list (as text) spans share
)

func newInternTable(keep keeper) *internTable {
	return &internTable{
		keep:      keep,
		strs:      make(map[string]string, 256),
		vals:      make(map[string]any, 256),
		floats:    map[uint64]any{},
		resources: map[string]recentResource{},
		lists:     map[string]Attributes{},
		trimmed:   map[string]Attributes{},
	}
}

func (t *internTable) str(b []byte) string {
	if len(b) > maxInternedLen {
		return string(b)
	}
	if s, ok := t.strs[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(t.strs) < maxInterned {
		t.strs[s] = s
	}
	return s
}

func (t *internTable) strValue(b []byte) any {
	if len(b) > maxInternedLen {
		return string(b)
	}
	if v, ok := t.vals[string(b)]; ok {
		return v
	}
	var v any = t.str(b)
	if len(t.vals) < maxInterned {
		t.vals[v.(string)] = v
	}
	return v
}

func (t *internTable) intValue(n int64) any {
	if n < 0 || n >= int64(len(t.ints)) {
		return n
	}
	if t.ints[n] == nil {
		t.ints[n] = n
	}
	return t.ints[n]
}

func (t *internTable) floatValue(f float64) any {
	bits := math.Float64bits(f)
	if v, ok := t.floats[bits]; ok {
		return v
	}
	var v any = f
	if len(t.floats) < 4096 {
		t.floats[bits] = v
	}
	return v
}

// remember makes a resource the most recent one. The text is the table's
// own copy: a recording of a hundred kubelets switches resource at almost
// every line, and a copy each time would be a third of a kilobyte of
// garbage a span.
func (t *internTable) remember(r recentResource) {
	copy(t.recent[1:], t.recent[:len(t.recent)-1])
	t.recent[0] = r
}
