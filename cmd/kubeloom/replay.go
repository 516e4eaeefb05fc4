package main

import (
	"cmp"
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/kubeloom/kubeloom/sim/catalog/locale"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/podstartup"
	"github.com/kubeloom/kubeloom/traces/termview"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// replayOptions are what `kubeloom replay` is told: its argument and
// flags, and the streams it shows the recording on.
type replayOptions struct {
	io  streams
	ctx context.Context // the command's, done after SIGINT or SIGTERM; nil: none

	file       string
	width      int
	from, to   time.Duration
	ascii      bool
	instances  []string
	goroutines []string
	summary    bool
	latency    bool
	lang       string
	color      termview.ColorMode
	expand     []string
}

// newReplayCmd builds `kubeloom replay`; runF, if not nil, is called with
// the parsed options instead of runReplay (tests of the flags).
func newReplayCmd(d deps, runF func(*replayOptions) error) *cobra.Command {
	o := &replayOptions{io: d.streams}
	cmd := &cobra.Command{
		Use:   "replay FILE",
		Short: "Show a recording as a terminal timeline, one lane per goroutine",
		Long: `Show a recording as a timeline in the terminal: one lane per goroutine,
grouped by instance, on an axis of simulated seconds, with a mark per loop
iteration, handler call and event. Lines that cannot be read are reported
with their line numbers; the rest is shown.

--instance and --goroutine keep only some lanes (both repeatable, or
comma-separated; patterns as Go's path.Match: *, ?, [a-z]). An instance is
named by its ID (node-1), its service (kubelet) or both ("kubelet node-1").
A goroutine pattern matches a lane's label or goroutine name, with or
without its component prefix: "pleg*" keeps kubelet/pleg-relist.

A recording of more lanes than fit (the terminal's height, else 60) folds
each group into one row: the controller manager's own goroutines, the
shared informers, each controller with the informers, workers and event
pipeline it started, each kubelet manager, the pod workers. --expand NAME
unfolds a group (repeatable; "controller/replicaset", "replicaset",
"cm-0/informers", a pattern such as 'controller/*', or "all"); a
--goroutine filter never folds.

--summary prints a table instead of the timeline: per lane its kind, loop
period, iterations (including those the recorder sampled out), spans, and
when it started and ended.

--latency prints how long each pod took to start instead: create →
scheduled → the first status write that says Running, with the p50, p90,
p99 and max (nearest rank) over every pod and per kubelet, from the whole
recording (docs/replay.md says which spans mark each moment); --lang
chooses its language.

Colours are used when the output is a terminal, unless NO_COLOR is set to a
non-empty value (https://no-color.org) or --color says otherwise.`,
		Example: `  kubeloom replay recordings/informer-basics.jsonl
  kubeloom replay recordings/informer-basics.jsonl --width 160 --from 18s --to 25s
  kubeloom replay recordings/informer-basics.jsonl --instance informers --goroutine 'informer/listener-*' --goroutine 'watch/*'
  kubeloom replay recordings/informer-basics.jsonl --summary --goroutine 'informer/*'
  kubeloom run cluster-basics -q --out recordings/cluster-basics.jsonl
  kubeloom replay recordings/cluster-basics.jsonl --latency --lang zh
  kubeloom run cm-leader-failover -q --out recordings/cm-leader-failover.jsonl
  kubeloom replay recordings/cm-leader-failover.jsonl --instance 'classic/*' --expand controller-manager --expand replicaset
  kubeloom replay recordings/informer-basics.jsonl --color always | less -R`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.file = args[0]
			// The patterns are checked before reading what may be a
			// large file.
			if err := o.filter().Validate(); err != nil {
				return err
			}
			if runF != nil {
				return runF(o)
			}
			o.ctx = cmd.Context()
			return runReplay(o)
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.width, "width", 0, "columns to fill (default: the terminal's width, else $COLUMNS, else 100)")
	f.DurationVar(&o.from, "from", 0, "start of the window, in simulated time since the start")
	f.DurationVar(&o.to, "to", 0, "end of the window (default: the end of the recording)")
	f.BoolVar(&o.ascii, "ascii", false, "draw with ASCII characters only")
	f.StringSliceVar(&o.instances, "instance", nil, `show only this instance: an ID, a service or "service id"; a pattern; repeatable`)
	f.StringSliceVar(&o.goroutines, "goroutine", nil, "show only lanes whose label or goroutine name matches this pattern; repeatable")
	f.StringSliceVar(&o.expand, "expand", nil, `unfold this group of lanes: a name ("controller/replicaset", "replicaset", "cm-0/informers"), a pattern, or "all"; repeatable`)
	f.BoolVar(&o.summary, "summary", false, "print a table of the lanes (kind, period, iterations, spans, start, end) instead of the timeline")
	f.BoolVar(&o.latency, "latency", false, "print each pod's startup (create → scheduled → Running: p50, p90, p99, max, overall and per kubelet) instead of the timeline")
	addLangFlag(f, &o.lang, "language of --latency: "+locale.Choices())
	f.Var(&o.color, "color", "colour the output: auto (when it is a terminal and NO_COLOR is unset or empty), always or never")
	// --latency reads the whole recording: a window or a choice of lanes
	// would say nothing of it.
	for _, other := range []string{"summary", "from", "to", "instance", "goroutine", "expand"} {
		cmd.MarkFlagsMutuallyExclusive("latency", other)
	}
	return cmd
}

// filter is the lanes --instance and --goroutine keep.
func (o *replayOptions) filter() timeline.Filter {
	return timeline.Filter{Instances: o.instances, Goroutines: o.goroutines}
}

// runReplay reads the recording and draws its timeline, or its summary
// table, on the output.
func runReplay(o *replayOptions) error {
	if o.latency {
		return runLatency(o)
	}
	// The summary of the whole recording only counts the marks: it is made
	// from an outline, which has none, of spans read with only what an
	// outline needs.
	outline := o.summary && o.from == 0 && o.to == 0
	var only traces.ReadOptions
	if outline {
		only = traces.ReadOptions{Attributes: timeline.OutlineAttributes, NoEvents: true}
	}
	ctx := cmp.Or(o.ctx, context.Background())
	spans, done, err := readShown(ctx, o.file, only, o.io.err, "")
	defer done()
	if err != nil {
		return err
	}
	var tl *timeline.Timeline
	if outline {
		tl, err = timeline.OutlineContext(ctx, spans)
	} else {
		tl, err = timeline.BuildContext(ctx, spans)
	}
	if err != nil {
		return err
	}
	opt := termview.Options{
		Width: o.width, From: o.from, To: o.to, ASCII: o.ascii,
		Filter: o.filter(),
		Color:  termview.UseColor(o.color, o.io.out),
		Expand: o.expand, MaxLanes: termview.TerminalLanes(o.io.out),
	}
	out := interruptible{ctx, o.io.out}
	if o.summary {
		return termview.Summary(out, tl, opt)
	}
	return termview.Render(out, tl, opt)
}

// runLatency reads of the recording only what marks a pod's moments
// (podstartup.Attributes, no events) and prints the pod startup table.
func runLatency(o *replayOptions) error {
	ctx := cmp.Or(o.ctx, context.Background())
	spans, done, err := readShown(ctx, o.file, traces.ReadOptions{Attributes: podstartup.Attributes, NoEvents: true}, o.io.err, "")
	defer done()
	if err != nil {
		return err
	}
	var c podstartup.Collector
	c.Spans(spans)
	return termview.Latency(interruptible{ctx, o.io.out}, c.Report(), termview.LatencyOptions{Width: o.width, ASCII: o.ascii, Lang: o.lang})
}
