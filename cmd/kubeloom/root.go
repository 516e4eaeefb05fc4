package main

import (
	"context"
	"io"
	"net"

	"github.com/spf13/cobra"
	"k8s.io/utils/clock"

	"github.com/kubeloom/kubeloom/sim/engine"
	"github.com/kubeloom/kubeloom/traces/otlp"
)

// streams are a command's input and outputs, so that run functions are
// testable with buffers.
type streams struct {
	in       io.Reader
	out, err io.Writer
	// prog is how the user called kubeloom (programName), for the commands
	// it prints; "" is "kubeloom".
	prog string
}

// name is how the user called kubeloom.
func (s streams) name() string {
	if s.prog == "" {
		return "kubeloom"
	}
	return s.prog
}

// spell writes the kubeloom commands of text as the user called kubeloom.
func (s streams) spell(text string) string { return spell(text, s.prog) }

// network is what run's servers listen and dial on; nil is the real one.
// Tests that run scenarios inside a synctest bubble pass an in-memory
// network (internal/memnet): a goroutine waiting on a real socket would
// keep the bubble's clock from moving.
type network struct {
	listen func(network, address string) (net.Listener, error)
	dial   func(ctx context.Context, network, address string) (net.Conn, error)
}

// deps are what the commands take from the process rather than from their
// command line, as cli/cli's Factory: the streams, the network, the clock
// and the environment. Each newXCmd copies into its options the ones its
// run function uses; main passes the process's own, tests buffers, an
// in-memory network and a clock that stands still.
type deps struct {
	streams
	network
	// clock tells run when it starts (the default --out name, the
	// recording's wall-clock start, the real time a run took); nil is the
	// real clock.
	clock clock.PassiveClock
	// runVirtual runs a scenario in virtual time; nil is engine.RunVirtual,
	// which makes a bubble of its own. Tests, already inside one
	// (synctest.Test), run engine.Run there instead.
	runVirtual func(context.Context, engine.Options) (*engine.Summary, error)
	// otlpEnv is the endpoint the OTEL_EXPORTER_OTLP_* variables name, ""
	// when none does: run and push export there without --otlp-endpoint.
	// nil is otlp.EnvEndpointURL. (The OpenTelemetry exporter reads the
	// other variables itself, from the process's environment.)
	otlpEnv func() string
}

// withDefaults fills in the process's own clock and environment where d
// leaves them out.
func (d deps) withDefaults() deps {
	if d.clock == nil {
		d.clock = clock.RealClock{}
	}
	if d.otlpEnv == nil {
		d.otlpEnv = otlp.EnvEndpointURL
	}
	return d
}

// newRootCmd builds kubeloom's command tree. The root has no flags of its
// own (no persistent flags): each command's flags are its own, parsed into
// its options.
func newRootCmd(d deps) *cobra.Command {
	root := &cobra.Command{
		Use:   "kubeloom",
		Short: "Trace the goroutines of Kubernetes component start-up, and replay them",
		Long: `kubeloom boots simulated Kubernetes components against client-go's fake
clientset, runs every goroutine the source-reading articles describe as a real
goroutine wrapped in OpenTelemetry spans, and replays the recording.

Start with:  kubeloom run informer-basics  and then  kubeloom replay FILE
(the run prints the file's name).`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(d.in)
	root.SetOut(d.out)
	root.SetErr(d.err)
	root.AddCommand(
		newRunCmd(d, nil),
		newReplayCmd(d, nil),
		newStepCmd(d, nil),
		newExportCmd(d, nil),
		newPushCmd(d, nil),
		newDiffCmd(d, nil),
		newScenariosCmd(d),
		newGoroutinesCmd(d, nil),
		newServeCmd(d, nil),
		newVersionCmd(d, nil),
	)
	// Help texts show commands to paste: in the user's spelling.
	var respell func(*cobra.Command)
	respell = func(c *cobra.Command) {
		c.Long, c.Example = d.spell(c.Long), d.spell(c.Example)
		for _, sub := range c.Commands() {
			respell(sub)
		}
	}
	respell(root)
	return root
}
