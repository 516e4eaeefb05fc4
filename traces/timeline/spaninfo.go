package timeline

import (
	"reflect"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
)

// What Build reads of each span's maps, once: the passes after it read a
// small spanInfo per span and touch no map. Instances are numbered as they
// are met.

type instKey struct{ service, id string }

// instID numbers an instance while building: an index into the table of
// instKeys, so that a span's spanInfo holds 4 bytes for it, not 32.
type instID int32

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

// read fills in b.info, on all CPUs for a large recording, and returns the
// table of the instances and what the spans say of the recording as a
// whole.
func (b *builder) read() ([]instKey, summaryPart) {
	spans := b.spans
	b.info = make([]spanInfo, len(spans))
	parts := make([]summaryPart, b.workers(len(spans)))
	caches := make([]resourceCache, len(parts))
	parallel(len(spans), len(parts), func(w, lo, hi int) {
		res := &caches[w]
		p := summaryPart{scenario: -1, start: -1, end: -1}
		for i := lo; i < hi; i++ {
			p.links += b.info[i].read(&spans[i], res)
			p.add(spans, i)
		}
		parts[w] = p
	})
	// Each part numbered the instances it met: number them for the whole.
	insts := numberInstances(b.info, caches)
	whole := summaryPart{scenario: -1, start: -1, end: -1}
	for _, p := range parts {
		whole.merge(spans, p)
	}
	return insts, whole
}

// read fills in i from s and returns the number of s's causal links.
func (i *spanInfo) read(s *traces.Span, res *resourceCache) int {
	i.inst = res.instance(s.Resource)
	// One pass over the attributes rather than a lookup for each key: the
	// same values as the Attributes methods give.
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
		// The parts of the pass that read info: parallel splits alike.
		parallel(len(info), len(caches), func(w, lo, hi int) {
			for i := lo; i < hi; i++ {
				info[i].inst = renumber[w][info[i].inst]
			}
		})
	}
	return insts
}
