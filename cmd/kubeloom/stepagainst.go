package main

import (
	"context"

	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/diff"
	"github.com/kubeloom/kubeloom/traces/stepview"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// stepped is what step shows: A's timeline and spans (the spans give the
// interactive view its causal links and tree), and with --against what A
// is compared with.
type stepped struct {
	tl      *timeline.Timeline
	spans   []traces.Span
	against *stepview.Against
	done    func() // after the view is built: resumes the collector (readTimelines); never nil, idempotent
}

// readStepped reads A and, with --against, B in parallel, each with the
// reader every command uses, as diff does: B costs no more time than the
// bigger of the two. A's instances and B's pair by role as diff pairs
// them (diff.Side.Role), with --a and --b selecting an era or an instance
// on each side.
func readStepped(ctx context.Context, o *stepOptions) (stepped, error) {
	var s stepped
	files := []string{o.file}
	if o.against != "" {
		files = append(files, o.against)
	}
	tls, spans, done, err := readTimelines(ctx, files, o.io.err)
	s.spans, s.done = spans, done
	if err != nil {
		return s, err
	}
	s.tl = tls[0]
	if o.against != "" {
		s.against = &stepview.Against{
			B:     tls[1],
			RoleA: diff.Side{TL: tls[0], Select: o.selA}.Role,
			RoleB: diff.Side{TL: tls[1], Select: o.selB}.Role,
		}
	}
	return s, nil
}
