// Command kubeloom runs Kubernetes start-up scenarios as traced goroutines
// and replays the recordings. See README.md.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"go.opentelemetry.io/otel"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Export failures of the optional exporters are reported once in the run
	// summary; the SDK's default handler would log each one mid-progress.
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(error) {}))
	cmd := newRootCmd(streams{in: os.Stdin, out: os.Stdout, err: os.Stderr})
	if err := cmd.ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "kubeloom:", err)
		stop()
		os.Exit(1)
	}
}
