package timeline

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
)

// qualifiers are the attributes that tell apart goroutines of one instance
// that share a catalog name (two handlers' informer/listener-pop), in the
// order they appear in a label.
var qualifiers = []string{
	catalog.AttrInformer,
	catalog.AttrResource,
	catalog.AttrHandler,
	catalog.AttrNode,
	catalog.AttrObjectKey,
	catalog.AttrEventComponent,
	catalog.AttrWorker,
	catalog.AttrPodSource,
	catalog.AttrContainer,
	catalog.AttrProbeType,
}

// goroutineAttrs are copied from an open lane's iteration spans into its
// Attributes, standing in for the missing lifetime span.
var goroutineAttrs = append([]string{
	catalog.AttrGoroutineName, catalog.AttrGoroutineKind, catalog.AttrGoroutinePeriod,
	catalog.AttrCodeFunction, catalog.AttrCodeFile,
}, qualifiers...)

type instKey struct{ service, id string }

// instID numbers an instance while building: an index into the table of
// instKeys, so that a span's spanInfo holds 4 bytes for it, not 32.
type instID int32

// laneKey identifies a lane while building: a lifetime span (trace, span),
// the missing lifetime span an open lane's spans point at (trace, span), or
// an instance's lane of spans outside any goroutine (name).
type laneKey struct {
	inst  instID
	trace trace.TraceID
	span  trace.SpanID
	name  string
}

type spanKey struct {
	trace trace.TraceID
	span  trace.SpanID
}

type laneAcc struct {
	key      laneKey
	name     string // goroutine name
	lifetime int    // index of the lifetime span, -1 if none
	members  []int  // indexes of the lane's other spans
}

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
func Build(spans []traces.Span) *Timeline { return build(spans, true) }

// build is Build, or Outline without the marks.
func build(spans []traces.Span, marks bool) *Timeline {
	tl := &Timeline{Spans: len(spans), Outline: !marks}
	if len(spans) == 0 {
		return tl
	}
	// What Build needs of each span's maps, read once (on all CPUs for a
	// large recording), so that the passes below touch no map.
	info := make([]spanInfo, len(spans))
	parts := make([]summaryPart, workers(len(spans)))
	caches := make([]resourceCache, len(parts))
	parallel(len(spans), len(parts), func(w, lo, hi int) {
		res := &caches[w]
		p := summaryPart{scenario: -1, start: -1, end: -1}
		for i := lo; i < hi; i++ {
			p.links += info[i].read(&spans[i], res)
			p.add(spans, i)
		}
		parts[w] = p
	})
	// Each part numbered the instances it met: number them for the whole.
	insts := numberInstances(info, caches)
	// The scenario of the first span in the canonical order that has one,
	// the earliest start and the latest end (of spans that tie, the first
	// in that order's).
	all := summaryPart{scenario: -1, start: -1, end: -1}
	for _, p := range parts {
		all.merge(spans, p)
	}
	tl.Links = all.links
	if all.scenario >= 0 {
		tl.Scenario = spans[all.scenario].Resource.String(catalog.AttrScenario)
	}
	if all.start >= 0 {
		tl.Start = spans[all.start].Start
		if origin, ok := clockOrigin(spans); ok && origin.Before(tl.Start) && tl.Start.Sub(origin) < time.Minute {
			tl.Start = origin
		}
	}
	if all.end >= 0 {
		tl.End = spanEnd(&spans[all.end])
	}
	if tl.End.Before(tl.Start) {
		tl.End = tl.Start
	}

	// The parent of each span. Of spans that share an ID the first in the
	// canonical order stands for them, as if the index were built in that
	// order. The index is sharded by span ID, a shard per goroutine.
	shards := make([]*spanIndex, workers(len(spans)))
	parallelShards(len(shards), func(sh int) {
		shards[sh] = newSpanIndex(spans, info, sh, len(shards))
	})
	parallel(len(spans), workers(len(spans)), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			in := &info[i]
			in.parent = noParent
			if p := in.parentID; p.IsValid() {
				in.parent = missingParent
				if j, ok := shards[shardOf(p, len(shards))].find(spans, spans[i].TraceID, p); ok {
					in.parent = j
				}
			}
		}
	})
	shards = nil

	// Work in a canonical order so that the result does not depend on the
	// order of the file (the exporter writes spans as they end).
	order := canonicalOrder(spans)

	// Lanes of a lifetime span are found by its index, the others by key.
	byLifetime := map[int32]*laneAcc{}
	lanes := map[laneKey]*laneAcc{}
	var laneOrder []*laneAcc
	for _, i := range order {
		key, name, lifetime, ok := resolve(spans, info, i)
		if !ok {
			tl.Orphans++
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
				laneOrder = append(laneOrder, acc)
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

	// Lanes are independent of one another: build them in parallel.
	built := make([]*Lane, len(laneOrder))
	work := make(chan int, len(laneOrder))
	for i := range laneOrder {
		work <- i
	}
	close(work)
	parallelShards(workers(len(spans)), func(int) {
		for i := range work {
			built[i] = buildLane(tl, spans, info, laneOrder[i], marks)
		}
	})
	spawnedBy(spans, info, laneOrder, built)
	instances := map[instID]*Instance{}
	for i, acc := range laneOrder {
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
		if c := naturalCompare(a.Service, b.Service); c != 0 {
			return c
		}
		return naturalCompare(a.ID, b.ID)
	})
	for _, in := range tl.Instances {
		labelLanes(in.Lanes)
		slices.SortStableFunc(in.Lanes, func(a, b *Lane) int {
			if c := a.Start.Compare(b.Start); c != 0 {
				return c
			}
			return naturalCompare(a.Label, b.Label)
		})
		in.group()
	}
	return tl
}

