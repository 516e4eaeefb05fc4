package main

import (
	"strings"
	"testing"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces/diff"
	"github.com/kubeloom/kubeloom/traces/timeline"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// diff's report notes the sides that did not run in turns on one core,
// and says nothing when both did: a side built by hand, its scenario's
// root span saying how it ran (or, as an older recording, nothing).
func TestVaries(t *testing.T) {
	side := func(turns any) diff.Side {
		rec := tt.New("varies")
		rec.Instance(catalog.ServiceScenario, "scenario")
		attrs := []any{}
		if turns != nil {
			attrs = []any{catalog.AttrRunInTurns, turns}
		}
		rec.Span(tt.Root, "scenario varies", 0, 1, attrs...)
		return diff.Side{TL: timeline.Build(rec.Spans())}
	}
	inTurns, onCores, older := side(true), side(false), side(nil)
	for _, c := range []struct {
		name  string
		a, b  diff.Side
		which string // "" for no note
	}{
		{"both in turns", inTurns, inTurns, ""},
		{"A on every core", onCores, inTurns, "A was"},
		{"B older", inTurns, older, "B was"},
		{"neither", onCores, older, "A and B were"},
	} {
		got := varies(c.a, c.b)
		switch {
		case c.which == "" && got != "":
			t.Errorf("%s: %q, want no note", c.name, got)
		case c.which != "" && (!strings.HasPrefix(got, "note: "+c.which+" not run in turns") || !strings.Contains(got, "--cores 1")):
			t.Errorf("%s: %q, want a note that %s not run in turns, and how to", c.name, got, c.which)
		}
	}
}
