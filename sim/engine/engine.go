package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/cluster"
	"github.com/kubeloom/kubeloom/sim/containerruntime"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/tracing"
)

// Options of one run. Zero values take the scenario's defaults.
type Options struct {
	Scenario  *scenarios.Scenario
	Recording io.Writer // the JSON Lines recording (required)
	// AllowHostManifests lets spec.kubelets.manifestDir be absolute or lead
	// out of the scenario's folder (run --allow-host-manifests); without
	// it a scenario reads manifests only under its own folder.
	AllowHostManifests bool

	// Speed chooses the mode. 0 is virtual time: simulated time moves only
	// when every simulated goroutine waits, and Run must be called inside a
	// testing/synctest bubble (RunVirtual makes one; a test calls
	// synctest.Test). Above 0 is live mode: simulated seconds per real
	// second, the scenario's spec.speed if the caller wants its pace.
	Speed float64
	// Serial, in virtual time, makes the goroutines that wake at one
	// simulated instant run one after another in a fixed order (see
	// clock.WithTurns): with the process on one processor (GOMAXPROCS=1,
	// which is the caller's to set) a run then repeats. It forgoes the
	// other cores, so large runs are faster without it.
	Serial        bool
	Duration      time.Duration // simulated; 0 = spec.duration
	Seed          int64         // 0 = spec.seed
	AllIterations bool          // record every iteration of fast loops
	Stdout        io.Writer     // also print spans here (stdouttrace)
	// OTLPEndpoint, in live mode only, also pushes spans there as they end.
	// (Network I/O does not let a bubble's clock move: in virtual time a
	// caller pushes the recording after the run, as `kubeloom run` does.)
	OTLPEndpoint string
	OTLPTimeout  time.Duration // bounds each OTLP export and the final flush (default 5s)
	// Grace is how long (simulated) goroutines get to stop at the end
	// before they are reported as leftovers. Default 10s; in live mode at
	// least a real second (see mode.grace).
	Grace time.Duration
	// Progress, if set, is called after each action, from the run's own
	// goroutine. Watch follows a run at any moment.
	Progress func(Progress)
	// Watch, if set, is how a caller follows the run from outside it.
	Watch *Watch
	// Observe, if set, sees every span start and end as it happens (see
	// tracing.Options.Observe): serve's live view.
	Observe sdktrace.SpanProcessor
	// Control, if set, drives the run (virtual time only): simulated time
	// moves only as its commands let it, and it can apply actions at the
	// current instant (kubeloom serve). Without it a run plays to its end.
	Control *Control
	// ActionFailed, if set, is told at once of each action that fails.
	ActionFailed func(ActionFailure)
	// Listen opens the simulated servers' listeners and Dial connects the
	// simulated HTTP clients (the kubelet's manifest URL source) to them.
	// The default in live mode is the host's network (net.Listen, a
	// net.Dialer), which RunVirtual replaces with an in-memory one
	// (internal/memnet): a goroutine waiting on a real socket would keep a
	// bubble's clock from moving.
	Listen func(network, address string) (net.Listener, error)
	Dial   func(ctx context.Context, network, address string) (net.Conn, error)
	// Serving, if set, is told the address of each instance's HTTP server
	// and the paths it serves.
	Serving func(instance, addr string, paths []string)
	// WallStart, if set, is the wall-clock time the run starts (the
	// command's time.Now). Simulated time starts at clock.Epoch whatever
	// it is; the scenario span records both, and spans sent over OTLP are
	// moved by the difference, so that Jaeger finds a run when it was made.
	WallStart time.Time

	// Bubble, if set, is how RunVirtual runs f inside a testing/synctest
	// bubble: internal/bubble.Run by default, which a test binary cannot
	// use; a test passes one that calls synctest.Test.
	Bubble func(f func()) error

	// inspect, if set (tests), sees each era's cluster at the end of the
	// run, before anything stops.
	inspect func(era scenarios.Era, c *cluster.Cluster)
	// tracing, if set, is where spans go, made by the caller: RunVirtual
	// makes it outside the bubble, so that files are written outside it.
	tracing *tracing.Tracing
	// tracer, if set (benchmarks), is every instance's tracer instead of
	// one that records: BenchmarkScale100TracingOverhead's baseline is a
	// run with a noop tracer. Spans it starts are not in the recording.
	tracer trace.Tracer
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
	Speed     float64       // live mode's; 0 in virtual time
	Duration  time.Duration // simulated time actually run
	Instances []InstanceSummary
	Spans     int64
	Leftovers []goroutine.Alive // goroutines still alive after the grace period
	// Leaked are the pre-1.5 reflector's resync goroutines left behind by
	// re-lists and still running when the run ended (they stop with their
	// informers, so they are no Leftovers): Name is the goroutine and the
	// informer, "reflector/resync-timer pods-v1.4".
	Leaked    []goroutine.Alive
	Actions   int
	Failures  []ActionFailure // actions that failed, in the order they ran
	ExportErr error           // the first error of an optional exporter (the recording is unaffected)
	Cancelled bool            // the run was interrupted (Ctrl-C) before its end
}

