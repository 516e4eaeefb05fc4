package diff

import (
	"slices"
	"time"

	"github.com/kubeloom/kubeloom/traces/timeline"
)

// Stats is how one family of goroutines ran in one run: the lanes of one
// role that share a family (timeline.Lane.Family: the label without a
// worker's number or a "#n"), so that a pool's workers count together and
// a pod worker pairs by its pod.
type Stats struct {
	Lanes      int           // goroutines
	Iterations int64         // loop iterations, the sampled-out idle ones counted
	Period     time.Duration // median time from one iteration's start to the next's; 0 without two
	FirstStart time.Duration // when the first of them started, from the start of the recording
	LastEnd    time.Duration // when the last of them ended (the recording's end if one still ran)
	Alive      time.Duration // how long they ran, added up: what the counts are counted over
	Spans      int           // lifetime, iteration and other spans
	Errors     int           // spans or events that say an error happened
	// Calls counts the family's iterations and other spans by name
	// (DeltaFIFO.Pop ×3, OnUpdate ×6): what its goroutines did.
	Calls map[string]int
}

// familyStats gathers the stats of every family of the side's instances,
// by role and family.
func familyStats(tl *timeline.Timeline, ins []roled) map[key]*Stats {
	out := map[key]*Stats{}
	gaps := map[key][]time.Duration{}
	for _, r := range ins {
		for _, l := range r.in.Lanes {
			if l.Goroutine == timeline.MainLane {
				continue // the main lane's steps are compared as steps
			}
			k := key{role: r.role, family: l.Family()}
			s := out[k]
			if s == nil {
				s = &Stats{FirstStart: tl.Offset(l.Start), Calls: map[string]int{}}
				out[k] = s
			}
			s.Lanes++
			s.FirstStart = min(s.FirstStart, tl.Offset(l.Start))
			s.LastEnd = max(s.LastEnd, tl.Offset(l.End))
			s.Alive += l.End.Sub(l.Start)
			s.Iterations += int64(l.Tally.Iterations) + l.Tally.Skipped
			s.Spans += l.Tally.Iterations + l.Tally.Calls
			if l.SpanID.IsValid() {
				s.Spans++
			}
			s.Errors += errorsOf(l)
			for _, marks := range [][]timeline.Mark{l.Iterations, l.Calls} {
				for _, m := range marks {
					s.Calls[m.Name]++
				}
			}
			gaps[k] = append(gaps[k], iterationGaps(l)...)
		}
	}
	for k, g := range gaps {
		out[k].Period = median(g)
	}
	return out
}

// key is a family of a role.
type key struct{ role, family string }

// iterationGaps are the times from each iteration's start to the next's,
// divided by the iterations between them that the recorder sampled out.
func iterationGaps(l *timeline.Lane) []time.Duration {
	var out []time.Duration
	for i := 1; i < len(l.Iterations); i++ {
		prev, next := l.Iterations[i-1], l.Iterations[i]
		if n := next.Iteration - prev.Iteration; n > 0 {
			out = append(out, next.Start.Sub(prev.Start)/time.Duration(n))
		}
	}
	return out
}

// errorsOf counts the lane's spans with an error attribute and its
// exception events (a span's RecordError).
func errorsOf(l *timeline.Lane) int {
	n := 0
	for _, marks := range [][]timeline.Mark{l.Iterations, l.Calls} {
		for _, m := range marks {
			if _, ok := m.Attributes["error"]; ok {
				n++
			}
		}
	}
	for _, e := range l.Events {
		if e.Name == "exception" {
			n++
		}
	}
	return n
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// FigureKind says what a figure counts, and so how a view writes it and
// its change.
type FigureKind int

const (
	Count    FigureKind = iota // a number: "+3 ×1.5"
	Duration                   // a duration whose ratio means something: "+1.2s ×2.2"
	Time                       // a time since the recording's start: "+1.2s", no ratio
)

// Figure is one figure of a family on both sides.
type Figure struct {
	What string // its name, as Family.Differs names it: "lanes", "period", "end"
	Kind FigureKind
	A, B int64 // a count, or for a Duration or a Time nanoseconds (a time.Duration)
}

// Figures are the family's figures, in the order the report lists them:
// lanes, iterations, period, first start, end, spans, errors; none for a
// family that ran on one side only. Every view of a report lists these.
func (f Family) Figures() []Figure {
	if f.A == nil || f.B == nil {
		return nil
	}
	a, b := f.A, f.B
	return []Figure{
		{"lanes", Count, int64(a.Lanes), int64(b.Lanes)},
		{"iterations", Count, a.Iterations, b.Iterations},
		{"period", Duration, int64(a.Period), int64(b.Period)},
		{"first start", Time, int64(a.FirstStart), int64(b.FirstStart)},
		{"end", Time, int64(a.LastEnd), int64(b.LastEnd)},
		{"spans", Count, int64(a.Spans), int64(b.Spans)},
		{"errors", Count, int64(a.Errors), int64(b.Errors)},
	}
}
