package kubelet

import (
	"context"
	"sort"

	"go.opentelemetry.io/otel/attribute"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/containerruntime"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// Container GC policy (v1.5 defaults: --minimum-container-ttl-duration 0,
// --maximum-dead-containers-per-container 1, --maximum-dead-containers -1).
const (
	containerMinAge        = 0
	maxDeadPerPodContainer = 1
)

// startGarbageCollection is Kubelet.StartGarbageCollection: the container
// GC every minute and the image GC every five.
func (k *Kubelet) startGarbageCollection(ctx context.Context) {
	ctx, sp := goroutine.Start(ctx, "StartGarbageCollection")
	defer sp.End()
	k.rt.Until(ctx, "kubelet/container-gc", containerGCPeriod, k.containerGC, goroutine.WithIterationName("Containers/GarbageCollect"))
	k.rt.Until(ctx, "kubelet/image-gc", imageGCPeriod, k.images.garbageCollect, goroutine.WithIterationName("Images/GarbageCollect"))
}

// containerGC is containerGC.GarbageCollect(allSourcesReady): the dead
// containers, grouped by pod and container name, are removed beyond the
// newest one of each; once every source is ready, all dead containers of
// pods that no longer exist go too.
func (k *Kubelet) containerGC(ctx context.Context) {
	sp := goroutine.SpanFrom(ctx)
	allSourcesReady := k.config.allReady()
	now := k.rt.Clock().Now()
	units := map[string][]containerruntime.Container{}
	for _, c := range k.o.Runtime.ListContainers(true) {
		if c.State != containerruntime.StateExited || now.Sub(c.Finished) < containerMinAge {
			continue
		}
		unit := c.PodUID + "/" + c.Name
		units[unit] = append(units[unit], c)
	}
	var remove []containerruntime.Container
	dead := 0
	for _, cs := range units {
		dead += len(cs)
		sort.Slice(cs, func(i, j int) bool { return cs[i].Attempt > cs[j].Attempt }) // newest first
		keep := maxDeadPerPodContainer
		if _, exists := k.pods.get(types.UID(cs[0].PodUID)); !exists && allSourcesReady {
			keep = 0 // the pod was deleted
		}
		if len(cs) > keep {
			remove = append(remove, cs[keep:]...)
		}
	}
	sort.Slice(remove, func(i, j int) bool { return remove[i].ID < remove[j].ID })
	removed := 0
	for _, c := range remove {
		if err := k.o.Runtime.RemoveContainer(c.ID); err != nil {
			sp.RecordError(err)
			continue
		}
		removed++
		sp.AddEvent("removed", attribute.String("container.id", c.ID[:12]), attribute.String(catalog.AttrContainer, c.Name),
			attribute.String("k8s.pod.name", c.PodName))
	}
	sp.SetAttributes(attribute.Bool("kubelet.all_sources_ready", allSourcesReady), attribute.Int("kubelet.dead_containers", dead),
		attribute.Int("kubelet.containers_removed", removed))
}
