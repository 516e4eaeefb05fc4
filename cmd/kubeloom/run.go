package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	rtrace "runtime/trace"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"
	"k8s.io/utils/clock"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/engine"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/otlp"
)

// runOptions are what `kubeloom run` is told: its argument and flags, and
// the dependencies its run function uses.
type runOptions struct {
	io streams
	network
	clock clock.PassiveClock

	scenario      string
	out           string
	compress      bool
	speed         float64
	duration      time.Duration
	seed          int64
	era           eraFlag
	stdout        bool
	otlpEndpoint  string
	otlpTimeout   time.Duration
	goTrace       string
	allIterations bool
	quiet         bool
	strict        bool
}

// newRunCmd builds `kubeloom run`; runF, if not nil, is called with the
// parsed options instead of runRun (tests of the flags).
func newRunCmd(d deps, runF func(context.Context, *runOptions) error) *cobra.Command {
	d = d.withDefaults()
	o := &runOptions{io: d.streams, network: d.network, clock: d.clock}
	cmd := &cobra.Command{
		Use:   "run SCENARIO|FILE.yaml",
		Short: "Run a scenario and record its spans",
		Long: `Run a built-in scenario (see 'kubeloom scenarios list') or a scenario file,
show progress, write the recording (JSON Lines, one span per line) and print a
summary of the goroutines that ran.

A recording whose name ends in .zst (--out FILE.jsonl.zst, or --compress) is
compressed with zstd, some 30 times smaller; every command that reads
recordings reads both kinds, whatever the name.

--otlp-endpoint also sends every span, as it ends, to an OpenTelemetry
collector or Jaeger. Without the flag, OTEL_EXPORTER_OTLP_ENDPOINT (or
OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) turns the export on; the other standard
OTEL_EXPORTER_OTLP_* variables (protocol, headers, certificates) apply with
--otlp-endpoint env. A collector that is down or does not answer costs at
most --otlp-timeout (5 s) and one warning; the recording is complete either
way.

--go-trace also writes a Go execution trace in which every simulated
goroutine's work is a region named by its goroutine.name: open it with
'go tool trace FILE'.

A run sets Go's garbage collector to GOGC=400 under a 3 GiB memory limit
(a simulation allocates fast and keeps little; the collector's pauses would
make loops late): set GOGC or GOMEMLIMIT to choose otherwise.`,
		Example: `  kubeloom run informer-basics --out recordings/informer-basics.jsonl
  kubeloom run informer-eras --speed 30 --out recordings/eras.jsonl
  kubeloom run cluster-basics --out recordings/cluster.jsonl.zst
  kubeloom scenarios show goroutine-leak > my-scenario.yaml
  kubeloom run my-scenario.yaml --strict --otlp-endpoint http://127.0.0.1:4318`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.scenario = args[0]
			if !cmd.Flags().Changed("otlp-endpoint") && d.otlpEnv() != "" {
				o.otlpEndpoint = otlp.EnvEndpoint
			}
			if err := o.validate(); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return runRun(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.out, "out", "o", "", "recording file (default recordings/<scenario>-<time>.jsonl); compressed if it ends in .zst")
	f.BoolVar(&o.compress, "compress", false, "compress the recording with zstd (adds .zst to the --out name if missing)")
	f.Float64Var(&o.speed, "speed", 0, "simulated seconds per real second (default: the scenario's spec.speed)")
	f.DurationVar(&o.duration, "duration", 0, "simulated time to run (default: the scenario's spec.duration)")
	f.Int64Var(&o.seed, "seed", 0, "random seed of loop jitter (default: the scenario's spec.seed)")
	f.Var(&o.era, "era", "run in this era only: classic (the v1.5 code the articles read) or modern (today's client-go) (default: the scenario's spec.era or spec.eras)")
	f.BoolVar(&o.stdout, "stdout", false, "also print every span to stdout (OpenTelemetry stdouttrace format)")
	f.StringVar(&o.otlpEndpoint, "otlp-endpoint", "", "also push spans over OTLP: http://127.0.0.1:4318 (HTTP) or grpc://127.0.0.1:4317 (gRPC)")
	f.DurationVar(&o.otlpTimeout, "otlp-timeout", 5*time.Second, "give up on an OTLP export, and on the final flush, after this long (0: 5s)")
	f.StringVar(&o.goTrace, "go-trace", "", "write a Go execution trace of the run to this file (go tool trace FILE)")
	f.BoolVar(&o.allIterations, "all-iterations", false, "record every iteration of loops of 1s or less (default: idle ones are sampled)")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "no progress, only the summary")
	f.BoolVar(&o.strict, "strict", false, "exit with status 1 when an action of the scenario fails (the recording is still complete)")
	return cmd
}

