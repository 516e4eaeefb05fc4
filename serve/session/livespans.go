package session

import (
	"bytes"
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
)

// liveSpans is the span processor behind the live view: it sees every span
// start and end inside the run (engine.Options.Observe) and keeps the ones
// still running beside the ones that ended, so that a snapshot can draw a
// goroutine that has not returned yet (its lifetime span ends only when it
// does, usually at the end of the run).
//
// OnStart and OnEnd only note the span. A snapshot is taken in two parts:
// gather, while the run is quiet, fixes the instant (what has ended, and
// the spans still running, converted then, since they change as the run
// goes on); assemble, in the builder's goroutine while the run goes on,
// converts what ended (a ReadOnlySpan does not change) and puts them
// together. The run waits only for gather.
type liveSpans struct {
	mu       sync.Mutex
	open     map[trace.SpanID]sdktrace.ReadOnlySpan
	pending  []sdktrace.ReadOnlySpan // ended since the last gather
	gathered []sdktrace.ReadOnlySpan // ended by the last gather, not yet converted
	ended    atomic.Int64

	// The builder's: converted spans, in the order they ended.
	converted []traces.Span
}

// moment is one gathered instant of the run.
type moment struct {
	now     time.Time
	running []traces.Span // converted, marked, cut at now
	err     error
}

func newLiveSpans() *liveSpans {
	return &liveSpans{open: map[trace.SpanID]sdktrace.ReadOnlySpan{}}
}

func (l *liveSpans) OnStart(_ context.Context, s sdktrace.ReadWriteSpan) {
	l.mu.Lock()
	l.open[s.SpanContext().SpanID()] = s
	l.mu.Unlock()
}

func (l *liveSpans) OnEnd(s sdktrace.ReadOnlySpan) {
	l.mu.Lock()
	delete(l.open, s.SpanContext().SpanID())
	l.pending = append(l.pending, s)
	l.mu.Unlock()
	l.ended.Add(1)
}

func (*liveSpans) Shutdown(context.Context) error   { return nil }
func (*liveSpans) ForceFlush(context.Context) error { return nil }

// count is how many spans have ended.
func (l *liveSpans) count() int64 { return l.ended.Load() }

// gather fixes the run's instant now for a snapshot. Call it while the run
// is quiet.
func (l *liveSpans) gather(now time.Time) moment {
	l.mu.Lock()
	l.gathered = append(l.gathered, l.pending...)
	l.pending = nil
	open := make([]sdktrace.ReadOnlySpan, 0, len(l.open))
	for _, s := range l.open {
		open = append(open, s)
	}
	l.mu.Unlock()
	// In the order they started, as they would end if the run stopped now:
	// the same run gives the same snapshot.
	slices.SortFunc(open, func(a, b sdktrace.ReadOnlySpan) int {
		if c := a.StartTime().Compare(b.StartTime()); c != 0 {
			return c
		}
		x, y := a.SpanContext().SpanID(), b.SpanContext().SpanID()
		return bytes.Compare(x[:], y[:])
	})
	running, err := convert(open)
	for i := range running {
		s := &running[i]
		s.End = now
		attrs := make(traces.Attributes, len(s.Attributes)+1)
		for k, v := range s.Attributes {
			attrs[k] = v
		}
		attrs[catalog.AttrRunning] = true
		s.Attributes = attrs
	}
	return moment{now: now, running: running, err: err}
}

// assemble returns every span of the latest gathered moment m, as a
// recording would hold them: those that ended, then those still running.
// Only the builder calls it. The result is the caller's.
//
// Spans are converted the way a recording is written and read (the
// Recorder's encoding, traces.Read), so a live view and the replay of the
// recording draw the same spans; each ended span is converted once.
func (l *liveSpans) assemble(m moment) ([]traces.Span, error) {
	if m.err != nil {
		return nil, m.err
	}
	l.mu.Lock()
	gathered := l.gathered
	l.gathered = nil
	l.mu.Unlock()
	ended, err := convert(gathered)
	if err != nil {
		return nil, err
	}
	l.converted = append(l.converted, ended...)
	out := make([]traces.Span, 0, len(l.converted)+len(m.running))
	out = append(out, l.converted...)
	out = append(out, m.running...)
	for i := range out {
		out[i].Line = i + 1
	}
	return out, nil
}

// convertChunk is how many spans convert encodes and reads back at a time:
// a snapshot of a large run converts hundreds of thousands, and one buffer
// for all of them (a gigabyte of JSON for a 100-node run) cost more in page
// faults and garbage collection than the conversion itself.
const convertChunk = 4096

// convert encodes spans as the recording does and reads them back, a chunk
// at a time through one buffer.
func convert(spans []sdktrace.ReadOnlySpan) ([]traces.Span, error) {
	if len(spans) == 0 {
		return nil, nil
	}
	out := make([]traces.Span, 0, len(spans))
	var buf bytes.Buffer
	for len(spans) > 0 {
		n := min(len(spans), convertChunk)
		buf.Reset()
		if err := traces.NewRecorder(&buf).ExportSpans(context.Background(), spans[:n]); err != nil {
			return nil, err
		}
		read, err := traces.Read(bytes.NewReader(buf.Bytes()), "live")
		if err != nil {
			return nil, err
		}
		out = append(out, read...)
		spans = spans[n:]
	}
	return out, nil
}
