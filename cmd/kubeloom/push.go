package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/otlp"
	"github.com/kubeloom/kubeloom/traces/push"
)

// pushOptions are what `kubeloom push` is told: its argument and flags,
// and the streams it reports on.
type pushOptions struct {
	io streams

	file          string
	endpoint      string
	timeout       time.Duration
	simulatedTime bool
}

// newPushCmd builds `kubeloom push`; runF, if not nil, is called with the
// parsed options instead of runPush (tests of the flags).
func newPushCmd(d deps, runF func(context.Context, *pushOptions) error) *cobra.Command {
	d = d.withDefaults()
	o := &pushOptions{io: d.streams}
	cmd := &cobra.Command{
		Use:   "push FILE",
		Short: "Send a recording to Jaeger or an OpenTelemetry collector over OTLP",
		Long: `Send every span of a recording over OTLP, as 'kubeloom run --otlp-endpoint'
sent it live: the same trace and span IDs, parents, links, attributes,
events, services and timestamps. A recording's timestamps are simulated
time, which starts at 2016-12-12 00:00 UTC in every run; like a live run,
push moves them to the wall-clock time the run was made (the recording
says when), so Jaeger finds it there: search the range printed at the end.
--simulated-time sends the recorded times as they are.

Without --otlp-endpoint, the standard OTEL_EXPORTER_OTLP_ENDPOINT or
OTEL_EXPORTER_OTLP_TRACES_ENDPOINT variable says where to send (with the
other OTEL_EXPORTER_OTLP_* variables: headers, protocol, certificates).
A recording with unreadable lines is not pushed: the error names them.`,
		Example: `  make jaeger    # in another terminal: Jaeger on 127.0.0.1:4317 (gRPC) and :4318 (HTTP)
  kubeloom push recordings/informer-basics.jsonl --otlp-endpoint http://127.0.0.1:4318
  kubeloom push recordings/informer-basics.jsonl --otlp-endpoint grpc://127.0.0.1:4317
  OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 kubeloom push recordings/informer-basics.jsonl`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.file = args[0]
			if !cmd.Flags().Changed("otlp-endpoint") && d.otlpEnv() != "" {
				o.endpoint = otlp.EnvEndpoint
			}
			if o.endpoint == "" {
				return errors.New("no OTLP endpoint: give --otlp-endpoint http://127.0.0.1:4318 (or grpc://127.0.0.1:4317), or set OTEL_EXPORTER_OTLP_ENDPOINT; `make jaeger` starts a Jaeger there")
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return runPush(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.endpoint, "otlp-endpoint", "", "where to send: http://127.0.0.1:4318 (OTLP/HTTP) or grpc://127.0.0.1:4317 (OTLP/gRPC) (default: $OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or $OTEL_EXPORTER_OTLP_ENDPOINT)")
	f.DurationVar(&o.timeout, "timeout", push.DefaultTimeout, "give up when the endpoint does not answer a request within this time")
	f.BoolVar(&o.simulatedTime, "simulated-time", false, "send the recorded (simulated) timestamps, from 2016-12-12, instead of moving the run to when it was recorded")
	return cmd
}

// runPush sends the recording's spans to the endpoint and says what it
// sent.
func runPush(ctx context.Context, o *pushOptions) error {
	spans, done, err := readRecording(ctx, o.file, traces.ReadOptions{})
	defer done()
	if err != nil {
		// Pushing part of a recording would show Jaeger traces with holes.
		return fmt.Errorf("%w\nnothing was pushed", err)
	}
	if len(spans) == 0 {
		return fmt.Errorf("%s: no spans in the recording; nothing to push", o.file)
	}
	shift, recorded := traces.WallClockOffset(spans)
	clockName := "the wall-clock time the run was recorded"
	switch {
	case o.simulatedTime:
		shift, clockName = 0, "the run's simulated clock"
	case !recorded:
		clockName = "the run's simulated clock: the recording does not say when it was made"
	}
	if err := push.Push(ctx, spans, o.endpoint, push.WithTimeout(o.timeout), push.WithShift(shift)); err != nil {
		return err
	}
	sum := summarizePush(spans)
	printf(o.io.out, "pushed %d spans (%d traces) from %s to %s\n", len(spans), sum.traces, o.file, otlp.Describe(o.endpoint))
	printf(o.io.out, "  services: %s\n", strings.Join(sum.services, ", "))
	fmt.Fprintf(o.io.out, "  spans start between %s and %s (%s): search that range\n",
		sum.first.Add(shift).Local().Format(time.DateTime), sum.last.Add(shift).Local().Format(time.DateTime), clockName)
	return nil
}

type pushSummary struct {
	traces      int
	services    []string
	first, last time.Time
}

func summarizePush(spans []traces.Span) pushSummary {
	var sum pushSummary
	seenTrace := map[trace.TraceID]bool{}
	for _, sp := range spans {
		if !seenTrace[sp.TraceID] {
			seenTrace[sp.TraceID] = true
			sum.traces++
		}
		if svc := sp.Resource.String("service.name"); svc != "" && !slices.Contains(sum.services, svc) {
			sum.services = append(sum.services, svc)
		}
		if sum.first.IsZero() || sp.Start.Before(sum.first) {
			sum.first = sp.Start
		}
		if sp.Start.After(sum.last) {
			sum.last = sp.Start
		}
	}
	slices.Sort(sum.services)
	return sum
}
