package timeline

import (
	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/catalog"
)

// Which lane each span belongs to (Build's doc says the rule), and, once
// the lanes are built, which lane started each one and for which
// controller. Both walk up the spans' parents.

// laneKey identifies a lane while building: a lifetime span (trace, span),
// the missing lifetime span an open lane's spans point at (trace, span), or
// an instance's lane of spans outside any goroutine (name).
type laneKey struct {
	inst  instID
	trace trace.TraceID
	span  trace.SpanID
	name  string
}

// laneAcc gathers a lane's spans.
type laneAcc struct {
	key      laneKey
	name     string // goroutine name
	lifetime int    // index of the lifetime span, -1 if none
	members  []int  // indexes of the lane's other spans
}

// assignLanes puts each span, in order, on its lane, and returns the lanes
// in the order their first spans came. It counts the orphans.
func (b *builder) assignLanes(order []int32) []*laneAcc {
	// Lanes of a lifetime span are found by its index, the others by key.
	byLifetime := map[int32]*laneAcc{}
	lanes := map[laneKey]*laneAcc{}
	var accs []*laneAcc
	for _, i := range order {
		key, name, lifetime, ok := b.resolve(i)
		if !ok {
			b.tl.Orphans++
			continue
		}
		var acc *laneAcc
		if lifetime >= 0 {
			acc = byLifetime[lifetime]
		} else {
			acc = lanes[key]
		}
		if acc == nil {
			// Lifetime spans that share their IDs share a lane.
			if acc = lanes[key]; acc == nil {
				acc = &laneAcc{key: key, name: name, lifetime: -1}
				lanes[key] = acc
				accs = append(accs, acc)
			}
			if lifetime >= 0 {
				byLifetime[lifetime] = acc
			}
		}
		if lifetime == i {
			acc.lifetime = int(i)
		} else {
			acc.members = append(acc.members, int(i))
		}
	}
	return accs
}

// resolve finds the lane of span i, the goroutine name for it, and the
// index of its lifetime span (-1 for a lane of no lifetime span).
func (b *builder) resolve(i int32) (laneKey, string, int32, bool) {
	spans, info := b.spans, b.info
	inst := info[i].inst
	name := ""
	cur := i
	for range len(spans) + 1 { // bounded: a cycle of parents is an orphan
		in := &info[cur]
		if name == "" {
			name = in.goroutine
		}
		if in.lifetime {
			s := &spans[cur]
			if name == "" {
				name = s.Name
			}
			return laneKey{inst: inst, trace: s.TraceID, span: s.SpanID}, name, cur, true
		}
		switch in.parent {
		case noParent:
			key, name, ok := rootLane(inst, name)
			return key, name, -1, ok
		case missingParent:
			if name == "" {
				return laneKey{}, "", -1, false
			}
			s := &spans[cur]
			return laneKey{inst: inst, trace: s.TraceID, span: in.parentID}, name, -1, true
		}
		if info[in.parent].inst != inst {
			// Context propagated from another component: here the span
			// runs outside any goroutine we know of.
			key, name, ok := rootLane(inst, name)
			return key, name, -1, ok
		}
		cur = in.parent
	}
	return laneKey{}, "", -1, false
}

// rootLane is the lane of a span with no lifetime span above it in its
// instance: the lane of the goroutine name on its path, else the main lane.
func rootLane(inst instID, name string) (laneKey, string, bool) {
	if name == "" {
		name = MainLane
	}
	return laneKey{inst: inst, name: name}, name, true
}

// spawnedBy finds, for each lane, the lane that started it (the lane of
// the nearest goroutine lifetime span above its own) and the controller it
// was started for (the nearest span above it with kubeloom.controller.id),
// within its instance.
func (b *builder) spawnedBy(accs []*laneAcc, built []*Lane) {
	spans, info := b.spans, b.info
	byLifetime := make(map[int32]*Lane, len(accs))
	for i, acc := range accs {
		if acc.lifetime >= 0 {
			byLifetime[int32(acc.lifetime)] = built[i]
		}
	}
	for i, acc := range accs {
		if acc.lifetime < 0 {
			continue // an open or main lane: nothing above it is recorded
		}
		l := built[i]
		inst := info[acc.lifetime].inst
		p := info[acc.lifetime].parent
		for n := 0; p >= 0 && n < len(spans) && info[p].inst == inst && (l.spawner == nil || l.owner == ""); n++ {
			if l.owner == "" {
				l.owner = spans[p].Attributes.String(catalog.AttrControllerID)
			}
			if l.spawner == nil && info[p].lifetime {
				l.spawner = byLifetime[p]
			}
			p = info[p].parent
		}
	}
}
