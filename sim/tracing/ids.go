package tracing

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/trace"
)

// ids gives one instance's spans their IDs in the order they start, instead
// of the SDK's random ones: a recording orders spans that start at one
// instant by their IDs (traces/timeline), and in virtual time every startup
// step of a process starts at one instant, so random IDs would shuffle them
// from run to run.
//
// A span ID is the instance's number (its provider's place among the run's,
// from 1) in its top 24 bits and the instance's count of spans in the other
// 40, so IDs are unique across the recording (its views key spans by span
// ID alone) and sort by instance, then by start. A trace ID is the
// instance's number and its count of traces, then the run's nonce: Jaeger
// keeps spans of one trace ID together, so two runs must not share them.
type ids struct {
	instance uint32
	nonce    [8]byte
	traces   atomic.Uint32
	spans    atomic.Uint64
}

// runNonce is the last eight bytes of a run's trace IDs, from when the run
// was made: runs made at different times differ, and a run made with the
// same wall-clock start (SOURCE_DATE_EPOCH) gets the same IDs.
func runNonce(wallStart time.Time) (n [8]byte) {
	h := fnv.New64a()
	binary.Write(h, binary.BigEndian, wallStart.UnixNano())
	binary.BigEndian.PutUint64(n[:], h.Sum64())
	return n
}

// maxSpansPerInstance is how many spans the 40 bits of a span ID count.
const maxSpansPerInstance = 1 << 40

func (g *ids) NewIDs(ctx context.Context) (trace.TraceID, trace.SpanID) {
	t := g.traceOf(ctx)
	return t, g.NewSpanID(ctx, t)
}

// traceOf is the trace of a root span: its process's (see Process), else
// the instance's next.
func (g *ids) traceOf(ctx context.Context) trace.TraceID {
	p, _ := ctx.Value(processKey{}).(*process)
	if p == nil {
		return g.newTrace()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.trace.IsValid() {
		p.trace = g.newTrace()
	}
	return p.trace
}

// newTrace is the instance's next trace ID.
func (g *ids) newTrace() trace.TraceID {
	var t trace.TraceID
	binary.BigEndian.PutUint32(t[0:4], g.instance)
	binary.BigEndian.PutUint32(t[4:8], g.traces.Add(1))
	copy(t[8:], g.nonce[:])
	return t
}

// Process returns ctx marked as one process's: every span started from it
// without a parent shares one trace. A Go process runs its packages' init
// functions on the main goroutine before main.main, so glog's init (the
// "glog.init" step, which starts the flush daemon) is a root beside main,
// not under it; it belongs to the same process, and Jaeger shows a trace
// per process (docs/jaeger.md), so both roots take the first one's trace
// ID. A process started again (a kubelet stopped and started) is a new
// process: call Process again for it.
func Process(ctx context.Context) context.Context {
	return context.WithValue(ctx, processKey{}, &process{})
}

type processKey struct{}

// process is the trace of one process's spans, set by its first root.
type process struct {
	mu    sync.Mutex
	trace trace.TraceID // zero until the first root
}

func (g *ids) NewSpanID(context.Context, trace.TraceID) trace.SpanID {
	var s trace.SpanID
	n := g.spans.Add(1) % maxSpansPerInstance // wraps after a trillion spans
	binary.BigEndian.PutUint64(s[:], uint64(g.instance)<<40|n)
	return s
}
