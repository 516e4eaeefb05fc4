package session

import (
	"bytes"
	"context"
	"slices"
	"sync"
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
// OnStart and OnEnd only note the span; the work of turning spans into
// traces.Span happens in spans, which the session calls while the run is
// quiet (between two commands of its Control), so that what it reads is
// one instant of the run and the run waits for nobody.
type liveSpans struct {
	mu      sync.Mutex
	open    map[trace.SpanID]sdktrace.ReadOnlySpan
	pending []sdktrace.ReadOnlySpan // ended, not yet converted

	ended []traces.Span // converted, in the order they ended
	buf   bytes.Buffer
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
}

// count is how many spans have ended.
func (l *liveSpans) count() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return int64(len(l.ended) + len(l.pending))
}

func (*liveSpans) Shutdown(context.Context) error   { return nil }
func (*liveSpans) ForceFlush(context.Context) error { return nil }

// spans returns every span so far, as a recording would hold them: those
// that ended, then those still running, cut at now and marked with
// catalog.AttrRunning. Call it while the run is quiet. The result is the
// caller's: later calls do not change it.
//
// Spans are converted the way a recording is written and read (the
// Recorder's encoding, traces.Read), so a live view and the replay of the
// recording draw the same spans, and the converted spans are kept: each
// call converts only what ended since the last.
func (l *liveSpans) spans(now time.Time) ([]traces.Span, error) {
	l.mu.Lock()
	pending := l.pending
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

	ended, err := l.convert(pending)
	if err != nil {
		return nil, err
	}
	l.ended = append(l.ended, ended...)
	running, err := l.convert(open)
	if err != nil {
		return nil, err
	}
	out := make([]traces.Span, 0, len(l.ended)+len(running))
	out = append(out, l.ended...)
	for _, s := range running {
		s.End = now
		attrs := make(traces.Attributes, len(s.Attributes)+1)
		for k, v := range s.Attributes {
			attrs[k] = v
		}
		attrs[catalog.AttrRunning] = true
		s.Attributes = attrs
		out = append(out, s)
	}
	for i := range out {
		out[i].Line = i + 1
	}
	return out, nil
}

// convert encodes spans as the recording does and reads them back.
func (l *liveSpans) convert(spans []sdktrace.ReadOnlySpan) ([]traces.Span, error) {
	if len(spans) == 0 {
		return nil, nil
	}
	l.buf.Reset()
	rec := traces.NewRecorder(&l.buf)
	if err := rec.ExportSpans(context.Background(), spans); err != nil {
		return nil, err
	}
	return traces.Read(&l.buf, "live")
}
