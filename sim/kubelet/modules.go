package kubelet

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"

	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// startContainerManager is containerManagerImpl.Start
// (pkg/kubelet/cm/container_manager_linux.go): a loop that keeps the
// system containers (docker, the kubelet) in their cgroups, and one for
// the periodic tasks setupNode registered.
func (k *Kubelet) startContainerManager(ctx context.Context) {
	ctx, sp := goroutine.Start(ctx, "containerManager.Start")
	defer sp.End()
	// The system containers with an ensureStateFunc: docker's and the
	// kubelet's. Only a kubelet with --runtime-cgroups and
	// --kubelet-cgroups has them; kubeloom's nodes are set up so (see
	// main.go's AddFlags), so that the loop the article names runs.
	system := []string{"/system.slice/docker.service", "/system.slice/kubelet.service"}
	k.rt.Until(ctx, "kubelet/cm-ensure-state", ensureStatePeriod, func(ctx context.Context) {
		// ensureProcessInContainer for each: the daemon's processes move
		// back into its cgroup. kubeloom has no processes to move; it
		// counts the runtime's containers, what the docker cgroup holds.
		goroutine.SpanFrom(ctx).SetAttributes(attribute.StringSlice("kubelet.system_cgroups", system),
			attribute.Int("containers.running", len(k.o.Runtime.ListContainers(false))))
	}, goroutine.WithIterationName("ensureSystemContainers"))
	// The periodic task setupNode registers when docker runs outside a
	// cgroup of its own: keep its oom_score_adj at -999.
	k.rt.Until(ctx, "kubelet/cm-periodic-tasks", periodicTasksPeriod, func(ctx context.Context) {
		goroutine.SpanFrom(ctx).SetAttributes(attribute.String("kubelet.periodic_task", "ensureDockerOOMScoreAdj"),
			attribute.Int("process.oom_score_adj", -999))
	}, goroutine.WithIterationName("periodicTasks"))
}

// startOOMWatcher is realOOMWatcher.Start: a goroutine ranging over
// cAdvisor's OOM events on container "/", each recorded as a SystemOOM
// warning on the node. An OOM inside a pod's cgroup is not a system OOM
// and records nothing here (the pod's container status shows OOMKilled).
func (k *Kubelet) startOOMWatcher(ctx context.Context) {
	ctx, sp := goroutine.Start(ctx, "oomWatcher.Start")
	defer sp.End()
	oom := k.o.OOM
	k.rt.Go(ctx, "kubelet/oom-watcher", func(ctx context.Context) {
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-oom:
				if !ok {
					oom = nil
					continue
				}
				var cause []trace.Link
				if ev.Cause.IsValid() {
					cause = append(cause, goroutine.Cause(ev.Cause, ev.ContainerName))
				}
				ictx, sp := goroutine.Iterate(ctx, "oomEvent", trace.WithAttributes(
					attribute.String("kubelet.oom.container", ev.ContainerName), attribute.String("process.executable.name", ev.ProcessName)),
					trace.WithLinks(cause...))
				if ev.ContainerName == "/" {
					// ow.recorder.PastEventf(ref, event.Timestamp, Warning, "SystemOOM", "System OOM encountered")
					k.recorder.Eventf(ictx, k.nodeRef(), corev1.EventTypeWarning, "SystemOOM", "System OOM encountered")
				}
				sp.End()
			}
		}
	}, goroutine.WithIterationName("oomEvent"))
}
