package main

import (
	"io"

	"github.com/spf13/cobra"
)

// streams are a command's input and outputs, so that run functions are
// testable with buffers.
type streams struct {
	in       io.Reader
	out, err io.Writer
}

func newRootCmd(s streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "kubeloom",
		Short: "Trace the goroutines of Kubernetes component start-up, and replay them",
		Long: `kubeloom boots simulated Kubernetes components against client-go's fake
clientset, runs every goroutine the source-reading articles describe as a real
goroutine wrapped in OpenTelemetry spans, and replays the recording.

Start with:  kubeloom run informer-basics  and then  kubeloom replay FILE`,
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
	return root
}
