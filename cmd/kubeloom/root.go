package main

import (
	"context"
	"io"
	"net"

	"github.com/spf13/cobra"
)

// streams are a command's input and outputs, so that run functions are
// testable with buffers.
type streams struct {
	in       io.Reader
	out, err io.Writer
	// prog is how the user called kubeloom (programName), for the commands
	// it prints; "" is "kubeloom".
	prog string
	// listen and dial are the network run's servers use; nil is the real
	// one. Tests that run scenarios inside a synctest bubble pass an
	// in-memory network (internal/memnet).
	listen func(network, address string) (net.Listener, error)
	dial   func(ctx context.Context, network, address string) (net.Conn, error)
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

func newRootCmd(s streams) *cobra.Command {
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
	root.SetIn(s.in)
	root.SetOut(s.out)
	root.SetErr(s.err)
	root.AddCommand(
		newRunCmd(s),
		newReplayCmd(s),
		newStepCmd(s),
		newExportCmd(s),
		newPushCmd(s),
		newScenariosCmd(s),
		newGoroutinesCmd(s),
		newVersionCmd(s),
	)
	// Help texts show commands to paste: in the user's spelling.
	var respell func(*cobra.Command)
	respell = func(c *cobra.Command) {
		c.Long, c.Example = s.spell(c.Long), s.spell(c.Example)
		for _, sub := range c.Commands() {
			respell(sub)
		}
	}
	respell(root)
	return root
}
