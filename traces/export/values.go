package export

import (
	"encoding/base64"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kubeloom/kubeloom/traces"
)

// sortedKeys returns the keys of a in order, so that output does not depend
// on map iteration.
func sortedKeys(a traces.Attributes) []string {
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// plainValue converts an attribute value to something encoding/json writes
// without error and a reader recognises: NaN and ±Inf (which JSON cannot
// hold) become the strings "NaN", "+Inf" and "-Inf", as strconv writes them,
// byte slices become base64 strings, and maps and slices are converted
// element by element.
func plainValue(v any) any {
	switch v := v.(type) {
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return strconv.FormatFloat(v, 'g', -1, 64)
		}
		return v
	case []float64:
		out := make([]any, len(v))
		for i, f := range v {
			out[i] = plainValue(f)
		}
		return out
	case []byte:
		return base64.StdEncoding.EncodeToString(v)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = plainValue(e)
		}
		return out
	case traces.Attributes:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = plainValue(e)
		}
		return out
	}
	return v
}

// micros converts a duration to microseconds written as a JSON number with
// up to three decimals (nanoseconds), without a float's rounding: 1500ns is
// "1.5", 2s is "2000000".
func micros(d time.Duration) string {
	neg := d < 0
	if neg {
		d = -d
	}
	us, ns := int64(d/time.Microsecond), int64(d%time.Microsecond)
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	b.WriteString(strconv.FormatInt(us, 10))
	if ns != 0 {
		frac := strconv.FormatInt(1000+ns, 10)[1:] // three digits
		b.WriteByte('.')
		b.WriteString(strings.TrimRight(frac, "0"))
	}
	return b.String()
}
