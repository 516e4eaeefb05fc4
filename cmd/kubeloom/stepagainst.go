package main

import (
	"context"
	"errors"
	"runtime/debug"
	"sync"

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
	done    func() // after the view is built: resumes the collector (readRecording)
}

// gcSettings returns what puts the collector's settings back as they are
// now.
func gcSettings() (restore func()) {
	percent := debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	limit := debug.SetMemoryLimit(-1) // -1 reads it
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
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
	tls := make([]*timeline.Timeline, len(files))
	errs := make([]error, len(files))
	dones := make([]func(), len(files))
	restore := gcSettings()
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for i, file := range files {
		wg.Go(func() {
			spans, done, err := readShown(rctx, file, traces.ReadOptions{}, o.io.err, "")
			dones[i] = done
			if err == nil {
				tls[i], err = timeline.BuildContext(rctx, spans)
			}
			if i == 0 {
				s.spans = spans
			}
			if err != nil {
				errs[i] = err
				cancel() // no use reading the other
			}
		})
	}
	wg.Wait()
	// Each big read paused the collector (pauseGC) and restores what it
	// found, which for the second to pause is the first's pause: restored
	// in the wrong order they would leave the collector off. So both are
	// undone together, and the settings from before the reads put back.
	s.done = func() {
		for _, done := range dones {
			done()
		}
		restore()
	}
	// The read that failed first cancelled the other: report its error,
	// not the other's "canceled" (unless the user interrupted both).
	for _, err := range errs {
		if err != nil && (ctx.Err() != nil || !errors.Is(err, context.Canceled)) {
			return s, err
		}
	}
	for _, err := range errs {
		if err != nil {
			return s, err
		}
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
