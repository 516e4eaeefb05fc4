package engine

import (
	"context"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// driver is the instance that plays the user: it loads the scenario's
// objects into the apiserver and performs the actions, each a span of its
// own trace (service.name kubeloom, instance "scenario").
type driver struct {
	w    *world
	rt   *goroutine.Runtime
	ctx  context.Context // the root span's
	root goroutine.Span
}

func (d *driver) start(ctx context.Context) error {
	sc := d.w.sc
	attrs := []attribute.KeyValue{
		attribute.String(catalog.AttrScenario, sc.Metadata.Name),
		attribute.String(catalog.AttrEra, string(d.w.era)),
		attribute.String("kubeloom.scenario.source", sc.Source),
		attribute.String(catalog.AttrClockOrigin, d.w.clk.Origin().Format(time.RFC3339Nano)),
		attribute.Bool(catalog.AttrRunInTurns, d.w.o.Speed == 0 && d.w.o.Serial),
	}
	if wall := d.w.o.WallStart; !wall.IsZero() {
		attrs = append(attrs, attribute.String(catalog.AttrRunWallStart, wall.Format(time.RFC3339Nano)))
	}
	d.ctx, d.root = goroutine.Start(d.rt.Context(ctx), "scenario "+sc.Metadata.Name, trace.WithAttributes(attrs...))
	ctx, sp := goroutine.Start(d.ctx, "LoadObjects", trace.WithAttributes(attribute.Int("objects", len(sc.Spec.Objects))))
	defer sp.End()
	for _, o := range sc.Spec.Objects {
		if _, err := d.w.cluster.Create(ctx, o.Resource.GVR, o.Object.DeepCopyObject()); err != nil {
			return fmt.Errorf("%s: failed to preload %s %s: %w", o.Pos, o.Resource.Name, o.Ref().Key(), err)
		}
	}
	return nil
}

// apply performs one action as a span "action/<verb>". A failed action
// (deleting what is gone, stopping a kubelet that is not running) does
// not stop the run: its span records the error, with status Error, and
// apply returns it for the run's warnings and summary.
//
// An action given live (engine.Control.Act) is marked catalog.AttrActionLive;
// it is otherwise recorded exactly as a scheduled one.
func (d *driver) apply(a scenarios.Action, live bool) error {
	attrs := []attribute.KeyValue{
		attribute.String(catalog.AttrAction, a.Verb.Name()),
		attribute.Float64(catalog.AttrActionAt, a.At.Seconds()),
	}
	if live {
		attrs = append(attrs, attribute.Bool(catalog.AttrActionLive, true))
	}
	ctx, sp := goroutine.Start(d.ctx, "action/"+a.Verb.Name(), trace.WithAttributes(attrs...))
	defer sp.End()
	err := d.w.apply(ctx, sp, a)
	if err != nil {
		sp.RecordError(err)
		sp.SetAttributes(attribute.String("error", err.Error()))
	}
	return err
}

func (d *driver) end() { d.root.End() }
