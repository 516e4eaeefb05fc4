package timeline

import (
	"encoding/binary"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/traces"
)

// Each span's parent, found by its trace and span IDs in an index of the
// spans. The index is sharded by span ID, a shard per goroutine, so that a
// large recording is indexed on all CPUs.

type spanKey struct {
	trace trace.TraceID
	span  trace.SpanID
}

// linkParents sets the parent of each span in b.info. Of spans that share
// an ID the first in the canonical order stands for them, as if the index
// were built in that order.
func (b *builder) linkParents() {
	spans, info := b.spans, b.info
	shards := make([]*spanIndex, b.workers(len(spans)))
	parallel(len(shards), len(shards), func(_, lo, hi int) {
		for sh := lo; sh < hi; sh++ {
			shards[sh] = newSpanIndex(spans, info, sh, len(shards))
		}
	})
	parallel(len(spans), b.workers(len(spans)), func(_, lo, hi int) {
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