// spawnedBy finds, for each lane, the lane that started it (the lane of
// the nearest goroutine lifetime span above its own) and the controller it
// was started for (the nearest span above it with kubeloom.controller.id),
// within its instance.
func spawnedBy(spans []traces.Span, info []spanInfo, order []*laneAcc, built []*Lane) {
	byLifetime := make(map[int32]*Lane, len(order))
	for i, acc := range order {
		if acc.lifetime >= 0 {
			byLifetime[int32(acc.lifetime)] = built[i]
		}
	}
	for i, acc := range order {
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

// Parents that are not span indexes (spanInfo.parent).
const (
	noParent      = -1 // a root span
	missingParent = -2 // the parent is not in the recording
)

// spanInfo is what Build reads from a span's maps: 64 bytes, for each span.
type spanInfo struct {
	inst      instID
	parent    int32  // the parent's index, noParent or missingParent
	goroutine string // goroutine.name
	iter      int64  // iteration
	skipped   int64  // kubeloom.skipped_iterations
	// The span's ID and its parent's, copied here so that the passes
	// over every span read 64-byte infos, not 200-byte spans.
	id, parentID trace.SpanID
	lifetime     bool // a goroutine's lifetime span: it has goroutine.kind
	hasIter      bool
}

// read fills in i from s and returns the number of s's causal links.
func (i *spanInfo) read(s *traces.Span, res *resourceCache) int {
	i.inst = res.instance(s.Resource)
	// One pass over the attributes rather than a lookup for each key: the
	// same values as isLifetime, iteration and the Attributes methods give.
	var name, kind, iter, skipped any
	for k, v := range s.Attributes {
		switch k {
		case catalog.AttrGoroutineName:
			name = v
		case catalog.AttrGoroutineKind:
			kind = v
		case catalog.AttrIteration:
			iter = v
		case catalog.AttrSkipped:
			skipped = v
		}
	}
	i.goroutine, _ = name.(string)
	k, _ := kind.(string)
	i.lifetime = k != ""
	switch n := iter.(type) {
	case int64:
		i.iter, i.hasIter = n, true
	case float64:
		i.iter, i.hasIter = int64(n), true
	}
	if i.hasIter {
		i.skipped, _ = skipped.(int64)
	}
	i.id, i.parentID = s.SpanID, s.ParentSpanID
	n := 0
	for _, l := range s.Links {
		if l.Attributes.String(catalog.AttrLink) == catalog.LinkCause {
			n++
		}
	}
	return n
}

// resourceCache numbers the instances of the spans one goroutine reads,
// and remembers the instance of the last Resource map seen: spans read
// from one file share the map of their resource.
type resourceCache struct {
	last  traces.Attributes
	inst  instID
	ids   map[instKey]instID
	insts []instKey // by instID
}

func (c *resourceCache) instance(res traces.Attributes) instID {
	if res != nil && c.last != nil && reflect.ValueOf(res).UnsafePointer() == reflect.ValueOf(c.last).UnsafePointer() {
		return c.inst
	}
	c.last = res
	key := instKey{res.String(catalog.AttrServiceName), res.String(catalog.AttrServiceInstanceID)}
	id, ok := c.ids[key]
	if !ok {
		if c.ids == nil {
			c.ids = map[instKey]instID{}
		}
		id = instID(len(c.insts))
		c.ids[key] = id
		c.insts = append(c.insts, key)
	}
	c.inst = id
	return id
}

// numberInstances renumbers the instances of info, which the caches of
// the parts of parallel numbered each for their part, for all spans, and
// returns the table of their keys.
func numberInstances(info []spanInfo, caches []resourceCache) []instKey {
	var insts []instKey
	ids := map[instKey]instID{}
	renumber := make([][]instID, len(caches))
	same := true
	for w, c := range caches {
		for local, key := range c.insts {
			id, ok := ids[key]
			if !ok {
				id = instID(len(insts))
				ids[key] = id
				insts = append(insts, key)
			}
			renumber[w] = append(renumber[w], id)
			same = same && id == instID(local)
		}
	}
	if !same {
		parallel(len(info), len(caches), func(w, lo, hi int) {
			for i := lo; i < hi; i++ {
				info[i].inst = renumber[w][info[i].inst]
			}
		})
	}
	return insts
}

// spanIndex finds spans by trace and span ID: by span ID alone for most
// (a map keyed by the 8 bytes is much cheaper than one keyed by both IDs),
// by both for the span IDs that spans of different traces share. Of spans
// with the same IDs, the first in the canonical order (compareSpans)
// stands for them.
type spanIndex struct {
	ids   map[trace.SpanID]int32 // sharedID: the ID is in other
	other map[spanKey]int32
}

const sharedID = -1

// newSpanIndex indexes the spans of shard sh of n.
func newSpanIndex(spans []traces.Span, info []spanInfo, sh, n int) *spanIndex {
	x := &spanIndex{ids: make(map[trace.SpanID]int32, len(spans)/n+1), other: map[spanKey]int32{}}
	addOther := func(i int32) {
		k := spanKey{spans[i].TraceID, spans[i].SpanID}
		if j, dup := x.other[k]; !dup || compareSpans(&spans[i], &spans[j]) < 0 {
			x.other[k] = i
		}
	}
	for i := range spans {
		id := info[i].id
		if shardOf(id, n) != sh {
			continue
		}
		j, dup := x.ids[id]
		switch {
		case !dup:
			x.ids[id] = int32(i)
		case j == sharedID:
			addOther(int32(i))
		case spans[j].TraceID != spans[i].TraceID:
			// The same span ID in two traces: both go to the map.
			x.ids[id] = sharedID
			addOther(j)
			addOther(int32(i))
		case compareSpans(&spans[i], &spans[j]) < 0:
			x.ids[id] = int32(i)
		}
	}
	return x
}

// find returns the span with the IDs.
func (x *spanIndex) find(spans []traces.Span, traceID trace.TraceID, spanID trace.SpanID) (int32, bool) {
	j, found := x.ids[spanID]
	switch {
	case !found:
		return 0, false
	case j != sharedID:
		return j, spans[j].TraceID == traceID
	}
	j, ok := x.other[spanKey{traceID, spanID}]
	return j, ok
}

// shardOf is the shard of a span ID.
func shardOf(id trace.SpanID, shards int) int {
	if shards == 1 {
		return 0
	}
	// Span IDs are random: any 8 bytes spread, once mixed.
	return int(binary.LittleEndian.Uint64(id[:]) * 0x9e3779b97f4a7c15 % uint64(shards))
}

// canonicalOrder returns the indexes of spans sorted by compareSpans
// (parts sorted in parallel, then merged, for a large recording).
func canonicalOrder(spans []traces.Span) []int32 {
	order := make([]int32, len(spans))
	for i := range order {
		order[i] = int32(i)
	}
	if len(spans) >= parallelMin {
		return sortedByKey(spans, order)
	}
	slices.SortFunc(order, func(a, b int32) int { return compareSpans(&spans[a], &spans[b]) })
	return order
}

// sortKey orders spans by start cheaply: comparing two integers is
// faster than compareSpans, which only settles ties.
type sortKey struct {
	sec  int64
	nsec int32
	i    int32
}

// sortedByKey sorts order (0..n-1) as canonicalOrder does, on all CPUs.
func sortedByKey(spans []traces.Span, order []int32) []int32 {
	keys := make([]sortKey, len(spans))
	parallel(len(spans), workers(len(spans)), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			t := spans[i].Start
			keys[i] = sortKey{t.Unix(), int32(t.Nanosecond()), int32(i)}
		}
	})
	cmpKeys := func(a, b sortKey) int {
		if a.sec != b.sec {
			return cmp.Compare(a.sec, b.sec)
		}
		if a.nsec != b.nsec {
			return cmp.Compare(a.nsec, b.nsec)
		}
		return compareSpans(&spans[a.i], &spans[b.i])
	}
	// Sort parts in parallel, then merge them (the last merge straight
	// into order).
	w := workers(len(spans))
	parallel(len(keys), w, func(_, lo, hi int) { slices.SortFunc(keys[lo:hi], cmpKeys) })
	for width := 1; width < w; width *= 2 {
		if 2*width >= w {
			mergeInto(order, keys[:len(keys)*width/w], keys[len(keys)*width/w:], cmpKeys)
			return order
		}
		merged := make([]sortKey, 0, len(keys))
		for p := 0; p < w; p += 2 * width {
			lo, mid, hi := len(keys)*p/w, len(keys)*min(p+width, w)/w, len(keys)*min(p+2*width, w)/w
			a, b := keys[lo:mid], keys[mid:hi]
			for len(a) > 0 && len(b) > 0 {
				if cmpKeys(b[0], a[0]) < 0 {
					merged, b = append(merged, b[0]), b[1:]
				} else {
					merged, a = append(merged, a[0]), a[1:]
				}
			}
			merged = append(append(merged, a...), b...)
		}
		keys = merged
	}
	for i, k := range keys {
		order[i] = k.i
	}
	return order
}