// validate checks what the flags say on their own, before the run
// function reads a scenario or creates a file.
func (o *runOptions) validate() error {
	if o.speed < 0 || o.duration < 0 {
		return errors.New("--speed and --duration must not be negative")
	}
	if o.otlpTimeout < 0 {
		return errors.New("--otlp-timeout must not be negative")
	}
	return nil
}

// runRun runs the scenario, writes the recording and prints the summary
// (progress and summary on the error stream, --stdout's spans on the
// output).
func runRun(ctx context.Context, o *runOptions) error {
	sc, err := scenarios.Resolve(o.scenario)
	if err != nil {
		return err
	}
	if o.era != "" {
		sc.Spec.Era, sc.Spec.Eras = scenarios.Era(o.era), nil
	}
	if err := engine.Check(sc); err != nil {
		return err
	}
	if o.otlpEndpoint != "" {
		if err := otlp.Check(o.otlpEndpoint); err != nil {
			if o.otlpEndpoint == otlp.EnvEndpoint {
				return err
			}
			return fmt.Errorf("--otlp-endpoint: %w", err)
		}
	}
	out := o.out
	if out == "" {
		out = filepath.Join("recordings", fmt.Sprintf("%s-%s.jsonl", sc.Metadata.Name, o.clock.Now().Format("20060102-150405")))
	}
	if o.compress && !strings.HasSuffix(out, traces.CompressedExt) {
		out += traces.CompressedExt
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return fmt.Errorf("failed to create the folder of --out: %w", err)
	}
	file, err := createRecording(out)
	if err != nil {
		return fmt.Errorf("failed to create the recording: %w", err)
	}
	defer file.Close()

	if o.goTrace != "" {
		tf, err := os.Create(o.goTrace)
		if err != nil {
			return fmt.Errorf("failed to create --go-trace file: %w", err)
		}
		defer tf.Close()
		if err := rtrace.Start(tf); err != nil {
			return fmt.Errorf("failed to start the Go execution trace: %w", err)
		}
		defer rtrace.Stop()
	}

	opts := engine.Options{
		Scenario: sc, Recording: file, Speed: o.speed, Duration: o.duration, Seed: o.seed,
		AllIterations: o.allIterations, OTLPEndpoint: o.otlpEndpoint, OTLPTimeout: o.otlpTimeout,
		WallStart: o.clock.Now(), Listen: o.listen, Dial: o.dial,
	}
	if o.stdout {
		opts.Stdout = o.io.out
	}
	progress := o.io.err
	live := isTerminal(o.io.err)
	var mu sync.Mutex // servers report from their own goroutines
	if !o.quiet {
		show := progressPrinter(progress, live)
		opts.Progress = func(p engine.Progress) {
			mu.Lock()
			defer mu.Unlock()
			show(p)
		}
	}
	opts.ActionFailed = func(f engine.ActionFailure) {
		mu.Lock()
		defer mu.Unlock()
		if live && !o.quiet {
			fmt.Fprint(progress, "\r\x1b[K")
		}
		fmt.Fprintf(progress, "warning: %s\n", f)
	}
	opts.Serving = func(instance, addr string, paths []string) {
		mu.Lock()
		defer mu.Unlock()
		if live && !o.quiet {
			fmt.Fprint(progress, "\r\x1b[K")
		}
		fmt.Fprintf(progress, "  %s serves http://%s  (%s)\n", instance, addr, strings.Join(paths, " "))
	}
	fmt.Fprintf(o.io.err, "running %s (%s, era %s) for %s of simulated time at speed %gx\n",
		sc.Metadata.Name, sc.Source, eraList(sc.Spec.RunEras()), cmp.Or(o.duration, sc.Spec.Duration), cmp.Or(o.speed, sc.Spec.Speed))
	start := o.clock.Now()
	defer engine.TuneGC()()
	sum, err := engine.Run(ctx, opts)
	if !o.quiet && live {
		fmt.Fprintln(progress)
	}
	if cerr := file.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("failed to write the recording: %w", cerr)
	}
	if sum != nil {
		printSummary(o.io, sum, out, o.clock.Since(start))
		if n := len(sum.Failures); n > 0 && o.strict && err == nil {
			err = fmt.Errorf("--strict: %d of the scenario's actions failed (see the warnings above)", n)
		}
	}
	return err
}

