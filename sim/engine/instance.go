package engine

import (
	"context"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/cluster"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
)

// instance is one run of the scenario in one era: its own fake cluster and
// the informers on it, traced by its own Runtime.
type instance struct {
	sc      *scenarios.Scenario
	era     scenarios.Era
	id      string
	rt      *goroutine.Runtime
	cluster *cluster.Cluster

	informers []*informer.Informer
	byName    map[string]*informer.Informer
	handlers  map[string]int // handlers per informer, to name the next one

	ctx  context.Context // the root span's context
	root goroutine.Span
}

func newInstance(sc *scenarios.Scenario, era scenarios.Era, id string, rt *goroutine.Runtime, c *cluster.Cluster) *instance {
	return &instance{sc: sc, era: era, id: id, rt: rt, cluster: c,
		byName: map[string]*informer.Informer{}, handlers: map[string]int{}}
}

// start records the root span, preloads the objects and starts the informers.
func (in *instance) start(ctx context.Context) error {
	ctx = in.rt.Context(ctx)
	in.ctx, in.root = goroutine.Start(ctx, "scenario "+in.sc.Metadata.Name, trace.WithAttributes(
		attribute.String(catalog.AttrScenario, in.sc.Metadata.Name),
		attribute.String(catalog.AttrEra, string(in.era)),
		attribute.String("kubeloom.scenario.source", in.sc.Source)))

	if err := in.preload(); err != nil {
		return err
	}
	sctx, step := goroutine.Start(in.ctx, "StartInformers")
	defer step.End()
	for _, spec := range in.sc.Spec.Informers {
		inf, err := informer.New(informer.Config{
			Name:      spec.Name,
			Resource:  spec.Resource.GVR,
			Kind:      spec.Resource.GVK,
			Namespace: spec.Namespace,
			Era:       informer.Era(in.era),
			Resync:    spec.Resync,
			Source:    in.cluster,
		})
		if err != nil {
			return err
		}
		for range spec.Handlers {
			in.addHandler(sctx, inf)
		}
		in.informers = append(in.informers, inf)
		in.byName[spec.Name] = inf
	}
	for _, inf := range in.informers {
		inf.Run(sctx)
	}
	return nil
}

func (in *instance) addHandler(ctx context.Context, inf *informer.Informer) {
	in.handlers[inf.Name()]++
	inf.AddHandler(ctx, informer.Observer(fmt.Sprintf("handler-%d", in.handlers[inf.Name()])))
}

// preload stores the scenario's objects in the fake apiserver.
func (in *instance) preload() error {
	ctx, sp := goroutine.Start(in.ctx, "LoadObjects", trace.WithAttributes(attribute.Int("objects", len(in.sc.Spec.Objects))))
	defer sp.End()
	for _, o := range in.sc.Spec.Objects {
		if _, err := in.cluster.Create(ctx, o.Resource.GVR, o.Object.DeepCopyObject()); err != nil {
			return fmt.Errorf("%s: failed to preload %s %s: %w", o.Pos, o.Resource.Name, o.Ref().Key(), err)
		}
	}
	return nil
}

// waitReady waits until every informer has synced and watches its resource,
// so that the first action is seen as a watch event (the fake apiserver
// only delivers events to watches already open: kubernetes#131344).
func (in *instance) waitReady(ctx context.Context, clk clock.Clock, limit time.Duration) {
	want := map[schema.GroupVersionResource]int{}
	for _, spec := range in.sc.Spec.Informers {
		want[spec.Resource.GVR]++
	}
	ready := func() bool {
		for _, inf := range in.informers {
			if !inf.HasSynced() {
				return false
			}
		}
		for gvr, n := range want {
			if in.cluster.OpenWatches(gvr) < n {
				return false
			}
		}
		return true
	}
	deadline := clk.Now().Add(limit)
	for !ready() && ctx.Err() == nil && clk.Now().Before(deadline) {
		t := clk.NewTimer(10 * time.Millisecond)
		select {
		case <-ctx.Done():
		case <-t.C():
		}
		t.Stop()
	}
}

// apply performs one action in this instance, as a span of the main lane.
func (in *instance) apply(a scenarios.Action) {
	ctx, sp := goroutine.Start(in.ctx, "action/"+a.Verb(), trace.WithAttributes(
		attribute.String("kubeloom.action", a.Verb()),
		attribute.Float64("kubeloom.action.at_s", a.At.Seconds())))
	defer sp.End()
	var err error
	switch {
	case a.Create != nil:
		sp.SetAttributes(attribute.String(catalog.AttrObjectKey, a.Create.Ref().Key()))
		_, err = in.cluster.Create(ctx, a.Create.Resource.GVR, a.Create.Object.DeepCopyObject())
	case a.Update != nil:
		sp.SetAttributes(attribute.String(catalog.AttrObjectKey, a.Update.Ref().Key()))
		_, err = in.cluster.Update(ctx, a.Update.Resource.GVR, a.Update.Object.DeepCopyObject())
	case a.Delete != nil:
		sp.SetAttributes(attribute.String(catalog.AttrObjectKey, a.Delete.Key()))
		err = in.cluster.Delete(ctx, a.Delete.Resource.GVR, a.Delete.Namespace, a.Delete.Name)
	case a.BreakWatches != nil:
		n := in.cluster.BreakWatches(a.BreakWatches.Resource.GVR)
		sp.SetAttributes(attribute.String(catalog.AttrResource, a.BreakWatches.Resource.Name), attribute.Int("watches.broken", n))
	case a.AddHandler != nil:
		in.addHandler(ctx, in.byName[a.AddHandler.Informer])
	default:
		err = fmt.Errorf("%s: %s is not supported by this kubeloom", a.Pos, a.Verb())
	}
	if err != nil {
		// A failed action is part of the lesson (e.g. deleting what is gone): record it, go on.
		sp.RecordError(err)
		sp.SetAttributes(attribute.String("error", err.Error()))
	}
}

func (in *instance) end() { in.root.End() }