// mergeInto writes the indexes of the sorted keys a and b, merged, to order.
func mergeInto(order []int32, a, b []sortKey, cmpKeys func(a, b sortKey) int) {
	n := 0
	for len(a) > 0 && len(b) > 0 {
		if cmpKeys(b[0], a[0]) < 0 {
			order[n], b = b[0].i, b[1:]
		} else {
			order[n], a = a[0].i, a[1:]
		}
		n++
	}
	for _, k := range a {
		order[n] = k.i
		n++
	}
	for _, k := range b {
		order[n] = k.i
		n++
	}
}

// parallelShards calls f(0), ..., f(n-1), each on its own goroutine.
func parallelShards(n int, f func(shard int)) {
	if n <= 1 {
		f(0)
		return
	}
	var wg sync.WaitGroup
	for sh := 1; sh < n; sh++ {
		wg.Go(func() { f(sh) })
	}
	f(0)
	wg.Wait()
}

// parallelMin is the fewest spans worth another goroutine (a variable
// for tests).
var parallelMin = 32 << 10

// workers is how many goroutines to give n spans.
func workers(n int) int {
	return max(1, min(runtime.GOMAXPROCS(0), n/parallelMin))
}

// parallel calls f(w, lo, hi) for w workers, on ranges that split [0, n).
func parallel(n, workers int, f func(w, lo, hi int)) {
	parallelShards(workers, func(w int) { f(w, n*w/workers, n*(w+1)/workers) })
}

