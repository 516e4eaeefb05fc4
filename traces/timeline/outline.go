package timeline

import (
	"context"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
)

// Outline arranges a recording as Build does, lanes, labels, groups and
// all, but leaves out the marks: its lanes have no Iterations, Calls or
// Events, only their Tally. It is for a summary of the whole recording
// (`kubeloom replay --summary`), which counts marks and places none: the
// marks copy a span each, 128 bytes, a seventh of what the summary of a
// 900,000-span recording would hold, and on a machine where fresh memory
// is slow, as much of its time (docs/design.md, "Big recordings").
// Everything else is Build's: lanes, labels and groups come from the
// lifetime spans and the spans' goroutine attributes, not from the marks.
func Outline(spans []traces.Span) *Timeline {
	tl, _ := build(context.Background(), spans, options{})
	return tl
}

// OutlineContext is Outline until ctx is done, as BuildContext is Build.
func OutlineContext(ctx context.Context, spans []traces.Span) (*Timeline, error) {
	return build(ctx, spans, options{})
}

// OutlineAttributes are the attribute keys Outline reads. A recording read
// with only these and without its events (traces.ReadOptions) has the same
// outline but for the lanes' Attributes, which keep only these, and takes
// less memory: 60 MB less for the summary of a 900,000-span recording.
var OutlineAttributes = append([]string{
	catalog.AttrIteration, catalog.AttrSkipped, catalog.AttrControllerID,
	catalog.AttrLink, catalog.AttrClockOrigin,
	catalog.AttrLeaked, // the summary counts leaked goroutines (Lane.Leaked)
}, goroutineAttrs...)
