package kubelet

import (
	"context"
	"errors"
	"io/fs"
	"net"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"

	"github.com/kubeloom/kubeloom/sim/cluster"
	"github.com/kubeloom/kubeloom/sim/containerruntime"
	"github.com/kubeloom/kubeloom/sim/events"
	"github.com/kubeloom/kubeloom/sim/glog"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
)

// Options describe one kubelet process.
type Options struct {
	Node    string // the node name (--hostname-override)
	Era     informer.Era
	Cluster *cluster.Cluster
	// Runtime is the node's container runtime. It outlives the kubelet:
	// containers keep running while the kubelet is stopped.
	Runtime *containerruntime.Runtime
	// OOM delivers the runtime's OOM events, as cAdvisor's event channel
	// does; nil: none.
	OOM <-chan containerruntime.OOMEvent
	// Manifests is the folder the file source reads; nil turns it off. The
	// caller decides what it reaches (the engine: only the scenario's own
	// folder, unless the user allowed more).
	Manifests fs.FS
	// ManifestDir is --pod-manifest-path: the folder Manifests reads, as
	// the recording names it and its files.
	ManifestDir string
	// ManifestURL is --manifest-url; "" turns the URL source off.
	ManifestURL string
	// Addresses of the three servers (host:port). Empty: 127.0.0.1 on an
	// ephemeral port.
	HealthzAddr, ServerAddr, ReadOnlyAddr string
	// PodCIDR is the node's pod network ("10.244.1.0/24"); pods get
	// addresses from it in order.
	PodCIDR string
	// Listen opens the servers' listeners (default net.Listen).
	Listen func(network, address string) (net.Listener, error)
	// Dial connects the URL source's HTTP client (default: the network's).
	Dial func(ctx context.Context, network, address string) (net.Conn, error)
	// OnServing, if set, is told each server's address and paths.
	OnServing func(server, addr string, paths []string)
	// Cause is the span that started this process, if any (a scenario's
	// startKubelet, as systemd would): the process's main span names it.
	Cause trace.SpanContext
}

// Server names, as OnServing reports them.
const (
	ServerHealthz  = "healthz"
	ServerKubelet  = "server"
	ServerReadOnly = "readonly"
)

// Main runs the kubelet as cmd/kubelet/kubelet.go's main does, until ctx
// ends (the simulation stops or the scenario stops the kubelet). ctx
// carries the node's goroutine.Runtime.
func Main(ctx context.Context, o Options) error {
	if o.Listen == nil {
		o.Listen = net.Listen
	}
	if o.Era == "" {
		o.Era = informer.Classic
	}
	if o.Cluster == nil || o.Runtime == nil || o.Node == "" {
		return errors.New("kubelet: Node, Cluster and Runtime are required")
	}
	rt := goroutine.RuntimeFrom(ctx)
	ctx, exit := context.WithCancelCause(ctx)
	defer exit(nil)
	var started []trace.Link
	if o.Cause.IsValid() {
		started = append(started, goroutine.Cause(o.Cause, o.Node))
	}
	if o.Era == informer.Classic {
		glog.Init(ctx, "kubelet/glog-flush-daemon") // glog's package init, before main
	}
	ctx, mainSpan := goroutine.Start(ctx, "main", trace.WithAttributes(
		attribute.String("process.command", "kubelet"), attribute.String("k8s.node.name", o.Node)), trace.WithLinks(started...))
	k := newKubelet(o, rt)
	k.fatal = func(err error) {
		mainSpan.AddEvent("fatal", attribute.String("error", err.Error()))
		exit(err)
	}
	defer func() {
		k.shutdown()
		if err := context.Cause(ctx); err != nil && !errors.Is(err, context.Canceled) {
			mainSpan.RecordError(err)
			mainSpan.SetAttributes(attribute.String("process.exit", err.Error()))
		}
		mainSpan.End()
	}()

	// s := options.NewKubeletServer(); s.AddFlags(pflag.CommandLine); flag.InitFlags()
	step(ctx, "NewKubeletServer")
	step(ctx, "AddFlags", attribute.String("--hostname-override", o.Node),
		attribute.String("--pod-manifest-path", o.ManifestDir), attribute.String("--manifest-url", o.ManifestURL),
		attribute.String("--kubelet-cgroups", "/system.slice/kubelet.service"),
		attribute.String("--runtime-cgroups", "/system.slice/docker.service"))
	step(ctx, "InitFlags")
	// util.InitLogs(): go wait.Until(glog.Flush, *logFlushFreq, wait.NeverStop)
	lctx, sp := goroutine.Start(ctx, "InitLogs")
	rt.Until(lctx, "kubelet/log-flush", logFlushFrequency, func(context.Context) {}, goroutine.WithIterationName("Flush"))
	sp.End()

	// app.Run(s, nil) → run(s, nil)
	k.run(ctx)
	if err := context.Cause(ctx); !errors.Is(err, context.Canceled) {
		return err // glog.Fatal, or the scenario stopped the kubelet
	}
	return nil
}

