// Command kubeloom runs Kubernetes start-up scenarios as traced goroutines
// and replays the recordings. See README.md.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"go.opentelemetry.io/otel"

	"github.com/kubeloom/kubeloom/internal/printable"
)

func main() {
	ctx, stop := signalContext(context.Background(), signalPatience, os.Exit)
	defer stop()
	quietOTel()
	s := streams{in: os.Stdin, out: os.Stdout, err: os.Stderr, prog: programName(os.Args[0])}
	cmd := newRootCmd(deps{streams: s})
	err := cmd.ExecuteContext(ctx)
	var status exitStatus
	if err != nil && !(errors.As(err, &status) && status.err == nil) {
		fmt.Fprintln(os.Stderr, "kubeloom:", printable.Text(s.spell(err.Error())))
	}
	sig, signalled := receivedSignal(ctx) // read before stop, which cancels ctx
	stop()
	os.Exit(exitCode(err, sig, signalled))
}

// signalPatience is how long a command other than run has to stop after
// SIGINT or SIGTERM before it is ended (signalContext): the readers stop
// within milliseconds, so only a read blocked in the kernel waits it out.
const signalPatience = 800 * time.Millisecond

// quietOTel silences the OpenTelemetry SDK's global error handler: export
// failures are reported once, in the run's summary, and the default handler
// would log each failed batch in the middle of the progress line.
func quietOTel() { otel.SetErrorHandler(otel.ErrorHandlerFunc(func(error) {})) }

// exitCode is 128 plus the signal's number after SIGINT or SIGTERM (130
// after Ctrl-C, 143 after SIGTERM, as shells report them), even when the
// interrupted command finished cleanly (run writes a complete recording
// first); the status an exitStatus error names (diff's 1 and 2); 1 after
// another error; else 0.
func exitCode(err error, sig syscall.Signal, signalled bool) int {
	var status exitStatus
	switch {
	case signalled:
		return 128 + int(sig)
	case errors.As(err, &status):
		return status.status
	case err != nil:
		return 1
	}
	return 0
}
