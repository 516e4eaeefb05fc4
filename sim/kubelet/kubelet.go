package kubelet

import (
	"context"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeloom/kubeloom/sim/events"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
)

// Periods and defaults of v1.5's kubelet (pkg/kubelet/kubelet.go and
// componentconfig/v1alpha1/defaults.go; goroutine catalog §5).
const (
	logFlushFrequency         = 5 * time.Second
	healthzRetryPeriod        = 5 * time.Second
	containerGCPeriod         = time.Minute
	imageGCPeriod             = 5 * time.Minute
	imageDetectPeriod         = 5 * time.Minute
	imageCachePeriod          = 30 * time.Second
	ensureStatePeriod         = time.Minute
	periodicTasksPeriod       = 5 * time.Minute
	volumeStatsAggPeriod      = time.Minute
	volumeLoopPeriod          = 100 * time.Millisecond
	podStatusRecheckPeriod    = 2 * time.Second
	nodeStatusUpdateFrequency = 10 * time.Second
	networkStatusPeriod       = 30 * time.Second
	runtimeUpPeriod           = 5 * time.Second
	podKillerPeriod           = time.Second
	statusSyncPeriod          = 10 * time.Second
	evictionMonitoringPeriod  = 10 * time.Second
	plegRelistPeriod          = time.Second
	syncLoopTick              = time.Second
	housekeepingPeriod        = 2 * time.Second
	fileCheckFrequency        = 20 * time.Second
	httpCheckFrequency        = 20 * time.Second
	resyncInterval            = time.Minute // --sync-frequency
	backOffPeriod             = 10 * time.Second
	nodeStatusUpdateRetry     = 5
	defaultProbePeriod        = 10 * time.Second
	// The two clientsets' rate limits: --kube-api-qps and --kube-api-burst
	// for KubeClient, --event-qps and --event-burst for EventClient.
	kubeAPIQPS     = 5.0
	kubeAPIBurst   = 10
	eventRecordQPS = 5.0
	eventBurst     = 10
)

// Kubelet is one running kubelet: the managers NewMainKubelet builds and
// the state its goroutines share.
type Kubelet struct {
	o        Options
	rt       *goroutine.Runtime
	events   *events.Pipeline
	recorder events.Recorder
	modern   bool

	config          *podConfig
	pods            *podManager
	cache           *podCache
	workQueue       *workQueue
	workers         *podWorkers
	status          *statusManager
	probes          *probeManager
	images          *imageManager
	volumes         *volumeManager
	state           *runtimeState
	eviction        *evictionManager
	pleg            *pleg
	podKillingCh    chan *corev1.Pod // classic: podKiller's channel (capacity 50)
	runtimeInit     sync.Once        // oneTimeInitializer: initializeRuntimeDependentModules
	nodeStatus      nodeStatusState
	backoff         backoff
	analyzer        *fsResourceAnalyzer
	fatal           func(error) // glog.Fatal: the process exits
	started         time.Time
	killingMu       sync.Mutex
	podsBeingKilled map[types.UID]bool // podKiller's podKillingSet
}

func newKubelet(o Options, rt *goroutine.Runtime) *Kubelet {
	k := &Kubelet{o: o, rt: rt, modern: o.Era == informer.Modern, podKillingCh: make(chan *corev1.Pod, 50),
		podsBeingKilled: map[types.UID]bool{}, started: rt.Clock().Now()}
	k.pods = newPodManager()
	k.cache = newPodCache()
	k.workQueue = newWorkQueue(rt.Clock())
	k.workers = newPodWorkers(k)
	k.status = newStatusManager(k)
	k.probes = newProbeManager(k)
	k.images = newImageManager(k)
	k.volumes = newVolumeManager(k)
	k.analyzer = &fsResourceAnalyzer{k: k}
	k.state = &runtimeState{}
	k.eviction = newEvictionManager(k)
	k.pleg = newPLEG(k)
	return k
}

func (k *Kubelet) shutdown() {
	if k.events != nil {
		k.events.Shutdown()
	}
}

// nodeRef is the reference events about the node point at.
func (k *Kubelet) nodeRef() *corev1.ObjectReference {
	return &corev1.ObjectReference{Kind: "Node", Name: k.o.Node, UID: types.UID(k.o.Node), Namespace: ""}
}

// runLoop is Kubelet.Run (pkg/kubelet/kubelet.go), the body of
// kubelet/main-loop: initializeModules, the Run goroutines in the
// article's order, then syncLoop, which returns only when the kubelet stops.
func (k *Kubelet) runLoop(ctx context.Context) {
	if err := k.initializeModules(ctx); err != nil {
		goroutine.SpanFrom(ctx).RecordError(err)
	}
	// go kl.volumeManager.Run(wait.NeverStop)
	k.rt.Go(ctx, "kubelet/volume-manager", k.volumes.run, goroutine.WithIterationName("Run"))
	// if kl.kubeClient != nil { go wait.Until(kl.syncNodeStatus, kl.nodeStatusUpdateFrequency, wait.NeverStop) }
	if k.modern {
		k.rt.JitterUntil(ctx, "kubelet/node-status", nodeStatusUpdateFrequency, 0.04, true, k.syncNodeStatus,
			goroutine.WithIterationName("syncNodeStatus"))
	} else {
		k.rt.Until(ctx, "kubelet/node-status", nodeStatusUpdateFrequency, k.syncNodeStatus, goroutine.WithIterationName("syncNodeStatus"))
		// go wait.Until(kl.syncNetworkStatus, 30*time.Second, wait.NeverStop)
		k.rt.Until(ctx, "kubelet/network-status", networkStatusPeriod, k.syncNetworkStatus, goroutine.WithIterationName("syncNetworkStatus"))
	}
	// go wait.Until(kl.updateRuntimeUp, 5*time.Second, wait.NeverStop)
	k.rt.Until(ctx, "kubelet/runtime-up", runtimeUpPeriod, k.updateRuntimeUp, goroutine.WithIterationName("updateRuntimeUp"))
	if !k.modern {
		// go wait.Until(kl.podKiller, 1*time.Second, wait.NeverStop)
		k.rt.Until(ctx, "kubelet/pod-killer", podKillerPeriod, k.podKiller, goroutine.WithIterationName("podKiller"))
	}
	// kl.statusManager.Start(); kl.probeManager.Start()
	k.status.start(ctx)
	k.probes.start(ctx)
	if !k.modern {
		// v1.3: kl.evictionManager.Start(kl.getActivePods, evictionMonitoringPeriod), here in Run.
		k.eviction.start(ctx)
	}
	// kl.pleg.Start()
	k.pleg.start(ctx)
	k.syncLoop(ctx)
}

// initializeModules starts the modules that do not need the container
// runtime (the article's "initializeModule函数中启动了四个协程").
func (k *Kubelet) initializeModules(ctx context.Context) error {
	ctx, sp := goroutine.Start(ctx, "initializeModules")
	defer sp.End()
	step(ctx, "metrics.Register")
	step(ctx, "setupDataDirs", attribute.String("kubelet.root_dir", "/var/lib/kubelet"))
	step(ctx, "MkdirAll", attribute.String("path", "/var/log/containers"))
	// Step 4: kl.imageManager.Start()
	k.images.start(ctx)
	// Step 5: kl.containerManager.Start()
	k.startContainerManager(ctx)
	// Step 6: kl.oomWatcher.Start(kl.nodeRef)
	k.startOOMWatcher(ctx)
	// Step 7: kl.resourceAnalyzer.Start()
	k.analyzer.start(ctx)
	return nil
}
