package informer

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// startLeakyResyncTimer is the resync goroutine of one ListAndWatch call of
// the reflector before kubernetes#35672 (pkg/client/cache/reflector.go of
// v1.3 and v1.4, Reflector.ListAndWatch):
//
//	resyncCh, cleanup := r.resyncChan()
//	defer cleanup()
//	…
//	go func() {
//		for {
//			select {
//			case <-resyncCh:
//			case <-stopCh:
//				return
//			}
//			if err := r.store.Resync(); err != nil {
//				resyncerrc <- err
//				return
//			}
//			cleanup()
//			resyncCh, cleanup = r.resyncChan()
//		}
//	}()
//
// No case ends it with its call, so it lives until stopCh closes (the
// informer stops; the controller manager's never do) or a resync fails:
// every re-list leaves one behind (kubernetes#35015). What it does once
// left behind depends on its timer. The deferred cleanup() is the first
// resyncChan's Stop, bound when the call began: if the call returns before
// the first resync, it stops that timer and the goroutine waits on a
// channel that never fires; after a resync, the goroutine's own new timer
// is one the call never stops, so it goes on calling store.Resync() on the
// informer's FIFO every period, beside the current call's goroutine (the
// duplicated "forcing resync" of #35015). With a period of 0, resyncChan
// is neverExitWatch and it only waits.
//
// It runs until stop (the reflector's stopCh), under the span of the call
// that started it. The call's end is watched only to record the leak on the
// goroutine's lifetime span (reflector.leaked and a "leaked" event): the
// era's code does not see it.
func (inf *Informer) startLeakyResyncTimer(call *listAndWatchCall) {
	rt := goroutine.RuntimeFrom(call.ctx)
	period := inf.cfg.Resync
	rt.Go(goroutine.Outlive(call.ctx, call.stop), "reflector/resync-timer", func(ctx context.Context) {
		clk := rt.Clock()
		callEnded := call.ctx.Done()
		var resyncCh <-chan time.Time // neverExitWatch with a period of 0
		stopFirst := func() {}        // the deferred cleanup: the first timer's Stop
		if period > 0 {
			t := clk.NewTimer(period)
			resyncCh, stopFirst = t.C(), func() { t.Stop() }
		}
		resynced, leaked := false, false
		defer func() {
			if leaked {
				inf.leaked.Add(-1)
			}
		}()
		for {
			select {
			case <-ctx.Done(): // stopCh
				return
			case <-callEnded:
				if call.stop.Err() != nil {
					return // the call ended because stopCh closed: no leak
				}
				callEnded = nil
				if !resynced {
					// ListAndWatch's defer cleanup() stops the timer it made.
					stopFirst()
					resyncCh = nil
				}
				leaked = true
				inf.leaked.Add(1)
				sp := goroutine.SpanFrom(ctx) // the lifetime span
				sp.SetAttributes(attribute.Bool(catalog.AttrLeaked, true))
				sp.AddEvent(catalog.EventLeaked, attribute.Bool("resync.timer_stopped", !resynced))
				continue
			case <-resyncCh:
			}
			ictx, sp := goroutine.Iterate(ctx, "Resync")
			err := inf.queue.resync(ictx)
			sp.End()
			if err != nil {
				return // resyncerrc <- err: the only other way out
			}
			resynced = true
			t := clk.NewTimer(period)
			resyncCh = t.C()
		}
	}, goroutine.WithAttributes(inf.attrs...), goroutine.WithPeriod(period)) // a period of 0 records none
}
