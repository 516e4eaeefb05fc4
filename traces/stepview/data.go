package stepview

import (
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/internal/printable"
	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// data is what every view of one recording shares: the steps and, per
// lane, when it appears and stops; per step, the span it stands for and
// the spans that span names as its causes. It never changes once built.
type data struct {
	tl    *timeline.Timeline
	steps []timeline.Step
	lanes []*timeline.Lane // every lane, in instance then lane order
	lane  map[*timeline.Lane]int
	label []string // per lane: its label made printable, as the tree shows it

	first []int // per lane: the index of its first step (len(steps) if none)
	stop  []int // per lane: the index of its stopped step, -1 if it has none

	// Per step, how many goroutines (main lanes aside) have appeared and
	// how many have stopped by it (counts); made at the first call.
	appeared, ended []int
	// Per step, how many leaked goroutines are alive (leaked); made at the
	// first call.
	leaks []int

	span      []trace.SpanID                  // per step: its span (the lifetime span for started and stopped)
	causes    map[trace.SpanID][]trace.SpanID // span ID → the spans it links to with kubeloom.link=cause
	isCause   map[trace.SpanID]bool           // span IDs some span links to as its cause, or whose calls some span does (within)
	parentOf  map[trace.SpanID]trace.SpanID   // span ID → its parent's
	lifetime  map[trace.SpanID]bool           // the lanes' lifetime spans
	iteration map[trace.SpanID]bool           // the lanes' iteration spans
	parent    []int                           // per lane: the lane whose code started it, -1 if unknown
	tree      []tree                          // per instance: its lanes depth first

	// Per step, when the recording it is compared with has it (Against),
	// nil if it is compared with none.
	inB []time.Duration
}

// newData indexes tl. spans, the recording tl was built from, may be nil:
// then there are no causal links and the goroutine tree is flat.
func newData(tl *timeline.Timeline, spans []traces.Span) *data {
	d := &data{tl: tl, steps: timeline.Steps(tl), lane: map[*timeline.Lane]int{}, label: make([]string, 0, tl.LaneCount())}
	for _, in := range tl.Instances {
		for _, l := range in.Lanes {
			d.lane[l] = len(d.lanes)
			d.lanes = append(d.lanes, l)
			d.label = append(d.label, printable.String(l.Label))
		}
	}
	d.first = make([]int, len(d.lanes))
	d.stop = make([]int, len(d.lanes))
	for i := range d.lanes {
		d.first[i], d.stop[i] = len(d.steps), -1
	}
	d.span = make([]trace.SpanID, len(d.steps))
	for i, s := range d.steps {
		li := d.lane[s.Lane]
		if i < d.first[li] {
			d.first[li] = i
		}
		if s.Kind == timeline.StepStopped {
			d.stop[li] = i
		}
		if s.Mark != nil {
			d.span[i] = s.Mark.SpanID
		} else {
			d.span[i] = s.Lane.SpanID
		}
	}
	d.causes, d.isCause = map[trace.SpanID][]trace.SpanID{}, map[trace.SpanID]bool{}
	parentSpan := map[trace.SpanID]trace.SpanID{}
	d.parentOf, d.lifetime, d.iteration = parentSpan, map[trace.SpanID]bool{}, map[trace.SpanID]bool{}
	for _, l := range d.lanes {
		if l.SpanID.IsValid() {
			d.lifetime[l.SpanID] = true
		}
		for _, m := range l.Iterations {
			d.iteration[m.SpanID] = true
		}
	}
	for _, s := range spans {
		if s.ParentSpanID.IsValid() {
			parentSpan[s.SpanID] = s.ParentSpanID
		}
	}
	// The causes each goroutine start, iteration and call names
	// (timeline's Lane.Causes, Mark.Causes). A cause is also a cause within
	// the spans around it on its goroutine: an iteration whose handler call
	// (a child span) something links to has effects too.
	add := func(id trace.SpanID, cs []trace.SpanID) {
		if len(cs) > 0 {
			d.causes[id] = cs
		}
		for _, c := range cs {
			d.within(c, func(a trace.SpanID) bool { d.isCause[a] = true; return false })
		}
	}
	for _, l := range d.lanes {
		add(l.SpanID, l.Causes)
		for _, m := range l.Iterations {
			add(m.SpanID, m.Causes)
		}
		for _, m := range l.Calls {
			add(m.SpanID, m.Causes)
		}
	}
	d.parent = d.nest(parentSpan)
	d.tree = d.buildTree()
	return d
}

// within calls f with span and, if span is a call made inside a loop
// iteration, with the calls around it up to that iteration, until f
// returns true; it reports whether one did. It goes no higher than the
// iteration: a goroutine's lifetime or a main line's root is not the
// cause of everything done inside it.
func (d *data) within(span trace.SpanID, f func(ancestor trace.SpanID) bool) bool {
	if f(span) {
		return true
	}
	if d.iteration[span] {
		return false
	}
	var up []trace.SpanID
	for p := d.parentOf[span]; p.IsValid() && !d.lifetime[p] && len(up) < 64; p = d.parentOf[p] {
		up = append(up, p)
		if d.iteration[p] {
			for _, a := range up {
				if f(a) {
					return true
				}
			}
			return false
		}
	}
	return false
}

// causedBy reports whether step i's span names span, or a span within it
// (its calls), as its cause.
func (d *data) causedBy(i int, span trace.SpanID) bool {
	for _, c := range d.causes[d.span[i]] {
		if d.within(c, func(a trace.SpanID) bool { return a == span }) {
			return true
		}
	}
	return false
}

// nest finds, for each goroutine, the lane whose span started it: the
// nearest ancestor of its lifetime span that belongs to another lane of the
// same instance.
func (d *data) nest(parentSpan map[trace.SpanID]trace.SpanID) []int {
	parent := make([]int, len(d.lanes))
	owner := map[trace.SpanID]int{}
	for li, l := range d.lanes {
		parent[li] = -1
		if l.SpanID.IsValid() {
			owner[l.SpanID] = li
		}
		for _, ms := range [][]timeline.Mark{l.Iterations, l.Calls} {
			for _, m := range ms {
				owner[m.SpanID] = li
			}
		}
	}
	inst := map[*timeline.Lane]*timeline.Instance{}
	for _, in := range d.tl.Instances {
		for _, l := range in.Lanes {
			inst[l] = in
		}
	}
	owned := nearestOwned(parentSpan, func(id trace.SpanID) bool { _, ok := owner[id]; return ok })
	for li, l := range d.lanes {
		if !l.SpanID.IsValid() {
			continue
		}
		// Up to the nearest span of a lane, past those of its own (at
		// most as many hops as it has spans).
		p := parentSpan[l.SpanID]
		for hops := 0; p.IsValid() && hops <= len(l.Iterations)+len(l.Calls); hops++ {
			q, ok := owned(p)
			if !ok {
				break
			}
			if o := owner[q]; o != li {
				if inst[d.lanes[o]] == inst[l] {
					parent[li] = o
				}
				break
			}
			p = parentSpan[q]
		}
	}
	return parent
}

// attrs are the attributes of step i: its mark's, or for a started or
// stopped step the goroutine's.
func (d *data) attrs(i int) traces.Attributes {
	s := d.steps[i]
	if s.Mark != nil {
		return s.Mark.Attributes
	}
	return s.Lane.Attributes
}

// status is what a goroutine is doing at a step.
type status int

const (
	notYet  status = iota // it has not appeared yet
	started               // it starts at this step
	running
	stopped
)

// status returns the state of lane li at step i.
func (d *data) status(li, i int) status {
	switch {
	case d.first[li] > i:
		return notYet
	case d.stop[li] >= 0 && d.stop[li] <= i:
		return stopped
	case d.first[li] == i && d.steps[i].Kind == timeline.StepStarted:
		return started
	}
	return running
}

// counts returns how many goroutines (main lanes aside) run and how many
// have stopped at step i, as status says of each. They are counted for
// every step at once: counting the lanes at each step took time in the
// product of their numbers (40,000 goroutines: 16 s).
func (d *data) counts(i int) (run, stop int) {
	if d.appeared == nil {
		d.appeared, d.ended = make([]int, len(d.steps)+1), make([]int, len(d.steps)+1)
		for li, l := range d.lanes {
			if l.Goroutine == timeline.MainLane || d.first[li] >= len(d.steps) {
				continue
			}
			d.appeared[d.first[li]]++
			if d.stop[li] >= 0 {
				d.ended[max(d.first[li], d.stop[li])]++ // stopped from there on
			}
		}
		for k := 1; k < len(d.steps); k++ {
			d.appeared[k] += d.appeared[k-1]
			d.ended[k] += d.ended[k-1]
		}
	}
	return d.appeared[i] - d.ended[i], d.ended[i]
}

// leaked is how many goroutines left behind (timeline.Lane.Leaked: the
// pre-1.5 reflector's resync goroutines) are alive at step i: from the
// step of their "leaked" event to their stopped step. Made for every step
// at the first call, as counts is.
func (d *data) leaked(i int) int {
	if d.leaks == nil {
		d.leaks = make([]int, len(d.steps)+1)
		for k, s := range d.steps {
			if s.Kind == timeline.StepEvent && s.Mark.Name == catalog.EventLeaked && s.Lane.Leaked() {
				d.leaks[k]++
				if stop := d.stop[d.lane[s.Lane]]; stop >= k {
					d.leaks[stop]--
				}
			}
		}
		for k := 1; k < len(d.steps); k++ {
			d.leaks[k] += d.leaks[k-1]
		}
	}
	return d.leaks[i]
}
