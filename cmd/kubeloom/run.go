package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	rtrace "runtime/trace"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"
	"k8s.io/utils/clock"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/engine"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/otlp"
	"github.com/kubeloom/kubeloom/traces/push"
)

// runOptions are what `kubeloom run` is told: its argument and flags, and
// the dependencies its run function uses.
type runOptions struct {
	io streams
	network
	clock      clock.PassiveClock
	runVirtual func(context.Context, engine.Options) (*engine.Summary, error)

	scenario      string
	out           string
	compress      bool
	speed         float64
	live          bool
	cores         int
	duration      time.Duration
	seed          int64
	era           eraFlag
	stdout        bool
	otlpEndpoint  string
	otlpTimeout   time.Duration
	goTrace       string
	force         bool
	allIterations bool
	quiet         bool
	strict        bool
	// allowHostManifests lets manifestDir leave the scenario's folder.
	allowHostManifests bool
}

// newRunCmd builds `kubeloom run`; runF, if not nil, is called with the
// parsed options instead of runRun (tests of the flags).
func newRunCmd(d deps, runF func(context.Context, *runOptions) error) *cobra.Command {
	d = d.withDefaults()
	o := &runOptions{io: d.streams, network: d.network, clock: d.clock, runVirtual: d.runVirtual}
	cmd := &cobra.Command{
		Use:   "run SCENARIO|FILE.yaml",
		Short: "Run a scenario and record its spans",
		Long: `Run a built-in scenario (see 'kubeloom scenarios list') or a scenario file,
show progress, write the recording (JSON Lines, one span per line) and print a
summary of the goroutines that ran.

By default a run is in virtual time: simulated time moves only when every
simulated goroutine waits, so the run takes as long as its work takes the
CPU (ten simulated minutes of a kubelet in a fraction of a second), every
period is exact however busy the machine is, and the same scenario and seed
give the same run. The components' HTTP servers are real net/http servers
on an in-memory network that only the simulation reaches.

--speed N is live mode: simulated time runs N times faster than the real
clock. Use it for what needs the wall clock: watching spans arrive in Jaeger
as they end (--otlp-endpoint), and curling the components' servers on
127.0.0.1 while the run lasts. --live is live mode at the scenario's own
pace, its spec.speed (60 for cm-startup). A live run's loops can run late on
a busy machine, and two live runs differ a little more than two virtual ones.

A recording whose name ends in .zst (--out FILE.jsonl.zst, or --compress) is
compressed with zstd, some 30 times smaller; every command that reads
recordings reads both kinds, whatever the name.

--otlp-endpoint also sends every span to an OpenTelemetry collector or
Jaeger: in live mode as each span ends, in virtual time once the run has
ended, as 'kubeloom push' would. Without the flag,
OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) turns
the export on; the other standard OTEL_EXPORTER_OTLP_* variables
(protocol, headers, certificates) apply with --otlp-endpoint env. A
collector that is down or does not answer costs at most --otlp-timeout
(5 s) per request and one warning; the recording is complete either way.

--go-trace also writes a Go execution trace in which every simulated
goroutine's work is a region named by its goroutine.name: open it with
'go tool trace FILE'.

A run sets Go's garbage collector to GOGC=400 under a 3.5 GiB memory limit
(a simulation allocates fast and keeps little): set GOGC or GOMEMLIMIT to
choose otherwise.`,
		Example: `  kubeloom run informer-basics --out recordings/informer-basics.jsonl
  kubeloom run cluster-basics --out recordings/cluster.jsonl.zst
  kubeloom run cm-startup --live      # live, at the scenario's speed: curl its servers meanwhile
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
	f.BoolVar(&o.force, "force", false, "replace an existing --out or --go-trace file that is not a kubeloom recording (or Go trace); never the scenario itself")
	f.BoolVar(&o.compress, "compress", false, "compress the recording with zstd (adds .zst to the --out name if missing)")
	f.Float64Var(&o.speed, "speed", 0, "live mode: simulated seconds per real second (default: virtual time, as fast as the CPU allows)")
	f.BoolVar(&o.live, "live", false, "live mode at the scenario's own speed (its spec.speed)")
	f.IntVar(&o.cores, "cores", 0, "CPU cores a run in virtual time uses: 1 runs the same run every time, more run a large cluster faster (default: $GOMAXPROCS if set, else 1 up to 10 kubelets and every core above)")
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
	f.BoolVar(&o.allowHostManifests, "allow-host-manifests", false, allowHostManifestsHelp)
	cmd.MarkFlagsMutuallyExclusive("speed", "live")
	return cmd
}

// validate checks what the flags say on their own, before the run
// function reads a scenario or creates a file.
func (o *runOptions) validate() error {
	if o.speed < 0 || o.duration < 0 {
		return errors.New("--speed and --duration must not be negative")
	}
	if o.speed > engine.MaxSpeed {
		return fmt.Errorf("--speed %g is more than live mode keeps up with (at most %d); without --speed a run is in virtual time, as fast as the CPU allows", o.speed, engine.MaxSpeed)
	}
	if o.otlpTimeout < 0 {
		return errors.New("--otlp-timeout must not be negative")
	}
	if o.cores < 0 {
		return errors.New("--cores must not be negative")
	}
	if o.cores > 0 && (o.speed > 0 || o.live) {
		return errors.New("--cores is for virtual time; live mode (--speed, --live) uses every core")
	}
	return nil
}

// runRun runs the scenario, writes the recording and prints the summary
// (progress and summary on the error stream, --stdout's spans on the
// output).
func runRun(ctx context.Context, o *runOptions) error {
	// After Ctrl-C a run stops its goroutines and ends its recording, which
	// may take longer than the patience the readers get (signalContext).
	stopsGracefully(ctx)
	sc, err := scenarios.Resolve(o.scenario)
	if err != nil {
		return err
	}
	if o.era != "" {
		sc.Spec.Era, sc.Spec.Eras = scenarios.Era(o.era), nil
	}
	if err := engine.Check(sc, engine.AllowHostManifests(o.allowHostManifests)); err != nil {
		return err
	}
	speed := o.speed
	if o.live {
		speed = sc.Spec.Speed
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
	if err := o.checkOutputs(sc, out); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return fmt.Errorf("failed to create the folder of --out: %w", err)
	}
	file, err := createRecording(out)
	if err != nil {
		return fmt.Errorf("failed to create the recording: %w", err)
	}
	defer file.Discard()

	if o.goTrace != "" {
		tf, err := createOutput(o.goTrace)
		if err != nil {
			return fmt.Errorf("failed to create --go-trace file: %w", err)
		}
		defer tf.Abort()
		if err := rtrace.Start(tf); err != nil {
			return fmt.Errorf("failed to start the Go execution trace: %w", err)
		}
		defer func() {
			rtrace.Stop()
			if cerr := tf.Commit(); cerr != nil {
				printf(o.io.err, "warning: failed to write --go-trace %s: %v\n", o.goTrace, cerr)
			}
		}()
	}

	watch := &engine.Watch{}
	opts := engine.Options{
		Scenario: sc, Recording: file, Speed: speed, Duration: o.duration, Seed: o.seed,
		AllIterations: o.allIterations, OTLPTimeout: o.otlpTimeout, AllowHostManifests: o.allowHostManifests,
		WallStart: o.clock.Now(), Listen: o.listen, Dial: o.dial, Watch: watch,
	}
	if speed > 0 {
		opts.OTLPEndpoint = o.otlpEndpoint // virtual time pushes after the run
	}
	if o.stdout {
		opts.Stdout = o.io.out
	}
	p := &runPrinter{w: o.io.err, live: isTerminal(o.io.err) && !o.quiet, quiet: o.quiet, virtual: speed == 0, prog: o.io.name()}
	opts.Progress = p.action
	opts.ActionFailed = p.failed
	opts.Serving = p.serving
	mode := fmt.Sprintf("live at speed %gx", speed)
	if speed == 0 {
		cores := runCores(o.cores, sc)
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(cores))
		opts.Serial = cores == 1
		mode = "virtual time on one core, as fast as the CPU allows"
		if cores > 1 {
			mode = fmt.Sprintf("virtual time on %d cores, as fast as the CPU allows", cores)
		}
	}
	printf(o.io.err, "running %s (%s, era %s) for %s of simulated time: %s\n",
		sc.Metadata.Name, sc.Source, eraList(sc.Spec.RunEras()), cmp.Or(o.duration, sc.Spec.Duration), mode)
	start := o.clock.Now()
	defer tuneGC()()
	stopProgress := p.follow(watch, o.clock)
	var sum *engine.Summary
	if speed > 0 {
		sum, err = engine.Run(ctx, opts)
	} else {
		runVirtual := o.runVirtual
		if runVirtual == nil {
			runVirtual = engine.RunVirtual
		}
		sum, err = runVirtual(ctx, opts)
	}
	stopProgress()
	if cerr := file.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("failed to write the recording: %w", cerr)
	}
	real := o.clock.Since(start)
	if sum != nil && err == nil && speed == 0 && o.otlpEndpoint != "" {
		sum.ExportErr = pushAfter(ctx, o, out)
	}
	if sum != nil {
		printSummary(o.io, sum, out, real)
		if n := len(sum.Failures); n > 0 && o.strict && err == nil {
			err = fmt.Errorf("--strict: %d of the scenario's actions failed (see the warnings above)", n)
		}
	}
	return err
}

// checkOutputs refuses, before anything runs, to write the recording or the
// Go execution trace over the scenario it reads, over each other, or over a
// file that is not of their kind without --force (docs/design.md "Untrusted
// input").
func (o *runOptions) checkOutputs(sc *scenarios.Scenario, out string) error {
	var reads []string
	if !strings.HasPrefix(sc.Source, "builtin:") {
		reads = append(reads, sc.Source)
	}
	rec := outputCheck{flag: "--out", reads: reads, force: o.force, ours: isRecording, others: []string{o.goTrace}}
	if err := rec.check(out); err != nil {
		return err
	}
	if o.goTrace == "" {
		return nil
	}
	gt := outputCheck{flag: "--go-trace", reads: reads, force: o.force, ours: isGoTrace}
	return gt.check(o.goTrace)
}

// runCores is how many cores a run in virtual time uses: --cores, else
// $GOMAXPROCS if the user set it, else every core for a scenario large
// enough to want them (engine.WantsEveryCore) and 1 for the others.
func runCores(flag int, sc *scenarios.Scenario) int {
	switch {
	case flag > 0:
		return flag
	case os.Getenv("GOMAXPROCS") != "":
		return runtime.GOMAXPROCS(0)
	case engine.WantsEveryCore(sc):
		return runtime.NumCPU()
	}
	return 1
}

// pushAfter sends a recording made in virtual time over OTLP, as 'kubeloom
// push' would: a bubble's clock cannot move while a goroutine waits on the
// network, so the export waits for the end of the run.
func pushAfter(ctx context.Context, o *runOptions, file string) error {
	spans, done, err := readRecording(ctx, file, traces.ReadOptions{})
	defer done()
	if err != nil {
		return fmt.Errorf("the OTLP export to %s failed: %w", otlp.Describe(o.otlpEndpoint), err)
	}
	shift, _ := traces.WallClockOffset(spans)
	timeout := cmp.Or(o.otlpTimeout, 5*time.Second)
	if err := push.Push(ctx, spans, o.otlpEndpoint, push.WithTimeout(timeout), push.WithShift(shift)); err != nil {
		return fmt.Errorf("the OTLP export to %s failed: %w", otlp.Describe(o.otlpEndpoint), err)
	}
	printf(o.io.err, "pushed %d spans to %s\n", len(spans), otlp.Describe(o.otlpEndpoint))
	return nil
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
	printf(w, "%s %s: %s simulated in %s real (%s), %d actions, %d spans\n",
		state, sum.Scenario, sum.Duration.Round(time.Millisecond), roundReal(real), pace(sum, real), sum.Actions, sum.Spans)
	for _, in := range sum.Instances {
		printf(w, "  %s %s\n", in.Service, in.ID)
		if in.Exit != "" {
			printf(w, "    exited: %s\n", in.Exit)
		}
		for _, g := range in.Goroutines {
			printf(w, "    %-28s started %3d  stopped %3d\n", g.Name, g.Started, g.Stopped)
		}
	}
	if len(sum.Leftovers) == 0 {
		printf(w, "  every goroutine stopped\n")
	} else {
		var names []string
		for _, l := range sum.Leftovers {
			names = append(names, fmt.Sprintf("%s %s ×%d", l.Instance, l.Name, l.N))
		}
		printf(w, "  LEFTOVER goroutines still running after the grace period: %s\n", strings.Join(names, ", "))
	}
	if len(sum.Leaked) > 0 {
		var names []string
		total := 0
		for _, l := range sum.Leaked {
			names = append(names, fmt.Sprintf("%s %s ×%d", l.Instance, l.Name, l.N))
			total += l.N
		}
		what := "goroutines"
		if total == 1 {
			what = "goroutine"
		}
		printf(w, "  LEAKED %d %s, left behind by re-lists of the pre-1.5 reflector (kubernetes#35015) and running until their informer stopped: %s\n",
			total, what, strings.Join(names, ", "))
	}
	if len(sum.Failures) > 0 {
		printf(w, "  %d of %d actions FAILED (their spans have status Error):\n", len(sum.Failures), sum.Actions)
		for _, f := range sum.Failures {
			printf(w, "    %s\n", f)
		}
	}
	if sum.ExportErr != nil {
		printf(w, "warning: %v\n  the recording is complete; '%s push %s --otlp-endpoint URL' sends it later\n", sum.ExportErr, s.name(), out)
	}
	printf(w, "recording: %s\nreplay it:  %s replay %s\n", out, s.name(), out)
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
