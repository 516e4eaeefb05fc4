package timeline

import (
	"context"
	"slices"

	"github.com/kubeloom/kubeloom/traces"
)

// This file is the outline of Build: each step is in the file of its idea.
//
//	spaninfo.go   what Build reads of each span, once, and the instances
//	summary.go    the recording as a whole: scenario, start, end, links
//	spanindex.go  each span's parent, found by its IDs
//	order.go      the canonical order of spans, and the orders of marks and names
//	lanes.go      which lane each span belongs to, and who started each lane
//	lane.go       a lane's fields and marks, from its spans
//	labels.go     a label for each lane, unique within its instance
//	parallel.go   how the passes share the CPUs
//
// The instances' groups are group.go's, and Outline (outline.go) is Build
// without the marks.

// Build arranges a recording into a Timeline. It does not modify spans and
// does not depend on their order: the result is the same for any
// permutation of the same spans.
//
// A span belongs to the lane of its nearest ancestor (itself included) that
// is a goroutine lifetime span (it has goroutine.kind). A span with no such
// ancestor belongs to its instance's main lane, or to a lane named after the
// nearest goroutine.name on its path. When a parent is missing (a recording
// cut short loses the spans that had not ended, such as the lifetime of a
// goroutine that was still running) the span goes to an open lane for the
// missing parent if its path carries a goroutine.name (iteration spans do),
// and is counted as an orphan otherwise.
func Build(spans []traces.Span) *Timeline {
	tl, _ := build(context.Background(), spans, options{marks: true})
	return tl
}

// BuildContext is Build until ctx is done: then it stops between its
// passes over the spans (each linear in their number, under a second for a
// million) and returns context.Cause(ctx).
func BuildContext(ctx context.Context, spans []traces.Span) (*Timeline, error) {
	return build(ctx, spans, options{marks: true})
}

// options say how build works.
type options struct {
	marks bool // Build's marks; Outline leaves them out
	// perGoroutine is the fewest spans worth another goroutine (0:
	// defaultPerGoroutine). Tests lower it so that small recordings take
	// the paths of large ones.
	perGoroutine int
}

// builder holds what the steps of build share: the spans, what was read
// of each, and the timeline they fill in.
type builder struct {
	options
	spans []traces.Span
	info  []spanInfo
	tl    *Timeline
}

// build is Build, or Outline without the marks, until ctx is done.
func build(ctx context.Context, spans []traces.Span, o options) (*Timeline, error) {
	tl := &Timeline{Spans: len(spans), Outline: !o.marks}
	if len(spans) == 0 {
		return tl, nil
	}
	b := &builder{options: o, spans: spans, tl: tl}
	// What Build needs of each span's maps, read once (on all CPUs for a
	// large recording), so that the passes below touch no map; and, in
	// the same pass, what the recording says as a whole.
	insts, whole := b.read()
	b.summarize(whole)
	b.linkParents()
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}
	// Work in a canonical order so that the result does not depend on the
	// order of the file (the exporter writes spans as they end).
	accs := b.assignLanes(b.canonicalOrder())
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}
	built := b.buildLanes(accs)
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}
	b.spawnedBy(accs, built)
	b.arrange(insts, accs, built)
	return tl, nil
}

// arrange puts the lanes into their instances, sorts both, labels the
// lanes and groups them.
func (b *builder) arrange(insts []instKey, accs []*laneAcc, built []*Lane) {
	tl := b.tl
	instances := map[instID]*Instance{}
	for i, acc := range accs {
		in := instances[acc.key.inst]
		if in == nil {
			key := insts[acc.key.inst]
			in = &Instance{Service: key.service, ID: key.id}
			instances[acc.key.inst] = in
			tl.Instances = append(tl.Instances, in)
		}
		in.Lanes = append(in.Lanes, built[i])
	}
	slices.SortFunc(tl.Instances, func(a, b *Instance) int {
		if c := traces.NaturalCompare(a.Service, b.Service); c != 0 {
			return c
		}
		return traces.NaturalCompare(a.ID, b.ID)
	})
	for _, in := range tl.Instances {
		labelLanes(in.Lanes)
		slices.SortStableFunc(in.Lanes, func(a, b *Lane) int {
			if c := a.Start.Compare(b.Start); c != 0 {
				return c
			}
			return traces.NaturalCompare(a.Label, b.Label)
		})
		in.group()
	}
}