// step records one startup step that starts no goroutine.
func step(ctx context.Context, name string, kv ...attribute.KeyValue) {
	_, sp := goroutine.Start(ctx, name, trace.WithAttributes(kv...))
	sp.End()
}

// run is cmd/kubelet/app/server.go's run: build the config, RunKubelet,
// then start the healthz server, and block.
func (k *Kubelet) run(ctx context.Context) {
	ctx, sp := goroutine.Start(ctx, "run")
	defer sp.End()
	step(ctx, "UnsecuredKubeletConfig")
	step(ctx, "CreateAPIServerClientConfig", attribute.String("kubeloom.apiserver", "client-go's fake clientset"))
	// kcfg.KubeClient, err = clientset.NewForConfig(clientConfig); then "make a
	// separate client for events": a copy of the config with
	// eventClientConfig.QPS = float32(s.EventRecordQPS) and
	// eventClientConfig.Burst = int(s.EventBurst), kcfg.EventClient.
	step(ctx, "NewForConfig", attribute.String("kubeloom.client", "KubeClient"), attribute.String("user_agent", "kubelet"),
		attribute.Float64("qps", kubeAPIQPS), attribute.Int("burst", kubeAPIBurst))
	step(ctx, "NewForConfig", attribute.String("kubeloom.client", "EventClient"), attribute.String("user_agent", "kubelet"),
		attribute.Float64("qps", eventRecordQPS), attribute.Int("burst", eventBurst))
	k.runKubelet(ctx)
	// if s.HealthzPort > 0 { healthz.DefaultHealthz(); go wait.Until(ListenAndServe, 5s) }
	k.rt.Until(ctx, "kubelet/healthz-server", healthzRetryPeriod, k.serveHealthz, goroutine.WithIterationName("ListenAndServe"))
	<-ctx.Done()
}

// runKubelet is RunKubelet: the event pipeline, CreateAndInitKubelet and
// startKubelet.
func (k *Kubelet) runKubelet(ctx context.Context) {
	ctx, sp := goroutine.Start(ctx, "RunKubelet")
	defer sp.End()
	// eventBroadcaster := record.NewBroadcaster();
	// kcfg.Recorder = eventBroadcaster.NewRecorder(...);
	// eventBroadcaster.StartLogging(glog.V(3).Infof);
	// if kcfg.EventClient != nil { eventBroadcaster.StartRecordingToSink(... kcfg.EventClient.Events("") ...) }
	k.events = events.Start(ctx, events.Options{Prefix: "kubelet", Component: "kubelet", Host: k.o.Node,
		RecorderFirst: true, Logging: true, Sink: k.o.Cluster.Client.CoreV1()})
	k.recorder = k.events.Recorder(ctx)
	k.createAndInitKubelet(ctx)
	k.startKubelet(ctx)
}

// createAndInitKubelet is CreateAndInitKubelet: the pod sources, the
// kubelet itself, its birth cry and the garbage collectors.
func (k *Kubelet) createAndInitKubelet(ctx context.Context) {
	ctx, sp := goroutine.Start(ctx, "CreateAndInitKubelet")
	defer sp.End()
	k.makePodSourceConfig(ctx)
	step(ctx, "NewMainKubelet", attribute.String("k8s.node.name", k.o.Node),
		attribute.String("container.runtime", k.o.Runtime.Version()))
	// k.BirthCry(): record.Eventf(nodeRef, "Starting", "Starting kubelet.")
	bctx, bsp := goroutine.Start(ctx, "BirthCry")
	k.recorder.Eventf(bctx, k.nodeRef(), corev1.EventTypeNormal, "Starting", "Starting kubelet.")
	bsp.End()
	k.startGarbageCollection(ctx)
}

// startKubelet starts the main loop and the two servers.
func (k *Kubelet) startKubelet(ctx context.Context) {
	ctx, sp := goroutine.Start(ctx, "startKubelet")
	defer sp.End()
	// go wait.Until(func() { k.Run(podCfg.Updates()) }, 0, wait.NeverStop)
	k.rt.Until(ctx, "kubelet/main-loop", 0, k.runLoop, goroutine.WithIterationName("Run"))
	// if kc.EnableServer { go wait.Until(func() { k.ListenAndServe(...) }, 0, wait.NeverStop) }
	k.rt.Until(ctx, "kubelet/server", 0, k.serveKubelet(ServerKubelet), goroutine.WithIterationName("ListenAndServe"))
	// if kc.ReadOnlyPort > 0 { go wait.Until(func() { k.ListenAndServeReadOnly(...) }, 0, wait.NeverStop) }
	k.rt.Until(ctx, "kubelet/readonly-server", 0, k.serveKubelet(ServerReadOnly), goroutine.WithIterationName("ListenAndServeReadOnly"))
}
