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
	ends, names := b.walkUp()
	// Lanes of a lifetime span are found by its index, the others by key.
	byLifetime := map[int32]*laneAcc{}
	lanes := map[laneKey]*laneAcc{}
	var accs []*laneAcc
	for _, i := range order {
		key, name, lifetime, ok := b.resolve(i, ends[i], names[i])
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

// walkUp finds, for each span, where the walk up its parents to its lane
// ends (-1 for a cycle, whose spans are orphans), and the nearest span on
// the way, the end included, with a goroutine name (-1 if none). The walk
// ends at a lifetime span, a root, a span whose parent is missing, or one
// whose parent is in another instance.
func (b *builder) walkUp() (ends, names []int32) {
	info := b.info
	end := func(i int32) bool {
		in := &info[i]
		return in.lifetime || in.parent < 0 || info[in.parent].inst != in.inst
	}
	up := func(i int32) int32 {
		if end(i) {
			return -1
		}
		return info[i].parent
	}
	ends = nearestUp(len(info), up, end)
	names = nearestUp(len(info), up, func(i int32) bool { return info[i].goroutine != "" })
	return ends, names
}

// resolve finds the lane of span i, whose walk up ends at span end and
// passes the goroutine name of span named (walkUp), the goroutine name for
// it, and the index of its lifetime span (-1 for a lane of no lifetime
// span).
func (b *builder) resolve(i, end, named int32) (laneKey, string, int32, bool) {
	if end < 0 {
		return laneKey{}, "", -1, false // a cycle of parents
	}
	spans, info := b.spans, b.info
	inst := info[i].inst
	name := ""
	if named >= 0 {
		name = info[named].goroutine
	}
	in := &info[end]
	switch {
	case in.lifetime:
		s := &spans[end]
		if name == "" {
			name = s.Name
		}
		return laneKey{inst: inst, trace: s.TraceID, span: s.SpanID}, name, end, true
	case in.parent == missingParent:
		if name == "" {
			return laneKey{}, "", -1, false
		}
		return laneKey{inst: inst, trace: spans[end].TraceID, span: in.parentID}, name, -1, true
	}
	// A root, or context propagated from another component: here the
	// span runs outside any goroutine we know of.
	key, name, ok := rootLane(inst, name)
	return key, name, -1, ok
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
	// The nearest span above with a controller ID, and the nearest
	// lifetime span of a lane, on the path up within the instance.
	up := func(i int32) int32 {
		if p := info[i].parent; p >= 0 && info[p].inst == info[i].inst {
			return p
		}
		return -1
	}
	owners := newUpFinder(len(spans), up, func(i int32) bool {
		return spans[i].Attributes.String(catalog.AttrControllerID) != ""
	})
	spawners := newUpFinder(len(spans), up, func(i int32) bool {
		return info[i].lifetime && byLifetime[i] != nil
	})
	for i, acc := range accs {
		if acc.lifetime < 0 {
			continue // an open or main lane: nothing above it is recorded
		}
		l := built[i]
		p := up(int32(acc.lifetime))
		if p < 0 {
			continue
		}
		if o := owners.find(p); o >= 0 {
			l.owner = spans[o].Attributes.String(catalog.AttrControllerID)
		}
		if s := spawners.find(p); s >= 0 {
			l.spawner = byLifetime[s]
		}
	}
}
