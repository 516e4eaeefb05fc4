package catalog

// Attribute keys of the instrumentation contract (DESIGN.md, "Instrumentation
// contract"). The recorder writes them and every viewer reads them, so they
// live in this leaf package that both sides may import.
const (
	// Resource attributes.
	AttrServiceName       = "service.name"
	AttrServiceInstanceID = "service.instance.id"
	AttrScenario          = "kubeloom.scenario"
	AttrEra               = "kubeloom.era"

	// On the scenario's root span: the simulated time the run's clock
	// started at, and the wall-clock time that was (RFC 3339). What goes to
	// Jaeger is moved by the difference, so that a run shows up at the time
	// it was made (see traces.WallClockOffset).
	AttrClockOrigin  = "kubeloom.clock.origin"
	AttrRunWallStart = "kubeloom.run.wall_start"
	// AttrRunInTurns, on the scenario's root span, says whether the run
	// took turns on one core in virtual time (engine.Options.Serial), so
	// that it repeats exactly; false for a run on every core or a live one,
	// whose scheduling varies from run to run.
	AttrRunInTurns = "kubeloom.run.in_turns"

	// The scenario's own instance (service.name), whose main lane holds
	// the root span, the preload and the actions; an action span's verb,
	// and the time the scenario gives it in seconds from the start.
	ServiceScenario = "kubeloom"
	AttrAction      = "kubeloom.action"
	AttrActionAt    = "kubeloom.action.at_s"
	// AttrActionLive marks an action given while the run went on (a click
	// in `kubeloom serve`) rather than written in the scenario.
	AttrActionLive = "kubeloom.action.live"
	// AttrRunning marks, in a live view's snapshot (never in a recording),
	// a span that has not ended yet: its end is the instant of the snapshot.
	AttrRunning = "kubeloom.running"

	// Goroutine lifetime spans.
	AttrGoroutineName   = "goroutine.name"
	AttrGoroutineKind   = "goroutine.kind"
	AttrGoroutinePeriod = "goroutine.period_s"
	AttrCodeFunction    = "code.function.name"
	AttrCodeFile        = "code.file.path"
	AttrArticle         = "kubeloom.article"

	// Iteration spans of a loop.
	AttrIteration = "iteration"
	// AttrSampled counts idle iterations folded into the next recorded one.
	AttrSkipped = "kubeloom.skipped_iterations"

	// Informer machinery.
	AttrInformer = "informer.name"
	AttrResource = "k8s.resource"
	AttrHandler  = "informer.handler"
	AttrNode     = "k8s.node.name"
	// AttrResync marks an OnUpdate whose object did not change (a resync).
	AttrResync = "informer.resync"
	// AttrReflector is on every goroutine of an informer that runs a
	// reflector other than the default (v1.5's): "v1.4", the ListAndWatch
	// before kubernetes#35672.
	AttrReflector = "informer.reflector"
	// AttrLeaked marks a pre-1.5 reflector/resync-timer whose ListAndWatch
	// call has returned without stopping it (kubernetes#35015); its
	// lifetime span also has an EventLeaked event at that instant.
	AttrLeaked  = "reflector.leaked"
	EventLeaked = "leaked"

	// Controllers: the event source of an event pipeline's goroutines, and
	// the number of a worker in its pool.
	AttrEventComponent = "event.component"
	AttrWorker         = "worker"
	// AttrControllerID is on the controller manager's "start <Name>" span
	// of each controller: every goroutine started under it belongs to that
	// controller (its private informers and event pipeline too).
	AttrControllerID = "kubeloom.controller.id"

	// The kubelet: the pod source a config-mux goroutine drains, and the
	// container and probe type of a probe worker.
	AttrPodSource = "kubelet.pod_source"
	AttrContainer = "container.name"
	AttrProbeType = "kubelet.probe.type"

	// Causality.
	AttrLink      = "kubeloom.link"
	LinkCause     = "cause"
	AttrObjectKey = "k8s.object.key"
	AttrEventType = "k8s.event.type"
)

// Goroutine kinds (goroutine.kind).
const (
	KindGo          = "go"
	KindUntil       = "until"
	KindJitterUntil = "jitter-until"
	KindForever     = "forever"
	KindMain        = "main"
)
