package controllermanager

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/spf13/pflag"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	rl "k8s.io/client-go/tools/leaderelection/resourcelock"

	"github.com/kubeloom/kubeloom/sim/cluster"
	"github.com/kubeloom/kubeloom/sim/events"
	"github.com/kubeloom/kubeloom/sim/glog"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
	"github.com/kubeloom/kubeloom/sim/internal/uuid"
	"github.com/kubeloom/kubeloom/sim/leaderelection"
)

// Options describe one kube-controller-manager process.
type Options struct {
	ID  string // the instance, "cm-0": its hostname, hence its leader election identity
	Era informer.Era
	// Flags are the command line ("--concurrent-endpoint-syncs": "5").
	Flags map[string]string
	// LeaderElect is --leader-elect.
	LeaderElect bool
	// Controllers is --controllers (1.6+; kubeloom applies it in both
	// eras): "*", "name" or "-name". Empty means ["*"].
	Controllers []string
	// RuntimeConfig turns API group/versions of the apiserver on or off.
	RuntimeConfig map[string]bool
	Cluster       *cluster.Cluster
	Seed          int64
	// Listen opens the HTTP server's listener (default net.Listen).
	Listen func(network, address string) (net.Listener, error)
	// ReadFile reads files named by flags (default os.ReadFile).
	ReadFile func(name string) ([]byte, error)
	// OnServing, if set, is told the HTTP server's address and the paths
	// it serves.
	OnServing func(addr string, paths []string)
	// LockRefused, if set, says why the apiserver refuses this process's
	// requests to the leader election lock at the moment (nil: it serves
	// them): the scenario's blockLeaderLock.
	LockRefused func() error
}

// process is one running kube-controller-manager.
type process struct {
	o       Options
	s       *server
	rt      *goroutine.Runtime
	metrics *prometheus.Registry
	rand    *rand.Rand
	fatal   func(error) // glog.Fatal: the process exits
	elector atomic.Pointer[leaderelection.Elector]
	// events is Run's own pipeline: its recorder is the one Run hands
	// StartControllers (StartControllers(…, stop, recorder)).
	events *events.Pipeline

	mu        sync.Mutex
	pipelines []*events.Pipeline
	down      bool // shutdown has run: pipelines started later stop at once
}

// Main runs the process as controller-manager.go's main does, until ctx
// ends (the simulation stops, or the process is killed) or the process
// exits by itself (leader election lost, the HTTP server failed); that
// reason is returned. ctx carries the instance's goroutine.Runtime.
func Main(ctx context.Context, o Options) (err error) {
	if o.Listen == nil {
		o.Listen = net.Listen
	}
	if o.ReadFile == nil {
		o.ReadFile = os.ReadFile
	}
	ctx, exit := context.WithCancelCause(ctx)
	defer exit(nil)
	// Each replica draws its own numbers (start jitter, its identity's
	// uniquifier), reproducibly from the seed.
	id := fnv.New64a()
	id.Write([]byte(o.ID))
	p := &process{o: o, rt: goroutine.RuntimeFrom(ctx), rand: rand.New(rand.NewPCG(uint64(o.Seed), id.Sum64()))}
	p.fatal = func(err error) {
		goroutine.SpanFrom(ctx).AddEvent("fatal", attribute.String("error", err.Error()))
		exit(err)
	}
	if p.o.Era != informer.Modern {
		glog.Init(ctx, "cm/glog-flush-daemon") // glog's package init, before main
	}
	ctx, mainSpan := goroutine.Start(ctx, "main", trace.WithAttributes(attribute.String("process.command", "kube-controller-manager")))
	defer func() {
		p.shutdown()
		if errors.Is(err, context.Canceled) {
			err = nil // the simulation ended: the process ran to the end
		}
		if err != nil {
			mainSpan.RecordError(err)
			mainSpan.SetAttributes(attribute.String("process.exit", err.Error()))
		}
		mainSpan.End()
	}()

	// s := options.NewCMServer()
	_, sp := goroutine.Start(ctx, "NewCMServer")
	p.s = newCMServer(o.Era)
	sp.End()
	// s.AddFlags(pflag.CommandLine); flag.InitFlags()
	_, sp = goroutine.Start(ctx, "AddFlags")
	flags := map[string]string{"--leader-elect": strconv.FormatBool(o.LeaderElect)}
	for k, v := range o.Flags {
		flags[k] = v
	}
	fs, perr := parse(p.s, o.Era, flags)
	if perr != nil {
		sp.RecordError(perr)
		sp.End()
		return perr
	}
	n := 0
	fs.VisitAll(func(*pflag.Flag) { n++ })
	sp.SetAttributes(attribute.Int("flags.registered", n))
	sp.End()
	_, sp = goroutine.Start(ctx, "InitFlags")
	fs.Visit(func(f *pflag.Flag) { sp.AddEvent(fmt.Sprintf("FLAG: --%s=%q", f.Name, f.Value.String())) })
	sp.End()
	// logs.InitLogs(): go wait.Until(glog.Flush, *logFlushFreq, wait.NeverStop)
	lctx, sp := goroutine.Start(ctx, "InitLogs")
	p.rt.Until(lctx, "cm/log-flush", p.s.logFlushFrequency, func(context.Context) {}, goroutine.WithIterationName("Flush"))
	sp.End()
	p.metrics = p.newMetrics()
	return p.run(ctx)
}

