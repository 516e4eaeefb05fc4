package tracing

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/otlp"
)

// ScopeName is the instrumentation scope of every kubeloom span.
const ScopeName = "github.com/kubeloom/kubeloom/sim"

// Options says where spans go. The recording is mandatory; the rest is optional.
type Options struct {
	// Recording receives the JSON Lines recording.
	Recording io.Writer
	// Stdout, if set, also receives every span as stdouttrace prints it.
	Stdout io.Writer
	// OTLPEndpoint, if set, is a collector or Jaeger: "http://127.0.0.1:4318"
	// (OTLP/HTTP) or "grpc://127.0.0.1:4317" (OTLP/gRPC). "env" uses the
	// standard OTEL_EXPORTER_OTLP_* variables (see otlp.NewExporter).
	OTLPEndpoint string
	// ExportTimeout bounds each OTLP export and the final flush (default 5s),
	// so that an endpoint that never answers cannot hang the end of a run.
	ExportTimeout time.Duration
	// OTLPShift moves the spans sent over OTLP by this much: the wall clock
	// minus the simulated clock at the start, so that Jaeger shows a run at
	// the time it was made. The recording keeps simulated time.
	OTLPShift time.Duration
	// WallStart is when the run was made; it tells this run's trace IDs
	// from another's (see ids).
	WallStart time.Time
	// Observe, if set, also sees every span start and end, synchronously,
	// in the goroutine that starts or ends it: `kubeloom serve` keeps the
	// spans still running as well as those that ended, for a live view.
	// It must not block; Tracing.Shutdown shuts it down after the recording.
	Observe sdktrace.SpanProcessor
}

// Tracing owns the processors and the per-instance providers.
type Tracing struct {
	recorder   *traces.Recorder
	processors []processor              // real ones, shut down last
	shared     []sdktrace.SpanProcessor // what the providers see
	timeout    time.Duration

	ended counter // spans ended so far, for progress (the recorder counts when it writes)
	nonce [8]byte // the run's, in every trace ID

	mu        sync.Mutex
	providers []*sdktrace.TracerProvider
	exportErr error
}

// New sets up the exporters.
func New(ctx context.Context, o Options) (*Tracing, error) {
	if o.Recording == nil {
		return nil, errors.New("tracing: a recording writer is required")
	}
	t := &Tracing{timeout: o.ExportTimeout, nonce: runNonce(o.WallStart)}
	if t.timeout <= 0 {
		t.timeout = 5 * time.Second
	}
	// Optional exporters are built before any processor starts, so that a
	// bad option leaves nothing running.
	var stdout, otlpExp sdktrace.SpanExporter
	if o.Stdout != nil {
		exp, err := stdouttrace.New(stdouttrace.WithWriter(o.Stdout))
		if err != nil {
			return nil, fmt.Errorf("failed to set up the stdout exporter: %w", err)
		}
		stdout = &errorKeeper{SpanExporter: exp, t: t, what: "the stdout exporter"}
	}
	if o.OTLPEndpoint != "" {
		exp, err := otlp.NewExporter(ctx, o.OTLPEndpoint, t.timeout)
		if err != nil {
			return nil, err
		}
		otlpExp = &errorKeeper{SpanExporter: otlp.Shifted(exp, o.OTLPShift), t: t, what: "the OTLP export to " + otlp.Describe(o.OTLPEndpoint)}
	}
	t.recorder = traces.NewRecorder(o.Recording)
	// The recording never drops a span: see collector.
	t.add(newCollector(t.recorder), "")
	if stdout != nil {
		t.add(sdktrace.NewBatchSpanProcessor(stdout), "the stdout exporter")
	}
	if otlpExp != nil {
		t.add(sdktrace.NewBatchSpanProcessor(otlpExp, sdktrace.WithExportTimeout(t.timeout)), otlpExp.(*errorKeeper).what)
	}
	if o.Observe != nil {
		t.add(o.Observe, "the live view")
	}
	return t, nil
}

// add adds a span processor. optional names an exporter whose failure
// must not fail the run ("" for the recording).
func (t *Tracing) add(p sdktrace.SpanProcessor, optional string) {
	t.processors = append(t.processors, processor{p, optional})
	t.shared = append(t.shared, unshared{p})
}

type processor struct {
	sdktrace.SpanProcessor
	optional string
}

