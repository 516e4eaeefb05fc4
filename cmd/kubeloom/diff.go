package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/kubeloom/kubeloom/traces/diff"
	"github.com/kubeloom/kubeloom/traces/termview"
)

// diffOptions are what `kubeloom diff` is told.
type diffOptions struct {
	io  streams
	ctx context.Context

	a, b       string // the recordings
	selA, selB string // --a, --b
	width      int
	ascii      bool
	all        bool
	threshold  float64
	minShift   time.Duration
	format     string // text or html
	out        string // -o: the page
	force      bool
}

// errDifferent is what diff returns when the recordings differ: the exit
// status 1 of diff(1), with nothing more to print.
var errDifferent = exitStatus{status: 1}

// exitStatus is an error that only sets the process's exit status: diff's
// 1 for "different", 2 for trouble.
type exitStatus struct {
	status int
	err    error
}

func (e exitStatus) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.status)
	}
	return e.err.Error()
}
func (e exitStatus) Unwrap() error { return e.err }

// newDiffCmd builds `kubeloom diff`; runF, if not nil, is called with the
// parsed options instead of runDiff (tests of the flags).
func newDiffCmd(d deps, runF func(*diffOptions) error) *cobra.Command {
	o := &diffOptions{io: d.streams}
	cmd := &cobra.Command{
		Use:   "diff A B",
		Short: "Compare two recordings: goroutines, loop periods, startup order, how long each action took to reach its first effect",
		Long: `Compare two recordings (plain or .zst), or two instances of one, and print
what B does differently from A:

  - the goroutine families that only one has, or that ran differently: how
    many goroutines, iterations (the sampled-out idle ones counted), the
    median period between iterations, the first start, spans and errors,
    with the change (Δ and ×);
  - the startup steps (the calls on each process's main lane) whose order
    or time differs;
  - each scenario action, and how long after it its first effect came (the
    first span that names it as its cause).

Instances pair by role: their service and ID without the era, so that
classic/cm-0 pairs with modern/cm-0; a family is a goroutine's label
without a worker's number, so that a pool's workers count together and a
pod worker pairs with the same pod's. --a and --b select an era or an
instance on each side: diff rec.jsonl rec.jsonl --a classic --b modern
compares the two eras of one recording.

The first line says it all ("B: 12 goroutines fewer, 3 loops slower, …").
Only what differs beyond --threshold (counts and periods, relative) and
--min-shift (times) is listed; --all lists everything. The exit status is
0 when nothing differs, 1 when something does, 2 when the recordings
cannot be read: as diff's.

--format html writes one self-contained page instead (beside A, named
A-diff.html, or where -o says): the two timelines on one axis, each from
its recording's start, the instances in pairs (A's above B's), the lanes
of a family that differs highlighted, those that ran on one side only
marked, and a panel that lists what differs, each row a link to its lane;
grouping, search and zoom as in export's page. The exit status is the
same.`,
		Example: `  kubeloom run informer-eras -q --out recordings/informer-eras.jsonl
  kubeloom diff recordings/informer-eras.jsonl recordings/informer-eras.jsonl --a classic --b modern
  kubeloom run kubelet-startup -q --era classic --out recordings/kubelet-classic.jsonl
  kubeloom run kubelet-startup -q --era modern --out recordings/kubelet-modern.jsonl
  kubeloom diff recordings/kubelet-classic.jsonl recordings/kubelet-modern.jsonl
  kubeloom diff recordings/kubelet-classic.jsonl recordings/kubelet-modern.jsonl --all --width 120
  kubeloom diff recordings/kubelet-classic.jsonl recordings/kubelet-modern.jsonl --format html  # writes recordings/kubelet-classic-diff.html`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.a, o.b = args[0], args[1]
			if o.threshold < 0 || o.minShift < 0 {
				return exitStatus{2, errors.New("--threshold and --min-shift must not be negative")}
			}
			switch {
			case o.format != "text" && o.format != "html":
				return exitStatus{2, fmt.Errorf("--format %q: expected text or html", o.format)}
			case o.format == "text" && (o.out != "" || o.force):
				return exitStatus{2, errors.New("-o and --force are for --format html: the text report goes to stdout")}
			}
			if runF != nil {
				return runF(o)
			}
			o.ctx = cmd.Context()
			return runDiff(o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.selA, "a", "", `compare only this era ("classic") or instance ("classic/cm-0") of A`)
	f.StringVar(&o.selB, "b", "", "compare only this era or instance of B")
	f.IntVar(&o.width, "width", 0, "columns to fill (default: the terminal's width, else $COLUMNS, else 100)")
	f.BoolVar(&o.ascii, "ascii", false, "write with ASCII characters only")
	f.BoolVar(&o.all, "all", false, "list every family, step and action, also those that do not differ")
	f.Float64Var(&o.threshold, "threshold", diff.DefaultThreshold, "the relative change of a count or a period that counts as a difference")
	f.StringVar(&o.format, "format", "text", "text (the report) or html (one self-contained page)")
	f.StringVarP(&o.out, "out", "o", "", "with --format html: the page's file, - for stdout (default: A's name with -diff.html)")
	f.BoolVar(&o.force, "force", false, "with --format html: replace an existing file that is not a kubeloom export; never a recording")
	f.DurationVar(&o.minShift, "min-shift", diff.DefaultMinShift, "the least change of a time (a first start, a step, a latency) that counts as a difference")
	return cmd
}

// runDiff reads the two recordings in parallel, each with the reader every
// command uses, and prints what differs.
func runDiff(o *diffOptions) error {
	ctx := cmp.Or(o.ctx, context.Background())
	if o.format == "html" {
		o.out = cmp.Or(o.out, diffPageName(o.a))
		if o.out != "-" {
			// Checked before reading, as export does: the answer does not
			// depend on the recordings.
			c := outputCheck{flag: "-o", reads: []string{o.a, o.b}, force: o.force, ours: isExport}
			if err := c.check(o.out); err != nil {
				return exitStatus{2, err}
			}
		}
	}
	tls, _, done, err := readTimelines(ctx, []string{o.a, o.b}, o.io.err)
	done() // the timelines are built: comparing them makes garbage the collector should take
	if err != nil {
		return exitStatus{2, err}
	}
	a, b := diff.Side{TL: tls[0], Select: o.selA}, diff.Side{TL: tls[1], Select: o.selB}
	r := diff.Compare(a, b, diff.Options{Threshold: o.threshold, MinShift: o.minShift})
	if o.format == "html" {
		if err := writeDiffPage(o, a, b, r); err != nil {
			return exitStatus{2, err}
		}
		if r.Differs() {
			return errDifferent
		}
		return nil
	}
	err = termview.Diff(interruptible{ctx, o.io.out}, r, termview.DiffOptions{
		Width: o.width, ASCII: o.ascii, All: o.all, A: side(o.a, o.selA), B: side(o.b, o.selB),
		Varies: varies(a, b),
	})
	if err != nil {
		return exitStatus{2, err}
	}
	if r.Differs() {
		return errDifferent
	}
	return nil
}

// varies says which sides' runs cannot repeat exactly, and what to do.
func varies(a, b diff.Side) string {
	var which string
	switch {
	case !a.InTurns() && !b.InTurns():
		which = "A and B were"
	case !a.InTurns():
		which = "A was"
	case !b.InTurns():
		which = "B was"
	default:
		return ""
	}
	return "note: " + which + " not run in turns on one core (a run on every core, a live one, or an older recording): " +
		"what the Go scheduler decides (how many deltas a pop carried, which worker took a key, write conflicts) " +
		"differs from run to run; `run --cores 1` repeats exactly"
}

// side names a side: its file, and its selection if any.
func side(file, sel string) string {
	if sel == "" {
		return file
	}
	return file + " (" + sel + ")"
}