// InstanceSummary is what ran in one instance.
type InstanceSummary struct {
	Service, ID string
	Goroutines  []goroutine.FamilyCount
	// Exit says why the instance's process ended before the run did
	// ("killed …", "leaderelection lost"); empty if it ran to the end.
	Exit string
}

// Service names of the instances (service.name).
const (
	serviceDriver    = catalog.ServiceScenario
	serviceInformers = "informers"
	serviceCM        = "kube-controller-manager"
	serviceKubelet   = "kubelet"
)

// Run runs a scenario to its end, or until ctx is cancelled, and writes the
// recording. The recording is complete and valid in both cases.
func Run(ctx context.Context, o Options) (sum *Summary, err error) {
	sc := o.Scenario
	if sc == nil {
		return nil, errors.New("engine: no scenario")
	}
	if err := Check(sc, AllowHostManifests(o.AllowHostManifests)); err != nil {
		return nil, err
	}
	duration := cmp.Or(o.Duration, sc.Spec.Duration)
	o.Seed = cmp.Or(o.Seed, sc.Spec.Seed)
	m, err := newMode(o.Speed, o.Serial)
	if err != nil {
		return nil, err
	}
	if !m.virtual() && o.Control != nil {
		return nil, errors.New("engine: a Control drives a run in virtual time; live mode (Speed > 0) runs on the real clock")
	}
	if m.virtual() && o.OTLPEndpoint != "" {
		return nil, errors.New("engine: OTLP export runs in live mode (Speed > 0); in virtual time push the recording after the run")
	}
	grace := m.grace(cmp.Or(o.Grace, 10*time.Second))
	if o.Listen == nil {
		o.Listen = net.Listen
	}
	if o.Dial == nil {
		o.Dial = (&net.Dialer{}).DialContext
	}
	manifests, err := openManifests(sc, o.AllowHostManifests)
	if err != nil {
		return nil, err
	}
	if manifests != nil {
		defer manifests.close()
	}
	// Handlers a hangHandler action hung stay blocked until the recording
	// is complete (this defer runs after the tracing one below), as a
	// leaked goroutine lives until its process exits; then they return, so
	// that Run leaves nothing running behind it.
	release := make(chan struct{})
	defer close(release)
	tr := o.tracing
	if tr == nil {
		if tr, err = tracing.New(ctx, tracingOptions(o)); err != nil {
			return nil, err
		}
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

	clk := m.start()
	if v, ok := clk.(interface{ Stop() }); ok {
		defer v.Stop()
	}
	var clusters []*cluster.Cluster
	eras := sc.Spec.RunEras()
	for range eras {
		clusters = append(clusters, cluster.New(cluster.WithClock(clk), cluster.WithSeed(o.Seed)))
	}
	reg := goroutine.NewRegistry(clk)
	b := builder{sc: sc, tr: tr, clk: clk, reg: reg, o: &o, multi: len(eras) > 1, release: release}
	var worlds []*world
	for i, era := range eras {
		w, err := b.world(era, clusters[i], manifests)
		if err != nil {
			if w != nil {
				w.close() // what it opened before it failed
			}
			return nil, err
		}
		worlds = append(worlds, w)
		defer w.close()
	}

	sum = &Summary{Scenario: sc.Metadata.Name, Speed: o.Speed}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	if o.Watch != nil {
		stopWatch := o.Watch.follow(m, clk, reg, tr, duration, cancel)
		defer stopWatch()
	}
	stop := func() []goroutine.Alive {
		for _, w := range worlds {
			for _, c := range w.cms {
				if c.cancel != nil {
					c.stop()
				}
			}
			// The kubelets stop together: one after the other, a thousand
			// of them took 20 s of real time waiting for their goroutines.
			var wg sync.WaitGroup
			for _, n := range w.nodes {
				if n.running() {
					wg.Go(func() { n.stop(context.Canceled, clk, grace) })
				}
			}
			wg.Wait()
		}
		left := reg.Stop(grace)
		for _, w := range worlds {
			for _, c := range w.cms {
				if c.done != nil {
					c.wait(clk, grace)
				}
			}
			w.driver.end()
			if w.informers != nil && w.informers.root.Span != nil {
				w.informers.end()
			}
		}
		return left
	}
	for _, w := range worlds {
		if err := b.start(runCtx, w); err != nil {
			stop()
			return sum, err
		}
	}
	for _, w := range worlds {
		if w.informers != nil {
			w.informers.waitReady(runCtx, clk, duration)
		}
	}

	p := player{clk: clk, worlds: worlds, reg: reg, tracing: tr, duration: duration, progress: o.Progress, watch: o.Watch, failed: o.ActionFailed, control: o.Control}
	sum.Actions = p.play(runCtx, sc.Spec.Actions)
	sum.Failures = p.failures
	sum.Cancelled = runCtx.Err() != nil
	sum.Duration = min(clk.Elapsed(), duration)
	if o.inspect != nil {
		for _, w := range worlds {
			o.inspect(w.era, w.cluster)
		}
	}

	sum.Leaked = leaked(worlds)
	sum.Leftovers = stop()
	sum.Instances = b.summarize(worlds, reg.Counts())
	return sum, nil
}

// leaked counts, per informer, the resync goroutines the pre-1.5 reflector
// left behind, while they still run.
func leaked(worlds []*world) []goroutine.Alive {
	var out []goroutine.Alive
	for _, w := range worlds {
		if w.informers == nil {
			continue
		}
		for _, inf := range w.informers.list {
			if n := inf.Leaked(); n > 0 {
				out = append(out, goroutine.Alive{Key: goroutine.Key{Instance: w.informers.rt.Instance(), Name: "reflector/resync-timer " + inf.Name()}, N: n})
			}
		}
	}
	return out
}

// tracingOptions says where a run's spans go.
func tracingOptions(o Options) tracing.Options {
	var shift time.Duration
	if !o.WallStart.IsZero() {
		shift = o.WallStart.Sub(clock.Epoch())
	}
	return tracing.Options{Recording: o.Recording, Stdout: o.Stdout, OTLPEndpoint: o.OTLPEndpoint,
		ExportTimeout: o.OTLPTimeout, OTLPShift: shift, WallStart: o.WallStart, Observe: o.Observe}
}

// builder makes the worlds and instances of a run.
type builder struct {
	sc    *scenarios.Scenario
	tr    *tracing.Tracing
	clk   clock.Sim
	reg   *goroutine.Registry
	o     *Options
	multi bool // several eras: instance IDs carry the era
	ids   []instanceID

	release <-chan struct{} // closed when Run returns: hung handlers return
}

type instanceID struct{ service, id string }

func (b *builder) world(era scenarios.Era, c *cluster.Cluster, manifests *manifestFiles) (*world, error) {
	w := &world{sc: b.sc, o: b.o, clk: b.clk, era: era, cluster: c, manifests: manifests}
	w.driver = &driver{w: w, rt: b.runtime(era, serviceDriver, "scenario")}
	if len(b.sc.Spec.Informers) > 0 {
		w.informers = &informers{w: w, rt: b.runtime(era, serviceInformers, "informers"), release: b.release}
	}
	if cm := b.sc.Spec.ControllerManager; cm != nil {
		for i := range cm.Replicas {
			name := fmt.Sprintf("cm-%d", i)
			w.cms = append(w.cms, &cmReplica{w: w, name: name, index: i, rt: b.runtime(era, serviceCM, name)})
		}
	}
	if k := b.sc.Spec.Kubelets; k != nil {
		for i, name := range k.NodeNames() {
			n := &kubeletNode{w: w, name: name, index: i + 1, rt: b.runtime(era, serviceKubelet, name)}
			n.runtime = containerruntime.New(containerruntime.Options{Node: name, Seed: b.o.Seed, Clock: b.clk,
				Capacity: nodeImageFSCapacity, Images: nodeImages(), PodCIDR: n.podCIDR()})
			if err := n.reservePorts(b.o.Listen); err != nil {
				return w, err
			}
			w.nodes = append(w.nodes, n)
		}
		w.binder = &binder{w: w, nodes: k.NodeNames()}
		if k.ManifestURL {
			srv, url, err := startManifestServer(manifests, b.o.Listen)
			if err != nil {
				return w, err
			}
			w.urlServer, w.manifestURL = srv, url
		}
	}
	return w, nil
}

// runtime gives an instance its own tracer provider (its resource names
// the instance, so each instance is a trace of its own) and Runtime.
func (b *builder) runtime(era scenarios.Era, service, id string) *goroutine.Runtime {
	if b.multi {
		id = string(era) + "/" + id
	}
	b.ids = append(b.ids, instanceID{service, id})
	opts := []goroutine.RuntimeOption{goroutine.WithAllIterations(b.o.AllIterations), goroutine.WithSeed(b.o.Seed)}
	if b.o.tracer != nil {
		return goroutine.NewRuntime(id, b.o.tracer, b.clk, b.reg, opts...)
	}
	tp := b.tr.Provider(
		attribute.String(catalog.AttrServiceName, service),
		attribute.String(catalog.AttrServiceInstanceID, id),
		attribute.String(catalog.AttrScenario, b.sc.Metadata.Name),
		attribute.String(catalog.AttrEra, string(era)),
	)
	return goroutine.NewRuntime(id, tracing.Tracer(tp), b.clk, b.reg, opts...)
}

// start loads the objects, then starts the informers and the replicas.
func (b *builder) start(ctx context.Context, w *world) error {
	w.runCtx = ctx
	if err := w.driver.start(ctx); err != nil {
		return err
	}
	if w.informers != nil {
		if err := w.informers.start(ctx); err != nil {
			return err
		}
	}
	for _, c := range w.cms {
		c.start(ctx, b.o, b.clk)
	}
	if w.binder != nil {
		w.binder.start(w.driver.ctx)
	}
	for _, n := range w.nodes {
		if err := n.start(ctx, b.o, b.clk, trace.SpanContext{}); err != nil {
			return err
		}
	}
	return nil
}

// summarize groups the registry's counts by instance.
func (b *builder) summarize(worlds []*world, counts []goroutine.FamilyCount) []InstanceSummary {
	exits := map[string]string{}
	for _, w := range worlds {
		for _, c := range w.cms {
			exits[c.rt.Instance()] = c.exited()
		}
		for _, n := range w.nodes {
			exits[n.rt.Instance()] = n.exited()
		}
	}
	var out []InstanceSummary
	for _, id := range b.ids {
		is := InstanceSummary{Service: id.service, ID: id.id, Exit: exits[id.id]}
		for _, c := range counts {
			if c.Instance == id.id {
				is.Goroutines = append(is.Goroutines, c)
			}
		}
		out = append(out, is)
	}
	return out
}
