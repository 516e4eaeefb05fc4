package scenarios

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
)

// escapedString is a string that holds characters YAML does not allow raw in a file (see
// yamlPrintable). goccy/go-yaml writes those raw, even in plain scalars, and Parse refuses such
// a file; this writes the string double-quoted with escapes ("\a", "\x1b", "\u009b"), which
// YAML reads back as the same string.
type escapedString string

// MarshalYAML writes the string as a double-quoted scalar: Go's escapes are YAML's for every
// character strconv.Quote escapes.
func (s escapedString) MarshalYAML() ([]byte, error) { return []byte(strconv.Quote(string(s))), nil }

// escapeStrings returns v with every string value that needs it made an escapedString. Maps
// become key-sorted MapSlices, as goccy/go-yaml writes maps. Keys are left as they are (the
// encoder takes only strings there): Parse refuses a key that would need escapes.
func escapeStrings(v any) any {
	switch x := v.(type) {
	case string:
		if strings.IndexFunc(x, func(r rune) bool { return !yamlPrintable(r) || r == '\t' }) >= 0 {
			return escapedString(x)
		}
		return x
	case []string:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = escapeStrings(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = escapeStrings(e)
		}
		return out
	case map[string]any:
		out := make(yaml.MapSlice, 0, len(x))
		for _, k := range slices.Sorted(maps.Keys(x)) {
			out = append(out, yaml.MapItem{Key: k, Value: escapeStrings(x[k])})
		}
		return out
	case yaml.MapSlice:
		out := make(yaml.MapSlice, len(x))
		for i, item := range x {
			out[i] = yaml.MapItem{Key: item.Key, Value: escapeStrings(item.Value)}
		}
		return out
	case []yaml.MapSlice:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = escapeStrings(e)
		}
		return out
	}
	return v
}