// summaryPart is what Build learns of the recording as a whole from a part
// of the spans: the number of causal links, and the indexes (or -1) of the
// first span in the canonical order that has a scenario, of the earliest
// start and of the latest end.
type summaryPart struct {
	links                int
	scenario, start, end int
}

func (p *summaryPart) add(spans []traces.Span, i int) {
	s := &spans[i]
	if s.Resource.String(catalog.AttrScenario) != "" && (p.scenario < 0 || compareSpans(s, &spans[p.scenario]) < 0) {
		p.scenario = i
	}
	if !s.Start.IsZero() && (p.start < 0 || earlier(spans, i, p.start, spans[i].Start, spans[p.start].Start)) {
		p.start = i
	}
	if p.end < 0 || later(spans, i, p.end) {
		p.end = i
	}
}

func (p *summaryPart) merge(spans []traces.Span, q summaryPart) {
	p.links += q.links
	if q.scenario >= 0 && (p.scenario < 0 || compareSpans(&spans[q.scenario], &spans[p.scenario]) < 0) {
		p.scenario = q.scenario
	}
	if q.start >= 0 && (p.start < 0 || earlier(spans, q.start, p.start, spans[q.start].Start, spans[p.start].Start)) {
		p.start = q.start
	}
	if q.end >= 0 && (p.end < 0 || later(spans, q.end, p.end)) {
		p.end = q.end
	}
}

