package push

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/otlp"
)

// Defaults of Push.
const (
	// DefaultTimeout bounds each export request and the exporter's
	// shutdown, so that a collector that is down or never answers costs at
	// most this long.
	DefaultTimeout = 5 * time.Second
	// DefaultBatchSize is the number of spans per request, the batch span
	// processor's default: small enough for any receiver's message limit
	// (Jaeger's gRPC receiver takes 4 MiB).
	DefaultBatchSize = 512
)

// Option configures Push.
type Option func(*config)

type config struct {
	timeout time.Duration
	batch   int
	shift   time.Duration
}

// WithShift moves every span by d before sending it (default 0: the
// recorded times). kubeloom push passes traces.WallClockOffset, so that a
// recording arrives as its run did live.
func WithShift(d time.Duration) Option {
	return func(c *config) { c.shift = d }
}

// WithTimeout bounds each export request (default DefaultTimeout, 5s).
// Non-positive values are ignored.
func WithTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.timeout = d
		}
	}
}

// WithBatchSize sets the number of spans per request (default
// DefaultBatchSize, 512). Non-positive values are ignored.
func WithBatchSize(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.batch = n
		}
	}
}

// Push sends spans to an OTLP endpoint (see otlp.NewExporter for the forms it
// takes) with their original IDs, parents, timestamps (moved by WithShift),
// attributes, events,
// links, resources and scope. Spans go in requests of one resource each, in
// the order of the recording; Push returns when the endpoint has accepted
// all of them, or at the first request it refuses or does not answer within
// the timeout, with an error that says how many spans got through.
func Push(ctx context.Context, spans []traces.Span, endpoint string, opts ...Option) (err error) {
	c := config{timeout: DefaultTimeout, batch: DefaultBatchSize}
	for _, o := range opts {
		o(&c)
	}
	stubs, err := Stubs(spans)
	if err != nil {
		return err
	}
	if len(stubs) == 0 {
		return nil
	}
	otlp.Shift(stubs, c.shift)
	exp, err := otlp.NewExporter(ctx, endpoint, c.timeout)
	if err != nil {
		if ctx.Err() != nil {
			return exportError(ctx, endpoint, c.timeout, 0, len(stubs), err)
		}
		return err
	}
	defer func() {
		// Shutdown only closes connections (nothing is buffered): a second
		// is plenty, and keeps a failed push within about the timeout.
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), min(c.timeout, time.Second))
		defer cancel()
		if serr := exp.Shutdown(sctx); serr != nil && err == nil {
			err = fmt.Errorf("failed to close the connection to the OTLP endpoint: %w", serr)
		}
	}()
	sent := 0
	for _, b := range batches(stubs, c.batch) {
		ectx, cancel := context.WithTimeout(ctx, c.timeout)
		err := exp.ExportSpans(ectx, b.Snapshots())
		cancel()
		if err != nil {
			return exportError(ctx, endpoint, c.timeout, sent, len(stubs), err)
		}
		sent += len(b)
	}
	return nil
}

func exportError(ctx context.Context, endpoint string, timeout time.Duration, sent, total int, err error) error {
	endpoint = otlp.Describe(endpoint)
	if ctx.Err() != nil {
		return fmt.Errorf("push to %s interrupted after %d of %d spans: %w", endpoint, sent, total, err)
	}
	hint := "is a collector or Jaeger listening there? (`make jaeger` starts one on 127.0.0.1:4317 and :4318)"
	if errors.Is(err, context.DeadlineExceeded) {
		hint = fmt.Sprintf("gave up after %s; %s", timeout, hint)
	}
	return fmt.Errorf("failed to push to %s after %d of %d spans: %w; %s", endpoint, sent, total, err, hint)
}

// batches groups stubs by resource, in the order each resource first
// appears, and cuts each group into requests of at most n spans.
func batches(stubs tracetest.SpanStubs, n int) []tracetest.SpanStubs {
	var order []attribute.Distinct
	groups := map[attribute.Distinct]tracetest.SpanStubs{}
	for _, s := range stubs {
		k := s.Resource.Equivalent()
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], s)
	}
	var out []tracetest.SpanStubs
	for _, k := range order {
		g := groups[k]
		for len(g) > n {
			out = append(out, g[:n:n])
			g = g[n:]
		}
		out = append(out, g)
	}
	return out
}
