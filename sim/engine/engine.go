package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"go.opentelemetry.io/otel/attribute"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/cluster"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/tracing"
)

// Options of one run. Zero values take the scenario's defaults.
type Options struct {
	Scenario  *scenarios.Scenario
	Recording io.Writer // the JSON Lines recording (required)

	Speed         float64       // simulated seconds per real second; 0 = spec.speed
	Duration      time.Duration // simulated; 0 = spec.duration
	Seed          int64         // 0 = spec.seed
	AllIterations bool          // record every iteration of fast loops
	Stdout        io.Writer     // also print spans here (stdouttrace)
	OTLPEndpoint  string        // also push spans here
	// Grace is how long (simulated) goroutines get to stop at the end
	// before they are reported as leftovers. Default 10s.
	Grace time.Duration
	// Progress, if set, is called about twice a real second and after each action.
	Progress func(Progress)
}

// Progress is a snapshot of a running simulation.
type Progress struct {
	Elapsed, Duration time.Duration // simulated
	Goroutines        int
	Spans             int64
	LastAction        string
}

// Summary is what a run did.
type Summary struct {
	Scenario  string
	Speed     float64
	Duration  time.Duration // simulated time actually run
	Instances []InstanceSummary
	Spans     int64
	Leftovers []goroutine.Alive // goroutines still alive after the grace period
	Actions   int
	ExportErr error // the first error of an optional exporter (the recording is unaffected)
	Cancelled bool  // the run was interrupted (Ctrl-C) before its end
}

// InstanceSummary is what ran in one instance.
type InstanceSummary struct {
	Service, ID string
	Goroutines  []goroutine.FamilyCount
}

// Run runs a scenario to its end, or until ctx is cancelled, and writes the
// recording. The recording is complete and valid in both cases.
func Run(ctx context.Context, o Options) (sum *Summary, err error) {
	sc := o.Scenario
	if sc == nil {
		return nil, errors.New("engine: no scenario")
	}
	if err := Supported(sc); err != nil {
		return nil, err
	}
	speed := cmp.Or(o.Speed, sc.Spec.Speed)
	duration := cmp.Or(o.Duration, sc.Spec.Duration)
	seed := cmp.Or(o.Seed, sc.Spec.Seed)
	grace := cmp.Or(o.Grace, 10*time.Second)
	tr, err := tracing.New(ctx, tracing.Options{Recording: o.Recording, Stdout: o.Stdout, OTLPEndpoint: o.OTLPEndpoint})
	if err != nil {
		return nil, err
	}
	defer func() {
		// Flush the recording whatever happened, with a fresh context: an
		// interrupted run still ends with a complete, valid file.
		sdErr := tr.Shutdown(context.WithoutCancel(ctx))
		if sum != nil {
			sum.Spans = tr.Spans()
			sum.ExportErr = tr.ExportError()
		}
		err = errors.Join(err, sdErr)
	}()

	// The fake apiservers (slow to build: the field-managed tracker) and the
	// exporters exist before the clock starts, so that simulated time 0 is
	// the start of the scenario, not of the process.
	eras := sc.Spec.RunEras()
	clusters := make([]*cluster.Cluster, len(eras))
	for i := range eras {
		clusters[i] = cluster.New()
	}
	clk, err := clock.NewScaled(speed)
	if err != nil {
		return nil, err
	}
	reg := goroutine.NewRegistry(clk)
	insts := newInstances(sc, eras, clusters, tr, clk, reg, o.AllIterations, seed)

	sum = &Summary{Scenario: sc.Metadata.Name, Speed: speed}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	for i, in := range insts {
		if err := in.start(runCtx); err != nil {
			reg.Stop(grace)
			for _, started := range insts[:i+1] {
				started.end()
			}
			return sum, err
		}
	}
	for _, in := range insts {
		in.waitReady(runCtx, clk, duration)
	}

	p := player{clk: clk, insts: insts, reg: reg, tracing: tr, duration: duration, progress: o.Progress}
	sum.Actions = p.play(runCtx, sc.Spec.Actions)
	sum.Cancelled = ctx.Err() != nil
	sum.Duration = min(clk.Elapsed(), duration)

	sum.Leftovers = reg.Stop(grace)
	for _, in := range insts {
		in.end()
	}
	sum.Instances = summarize(insts, reg.Counts())
	return sum, nil
}

// newInstances builds one instance per era, each traced by its own
// provider (its resource names the instance) and Runtime.
func newInstances(sc *scenarios.Scenario, eras []scenarios.Era, clusters []*cluster.Cluster, tr *tracing.Tracing,
	clk clock.Clock, reg *goroutine.Registry, allIterations bool, seed int64) []*instance {
	var insts []*instance
	for i, era := range eras {
		id := "informers"
		if len(eras) > 1 {
			id = string(era)
		}
		tp := tr.Provider(
			attribute.String(catalog.AttrServiceName, serviceInformers),
			attribute.String(catalog.AttrServiceInstanceID, id),
			attribute.String(catalog.AttrScenario, sc.Metadata.Name),
			attribute.String(catalog.AttrEra, string(era)),
		)
		rt := goroutine.NewRuntime(id, tracing.Tracer(tp), clk, reg,
			goroutine.WithAllIterations(allIterations), goroutine.WithSeed(seed))
		insts = append(insts, newInstance(sc, era, id, rt, clusters[i]))
	}
	return insts
}

// summarize groups the registry's counts by instance.
func summarize(insts []*instance, counts []goroutine.FamilyCount) []InstanceSummary {
	var out []InstanceSummary
	for _, in := range insts {
		is := InstanceSummary{Service: serviceInformers, ID: in.id}
		for _, c := range counts {
			if c.Instance == in.id {
				is.Goroutines = append(is.Goroutines, c)
			}
		}
		out = append(out, is)
	}
	return out
}

// serviceInformers is the service.name of the stand-alone informer lessons:
// informers with no controller-manager or kubelet around them.
const serviceInformers = "informers"

// Supported rejects the parts of a scenario this kubeloom cannot simulate
// yet, so that a caller can say so before it creates a recording.
func Supported(sc *scenarios.Scenario) error {
	var errs []error
	where := sc.Source
	if sc.Spec.ControllerManager != nil {
		errs = append(errs, fmt.Errorf("%s: spec.controllerManager: this kubeloom does not simulate the controller-manager yet; remove it to run the informers", where))
	}
	if sc.Spec.Kubelets != nil {
		errs = append(errs, fmt.Errorf("%s: spec.kubelets: this kubeloom does not simulate the kubelet yet; remove it to run the informers", where))
	}
	if len(sc.Spec.Informers) == 0 && sc.Spec.ControllerManager == nil && sc.Spec.Kubelets == nil {
		errs = append(errs, fmt.Errorf("%s: spec: nothing to run: add spec.informers", where))
	}
	return errors.Join(errs...)
}