// earlier reports whether time a (of span i) comes before time b (of span
// j), or at the same instant with i first in the canonical order.
func earlier(spans []traces.Span, i, j int, a, b time.Time) bool {
	if c := a.Compare(b); c != 0 {
		return c < 0
	}
	return compareSpans(&spans[i], &spans[j]) < 0
}

// later reports whether span i ends after span j, or at the same instant
// with i first in the canonical order.
func later(spans []traces.Span, i, j int) bool {
	if c := spanEnd(&spans[i]).Compare(spanEnd(&spans[j])); c != 0 {
		return c > 0
	}
	return compareSpans(&spans[i], &spans[j]) < 0
}

// resolve finds the lane of span i, the goroutine name for it, and the
// index of its lifetime span (-1 for a lane of no lifetime span).
func resolve(spans []traces.Span, info []spanInfo, i int32) (laneKey, string, int32, bool) {
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

func rootLane(inst instID, name string) (laneKey, string, bool) {
	if name == "" {
		name = MainLane
	}
	return laneKey{inst: inst, name: name}, name, true
}

// openLaneAttributes stands in for the missing lifetime span of an open
// lane: the goroutine attributes its iterations carry. Only spans of the
// goroutine itself (iterations carry goroutine.name) describe it, and only
// values they all agree on: an iteration's own k8s.object.key (the object
// an OnAdd handled) is not the goroutine's. An object key is taken only
// when at least two iterations agree on it, since one iteration cannot
// tell its own key from its goroutine's.
func openLaneAttributes(spans []traces.Span, info []spanInfo, members []int) traces.Attributes {
	attrs := traces.Attributes{}
	count := map[string]int{} // iterations that carry the attribute
	varies := map[string]bool{}
	n := 0 // iterations
	for _, i := range members {
		if info[i].goroutine == "" {
			continue
		}
		n++
		for _, k := range goroutineAttrs {
			v, ok := spans[i].Attributes[k]
			if !ok {
				continue
			}
			if count[k] == 0 {
				attrs[k] = v
			} else if !reflect.DeepEqual(attrs[k], v) {
				varies[k] = true
			}
			count[k]++
		}
	}
	for k := range attrs {
		if varies[k] || count[k] < n || k == catalog.AttrObjectKey && n < 2 {
			delete(attrs, k)
		}
	}
	return attrs
}

func buildLane(tl *Timeline, spans []traces.Span, info []spanInfo, acc *laneAcc, marks bool) *Lane {
	l := &Lane{Goroutine: acc.name}
	members := acc.members
	if acc.lifetime >= 0 {
		s := &spans[acc.lifetime]
		l.SpanID = s.SpanID
		l.Kind = s.Attributes.String(catalog.AttrGoroutineKind)
		l.Attributes = s.Attributes
		l.Causes = causes(s)
		l.Start, l.End = s.Start, spanEnd(s)
		if marks {
			l.Events = appendEvents(l.Events, s)
		}
	} else {
		l.Attributes = openLaneAttributes(spans, info, members)
		for n, i := range members {
			if s := &spans[i]; n == 0 || s.Start.Before(l.Start) {
				l.Start = s.Start
			}
			if end := spanEnd(&spans[i]); end.After(l.End) {
				l.End = end
			}
		}
		if acc.key.name == "" { // the lifetime span is missing
			l.Open = true
			l.End = tl.End
			l.Kind = l.Attributes.String(catalog.AttrGoroutineKind)
		} else if acc.key.name == MainLane {
			l.Kind = catalog.KindMain
		}
	}
	if p, ok := l.Attributes.Float(catalog.AttrGoroutinePeriod); ok && p > 0 {
		l.Period = time.Duration(math.Round(p * float64(time.Second)))
	}
	iterations, events := 0, len(l.Events)
	for _, i := range members {
		if in := &info[i]; in.hasIter {
			iterations++
			l.Tally.Skipped += in.skipped
		}
		events += len(spans[i].Events)
	}
	l.Tally.Iterations, l.Tally.Calls = iterations, len(members)-iterations
	if !marks {
		return l
	}
	if events > 0 {
		l.Events = slices.Grow(l.Events, events-len(l.Events))
	}
	l.Iterations = make([]Mark, 0, iterations)
	l.Calls = make([]Mark, 0, len(members)-iterations)
	for _, i := range members {
		s := &spans[i]
		m := Mark{Name: s.Name, Start: s.Start, End: spanEnd(s), SpanID: s.SpanID, Attributes: s.Attributes, Causes: causes(s)}
		if in := &info[i]; in.hasIter {
			m.Iteration = in.iter
			m.Skipped = in.skipped
			l.Iterations = append(l.Iterations, m)
		} else {
			l.Calls = append(l.Calls, m)
		}
		l.Events = appendEvents(l.Events, s)
	}
	if len(l.Iterations) == 0 {
		l.Iterations = nil
	}
	if len(l.Calls) == 0 {
		l.Calls = nil
	}
	sortMarks(l.Iterations)
	sortMarks(l.Calls)
	sortMarks(l.Events)
	return l
}

// causes returns the span IDs s links to as its causes.
func causes(s *traces.Span) []trace.SpanID {
	var ids []trace.SpanID
	for _, l := range s.Links {
		if l.Attributes.String(catalog.AttrLink) == catalog.LinkCause {
			ids = append(ids, l.SpanID)
		}
	}
	return ids
}

func appendEvents(marks []Mark, s *traces.Span) []Mark {
	for _, e := range s.Events {
		marks = append(marks, Mark{Name: e.Name, Start: e.Time, End: e.Time, SpanID: s.SpanID, Attributes: e.Attributes})
	}
	return marks
}

// labelLanes gives each lane a label unique within its instance.
func labelLanes(lanes []*Lane) {
	byName := map[string][]*Lane{}
	for _, l := range lanes {
		byName[l.Goroutine] = append(byName[l.Goroutine], l)
	}
	for _, l := range lanes {
		l.Label = l.Goroutine
		if len(byName[l.Goroutine]) < 2 {
			continue
		}
		parts := []string{l.Goroutine}
		l.quals = nil
		for _, k := range qualifiers {
			v := fmt.Sprint(l.Attributes[k])
			if l.Attributes[k] == nil || v == "" {
				continue
			}
			if k == catalog.AttrResource && v == l.Attributes.String(catalog.AttrInformer) {
				continue
			}
			parts = append(parts, v)
			l.quals = append(l.quals, qual{k, v})
		}
		l.Label = strings.Join(parts, " ")
	}
	byLabel := map[string][]*Lane{}
	var labels []string
	for _, l := range lanes {
		if byLabel[l.Label] == nil {
			labels = append(labels, l.Label)
		}
		byLabel[l.Label] = append(byLabel[l.Label], l)
	}
	for _, label := range labels {
		same := byLabel[label]
		if len(same) < 2 {
			continue
		}
		slices.SortStableFunc(same, func(a, b *Lane) int {
			if c := a.Start.Compare(b.Start); c != 0 {
				return c
			}
			return bytes.Compare(a.SpanID[:], b.SpanID[:])
		})
		for n, l := range same {
			l.Label = fmt.Sprintf("%s #%d", label, n+1)
		}
	}
}

func isLifetime(s *traces.Span) bool {
	return s.Attributes.String(catalog.AttrGoroutineKind) != ""
}

func iteration(s *traces.Span) (int64, bool) {
	if n, ok := s.Attributes.Int(catalog.AttrIteration); ok {
		return n, true
	}
	if f, ok := s.Attributes.Float(catalog.AttrIteration); ok {
		return int64(f), true
	}
	return 0, false
}

func instanceOf(s *traces.Span) instKey {
	return instKey{s.Resource.String(catalog.AttrServiceName), s.Resource.String(catalog.AttrServiceInstanceID)}
}

// spanEnd is the span's end, or its start if the end is missing or earlier.
func spanEnd(s *traces.Span) time.Time {
	if s.End.Before(s.Start) {
		return s.Start
	}
	return s.End
}

func compareSpans(a, b *traces.Span) int {
	if c := a.Start.Compare(b.Start); c != 0 {
		return c
	}
	if c := bytes.Compare(a.TraceID[:], b.TraceID[:]); c != 0 {
		return c
	}
	if c := bytes.Compare(a.SpanID[:], b.SpanID[:]); c != 0 {
		return c
	}
	if c := a.End.Compare(b.End); c != 0 {
		return c
	}
	return cmp.Compare(a.Name, b.Name)
}

func sortMarks(m []Mark) {
	compare := func(a, b Mark) int {
		if c := a.Start.Compare(b.Start); c != 0 {
			return c
		}
		if c := bytes.Compare(a.SpanID[:], b.SpanID[:]); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	}
	// Marks come in the canonical order, sorted by start: often there is
	// nothing to do.
	if !slices.IsSortedFunc(m, compare) {
		slices.SortStableFunc(m, compare)
	}
}

// naturalCompare orders strings with their digit runs compared as numbers,
// so that node-2 sorts before node-10.
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		if isDigit(a[0]) && isDigit(b[0]) {
			da, db := digitRun(a), digitRun(b)
			ta, tb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := cmp.Compare(len(ta), len(tb)); c != 0 {
				return c
			}
			if c := cmp.Compare(ta, tb); c != 0 {
				return c
			}
			if c := cmp.Compare(da, db); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func digitRun(s string) int {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return n
}

// clockOrigin is the simulated time the run's clock started at, which the
// scenario's root span records (kubeloom.clock.origin): time 0 of the axis,
// so that an action at 5s shows at +5s, although in a live run the first
// span starts a few simulated milliseconds after it.
func clockOrigin(spans []traces.Span) (time.Time, bool) {
	for i := range spans {
		s := &spans[i]
		if s.ParentSpanID.IsValid() || !strings.HasPrefix(s.Name, "scenario ") {
			continue
		}
		if v := s.Attributes.String(catalog.AttrClockOrigin); v != "" {
			t, err := time.Parse(time.RFC3339Nano, v)
			return t, err == nil
		}
	}
	return time.Time{}, false
}