// Provider returns a new TracerProvider for one instance, its resource built
// from attrs (service.name, service.instance.id, kubeloom.scenario, ...).
// Its span and trace IDs count in the order its spans start (see ids), so
// call Provider in the same order in every run.
func (t *Tracing) Provider(attrs ...attribute.KeyValue) *sdktrace.TracerProvider {
	opts := providerOptions(attrs...)
	for _, p := range t.shared {
		opts = append(opts, sdktrace.WithSpanProcessor(p))
	}
	opts = append(opts, sdktrace.WithSpanProcessor(&t.ended))
	t.mu.Lock()
	defer t.mu.Unlock()
	opts = append(opts, sdktrace.WithIDGenerator(&ids{instance: uint32(len(t.providers) + 1), nonce: t.nonce}))
	tp := sdktrace.NewTracerProvider(opts...)
	t.providers = append(t.providers, tp)
	return tp
}

// providerOptions are the options of every instance's provider but its
// span processors.
func providerOptions(attrs ...attribute.KeyValue) []sdktrace.TracerProviderOption {
	return []sdktrace.TracerProviderOption{
		sdktrace.WithResource(resource.NewSchemaless(attrs...)),
		sdktrace.WithSampler(sdktrace.AlwaysSample()),
		sdktrace.WithRawSpanLimits(sdktrace.SpanLimits{
			AttributeValueLengthLimit: -1, AttributeCountLimit: 128,
			EventCountLimit: 1024, LinkCountLimit: 128,
			AttributePerEventCountLimit: 32, AttributePerLinkCountLimit: 32,
		}),
	}
}

// Tracer is a provider's tracer with kubeloom's scope.
func Tracer(tp trace.TracerProvider) trace.Tracer { return tp.Tracer(ScopeName) }

// Spans is the number of spans written to the recording so far.
func (t *Tracing) Spans() int64 { return t.recorder.Spans() }

// Ended is the number of spans ended so far; they reach the recording
// within the batch processor's delay.
func (t *Tracing) Ended() int64 { return t.ended.n.Load() }

// ExportError is the first error an optional exporter reported, if any,
// naming the exporter: "the OTLP export to URL failed: ...". Spans that
// could not be exported are still in the recording.
func (t *Tracing) ExportError() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.exportErr
}

// Shutdown ends every span processor: the recording is flushed first and
// completely; optional exporters get at most the export timeout.
func (t *Tracing) Shutdown(ctx context.Context) error {
	var errs []error
	t.mu.Lock()
	providers := t.providers
	t.mu.Unlock()
	for _, tp := range providers {
		errs = append(errs, tp.Shutdown(ctx)) // processors are unshared: this only stops new spans
	}
	for _, p := range t.processors {
		if p.optional == "" {
			if err := p.Shutdown(ctx); err != nil {
				errs = append(errs, fmt.Errorf("failed to flush the recording: %w", err))
			}
			continue
		}
		// An optional exporter gets the export timeout; if it fails, the
		// run still succeeds and the summary says so.
		pctx, cancel := context.WithTimeout(ctx, t.timeout)
		if err := p.Shutdown(pctx); err != nil {
			t.keep(p.optional, err)
		}
		cancel()
	}
	return errors.Join(errs...)
}

// unshared lets several providers use one processor: a provider's Shutdown
// must not end the processor the others still feed; Tracing.Shutdown does.
type unshared struct{ sdktrace.SpanProcessor }

func (unshared) Shutdown(context.Context) error { return nil }

// keep remembers the first error of an optional exporter.
func (t *Tracing) keep(what string, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.exportErr == nil {
		// The exporter's own deadline, or the batch processor's, whichever
		// ends first (on a loaded CPU, either): the SDK's processor cancels
		// with the cause "processor export timeout", which is not
		// DeadlineExceeded.
		if errors.Is(err, context.DeadlineExceeded) || status.Code(err) == codes.DeadlineExceeded ||
			strings.Contains(err.Error(), "processor export timeout") {
			err = fmt.Errorf("no answer within %s: %w", t.timeout, err)
		}
		t.exportErr = fmt.Errorf("%s failed: %w", what, err)
	}
}

// errorKeeper remembers an optional exporter's first error for the summary.
type errorKeeper struct {
	sdktrace.SpanExporter
	t    *Tracing
	what string // "the OTLP export to URL"
}

func (e *errorKeeper) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	err := e.SpanExporter.ExportSpans(ctx, spans)
	if err != nil {
		e.t.keep(e.what, err)
	}
	return err
}

// counter counts ended spans.
type counter struct{ n atomic.Int64 }

func (*counter) OnStart(context.Context, sdktrace.ReadWriteSpan) {}
func (c *counter) OnEnd(sdktrace.ReadOnlySpan)                   { c.n.Add(1) }
func (*counter) Shutdown(context.Context) error                  { return nil }
func (*counter) ForceFlush(context.Context) error                { return nil }
