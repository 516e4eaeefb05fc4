package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/termview"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

type replayOptions struct {
	file     string
	width    int
	from, to time.Duration
	ascii    bool
}

func newReplayCmd(s streams) *cobra.Command {
	o := &replayOptions{}
	cmd := &cobra.Command{
		Use:   "replay FILE",
		Short: "Show a recording as a terminal timeline, one lane per goroutine",
		Long: `Show a recording as a timeline in the terminal: one lane per goroutine,
grouped by instance, on an axis of simulated seconds, with a mark per loop
iteration, handler call and event. Lines that cannot be read are reported
with their line numbers; the rest is shown.`,
		Example: `  kubeloom replay traces/informer-basics-20261202-101500.jsonl
  kubeloom replay run.jsonl --width 160 --from 18s --to 25s`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.file = args[0]
			return runReplay(s, o)
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.width, "width", 0, "columns to fill (default: the terminal's width, else $COLUMNS, else 100)")
	f.DurationVar(&o.from, "from", 0, "start of the window, in simulated time since the start")
	f.DurationVar(&o.to, "to", 0, "end of the window (default: the end of the recording)")
	f.BoolVar(&o.ascii, "ascii", false, "draw with ASCII characters only")
	return cmd
}

func runReplay(s streams, o *replayOptions) error {
	spans, readErr := traces.ReadFile(o.file)
	if len(spans) == 0 {
		if readErr != nil {
			return readErr
		}
		return fmt.Errorf("%s: no spans in the recording", o.file)
	}
	if readErr != nil {
		// Show what could be read, and say what could not.
		fmt.Fprintf(s.err, "warning: some lines of %s could not be read:\n%v\n", o.file, readErr)
	}
	tl := timeline.Build(spans)
	return termview.Render(s.out, tl, termview.Options{Width: o.width, From: o.from, To: o.to, ASCII: o.ascii})
}