// run is app.Run.
func (p *process) run(ctx context.Context) error {
	ctx, sp := goroutine.Start(ctx, "Run")
	defer sp.End()
	step := func(name string, kv ...attribute.KeyValue) {
		_, s := goroutine.Start(ctx, name, trace.WithAttributes(kv...))
		s.End()
	}
	step("configz.New", attribute.String("configz.name", "componentconfig"))
	step("BuildConfigFromFlags", attribute.String("master", p.s.Master), attribute.String("kubeconfig", p.s.Kubeconfig),
		attribute.String("kubeloom.apiserver", "client-go's fake clientset"))
	step("NewForConfig", attribute.String("user_agent", "controller-manager"))
	step("NewForConfigOrDie", attribute.String("user_agent", "leader-election"))
	p.rt.Go(ctx, "cm/http-server", p.serve)
	p.events = p.newEvents(ctx, "controller-manager", true, true)
	recorder := p.events.Recorder(ctx)

	if !p.s.LeaderElection.LeaderElect {
		p.runControllers(ctx) // run(nil), on main
		return context.Cause(ctx)
	}
	id := p.o.ID // os.Hostname()
	if p.o.Era == informer.Modern {
		id += "_" + uuid.New(p.rand) // a uniquifier, so two processes on one host differ (1.8+)
	}
	meta := metav1.ObjectMeta{Namespace: "kube-system", Name: "kube-controller-manager"}
	lockCfg := rl.ResourceLockConfig{Identity: id, EventRecorder: recorder.AsEventRecorder()}
	var lock rl.Interface = &leaderelection.EndpointsLock{EndpointsMeta: meta, Client: p.o.Cluster.Client.CoreV1(), LockConfig: lockCfg}
	resource := "endpoints"
	if p.o.Era == informer.Modern {
		lock = &rl.LeaseLock{LeaseMeta: meta, Client: p.o.Cluster.Client.CoordinationV1(), LockConfig: lockCfg}
		resource = "leases"
	}
	le, err := leaderelection.New(leaderelection.Config{
		Lock: lock, Resource: resource, Classic: p.o.Era != informer.Modern, Refused: p.o.LockRefused,
		LeaseDuration: p.s.LeaderElection.LeaseDuration.Duration, RenewDeadline: p.s.LeaderElection.RenewDeadline.Duration,
		RetryPeriod:      p.s.LeaderElection.RetryPeriod.Duration,
		OnStartedLeading: p.runControllers,
		OnStoppedLeading: func(lost bool) {
			if lost {
				p.fatal(errors.New("leaderelection lost")) // glog.Fatalf("leaderelection lost")
			}
		},
		AcquireName: "cm/leader-acquire", RenewName: "cm/leader-renew", LeadingName: "cm/controllers-main", PollName: "cm/leader-poll-ticker",
	})
	if err != nil {
		return err
	}
	p.elector.Store(le)
	lctx, lsp := goroutine.Start(ctx, "RunOrDie", trace.WithAttributes(attribute.String("leaderelection.identity", id),
		attribute.String("leaderelection.lock", resource+" kube-system/kube-controller-manager")))
	le.Run(lctx)
	lsp.End()
	<-ctx.Done()
	return context.Cause(ctx)
}

// leading reports whether this process runs the controllers.
func (p *process) leading() bool {
	if le := p.elector.Load(); le != nil {
		return le.IsLeader()
	}
	return p.s != nil && !p.s.LeaderElection.LeaderElect
}

// newEvents starts an event pipeline of this process; it is shut down
// when the process ends.
func (p *process) newEvents(ctx context.Context, component string, logging, sink bool) *events.Pipeline {
	o := events.Options{Prefix: "cm", Component: component, Logging: logging}
	if sink {
		o.Sink = p.o.Cluster.Client.CoreV1()
	}
	pl := events.Start(ctx, o)
	p.mu.Lock()
	down := p.down
	if !down {
		p.pipelines = append(p.pipelines, pl)
	}
	p.mu.Unlock()
	if down {
		// The process ended while StartControllers, on the leader's
		// goroutine, was still building controllers: its goroutines die
		// with it.
		pl.Shutdown()
	}
	return pl
}

func (p *process) shutdown() {
	p.mu.Lock()
	pls := p.pipelines
	p.pipelines, p.down = nil, true
	p.mu.Unlock()
	for _, pl := range pls {
		pl.Shutdown()
	}
}