// progressPrinter redraws one status line on a terminal; elsewhere (a
// pipe, CI) it prints a line per action only.
func progressPrinter(w io.Writer, live bool) func(engine.Progress) {
	lastPrinted := ""
	return func(p engine.Progress) {
		if !live {
			if p.LastAction != "" && p.LastAction != lastPrinted {
				lastPrinted = p.LastAction
				fmt.Fprintf(w, "  %6.1fs  %s  (goroutines %d, spans %d)\n", p.Elapsed.Seconds(), p.LastAction, p.Goroutines, p.Spans)
			}
			return
		}
		last := ""
		if p.LastAction != "" {
			last = "  last: " + p.LastAction
		}
		fmt.Fprintf(w, "\r\x1b[K  %6.1fs / %s   goroutines %-4d spans %-7d%s", p.Elapsed.Seconds(), p.Duration, p.Goroutines, p.Spans, last)
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func printSummary(s streams, sum *engine.Summary, out string, real time.Duration) {
	w := s.err
	state := "finished"
	if sum.Cancelled {
		state = "interrupted"
	}
	fmt.Fprintf(w, "%s %s: %s simulated in %s real, %d actions, %d spans\n",
		state, sum.Scenario, sum.Duration.Round(time.Millisecond), real.Round(time.Millisecond), sum.Actions, sum.Spans)
	for _, in := range sum.Instances {
		fmt.Fprintf(w, "  %s %s\n", in.Service, in.ID)
		if in.Exit != "" {
			fmt.Fprintf(w, "    exited: %s\n", in.Exit)
		}
		for _, g := range in.Goroutines {
			fmt.Fprintf(w, "    %-28s started %3d  stopped %3d\n", g.Name, g.Started, g.Stopped)
		}
	}
	if len(sum.Leftovers) == 0 {
		fmt.Fprintln(w, "  every goroutine stopped")
	} else {
		var names []string
		for _, l := range sum.Leftovers {
			names = append(names, fmt.Sprintf("%s %s ×%d", l.Instance, l.Name, l.N))
		}
		fmt.Fprintf(w, "  LEFTOVER goroutines still running after the grace period: %s\n", strings.Join(names, ", "))
	}
	if len(sum.Failures) > 0 {
		fmt.Fprintf(w, "  %d of %d actions FAILED (their spans have status Error):\n", len(sum.Failures), sum.Actions)
		for _, f := range sum.Failures {
			fmt.Fprintf(w, "    %s\n", f)
		}
	}
	if sum.ExportErr != nil {
		fmt.Fprintf(w, "warning: %v\n  the recording is complete; '%s push %s --otlp-endpoint URL' sends it later\n", sum.ExportErr, s.name(), out)
	}
	fmt.Fprintf(w, "recording: %s\nreplay it:  %s replay %s\n", out, s.name(), out)
}

func eraList(eras []scenarios.Era) string {
	names := make([]string, len(eras))
	for i, e := range eras {
		names[i] = string(e)
	}
	return strings.Join(names, " and ")
}

// eraFlag is --era: empty (the scenario's own eras) or an era, checked as
// the command line is parsed.
type eraFlag scenarios.Era

func (e *eraFlag) String() string { return string(*e) }

// Type is what the help shows after --era.
func (e *eraFlag) Type() string { return "string" }

func (e *eraFlag) Set(v string) error {
	era, err := scenarios.ParseEra(v)
	if err != nil {
		return err
	}
	*e = eraFlag(era)
	return nil
}
