package htmlview

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"testing"

	"github.com/kubeloom/kubeloom/traces/timeline"
)

// TestWriteDataIsEncodingJSON: the data written a piece at a time is what
// encoding/json writes of the whole, byte for byte, for timelines big and
// small, empty, and with the slices encoding/json writes as null.
func TestWriteDataIsEncodingJSON(t *testing.T) {
	withNulls := encode(timeline.Build(small()))
	withNulls.Lanes, withNulls.Steps, withNulls.Flows = nil, nil, nil
	for name, d := range map[string]*data{
		"small":     encode(timeline.Build(small())),
		"synthetic": encode(timeline.Build(synthetic(5000))),
		"empty":     encode(timeline.Build(nil)),
		"nulls":     withNulls,
	} {
		var want bytes.Buffer
		if err := json.NewEncoder(&want).Encode(d); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		w := bufio.NewWriter(&got)
		if err := writeData(w, d); err != nil {
			t.Fatal(err)
		}
		w.WriteString("\n")
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			i := 0
			for i < min(got.Len(), want.Len()) && got.Bytes()[i] == want.Bytes()[i] {
				i++
			}
			t.Errorf("%s: writeData differs from encoding/json at byte %d of %d:\n got …%s\nwant …%s", name, i, want.Len(),
				got.Bytes()[max(0, i-40):min(got.Len(), i+40)], want.Bytes()[max(0, i-40):min(want.Len(), i+40)])
		}
	}
}

// TestValuesByValue: the value table has each value's JSON once, whatever
// the Go value that gave it, and values that compare equal but encode
// apart (0 and -0) stay apart.
func TestValuesByValue(t *testing.T) {
	e := &encoder{d: &data{}, vals: map[string]int{}, known: map[any]int{}}
	negZero := math.Copysign(0, -1)
	for _, v := range []any{"a", int64(5), 5.0, 0.0, negZero, math.NaN(), true, "a", []string{"a"}, negZero, 0.0, math.NaN(), int64(0)} {
		e.value(v)
	}
	var got []string
	for _, raw := range e.d.Values {
		got = append(got, string(raw))
	}
	want := []string{`"a"`, `5`, `0`, `-0`, `"NaN"`, `true`, `["a"]`}
	if !slices.Equal(got, want) {
		t.Errorf("values = %q, want %q", got, want)
	}
}
