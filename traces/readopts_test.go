package traces

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// ReadWith reads what Read reads, less what the options leave out, from
// lines as the Recorder writes them and variants of them, with the same
// errors.
func TestReadWithLeavesOut(t *testing.T) {
	out, err := recorderOutput(t, testSpans(t))
	if err != nil {
		t.Fatal(err)
	}
	lines := append(lineVariants(t), strings.Split(strings.TrimSpace(out), "\n")...)
	text := strings.Join(lines, "\n") + "\n"
	all, allErr := Read(strings.NewReader(text), "x")

	// Keep every other attribute key the spans have.
	var keys []string
	for _, s := range all {
		for _, a := range append([]Attributes{s.Attributes}, linkAttributes(s)...) {
			for k := range a {
				keys = append(keys, k)
			}
		}
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	var kept []string
	for i, k := range keys {
		if i%2 == 0 {
			kept = append(kept, k)
		}
	}
	if len(kept) == 0 || len(kept) == len(keys) {
		t.Fatalf("keys %q: nothing to keep or to leave out", keys)
	}
	got, gotErr := ReadWith(strings.NewReader(text), "x", ReadOptions{Attributes: kept, NoEvents: true})
	if fmt.Sprint(gotErr) != fmt.Sprint(allErr) {
		t.Errorf("errors:\n%v\nwant Read's:\n%v", gotErr, allErr)
	}
	if len(got) != len(all) {
		t.Fatalf("%d spans, want %d", len(got), len(all))
	}
	keep := map[string]bool{}
	for _, k := range kept {
		keep[k] = true
	}
	only := func(a Attributes) Attributes {
		var b Attributes
		for k, v := range a {
			if keep[k] {
				if b == nil {
					b = Attributes{}
				}
				b[k] = v
			}
		}
		return b
	}
	events, resources := 0, 0
	for i, want := range all {
		events += len(want.Events)
		if len(want.Resource) > 0 {
			resources++
		}
		want.Events = nil
		want.Attributes = only(want.Attributes)
		want.Links = slices.Clone(want.Links)
		for j := range want.Links {
			want.Links[j].Attributes = only(want.Links[j].Attributes)
		}
		if !sameSpan(got[i], want) {
			t.Errorf("line %d: read\n  %#v\nwant\n  %#v", want.Line, got[i], want)
		}
	}
	if events == 0 || resources == 0 || allErr == nil || !errors.As(allErr, new(*LineError)) {
		t.Errorf("%d events, %d resources, errors %v: the lines should have all of them", events, resources, allErr)
	}
}

func linkAttributes(s Span) []Attributes {
	var a []Attributes
	for _, l := range s.Links {
		a = append(a, l.Attributes)
	}
	return a
}
