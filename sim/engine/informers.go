package engine

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
)

// informers is the instance of a scenario's stand-alone informers: the
// informer lessons, with no controller-manager or kubelet around them.
type informers struct {
	w        *world
	rt       *goroutine.Runtime
	list     []*informer.Informer
	byName   map[string]*informer.Informer
	handlers map[string]int // handlers per informer, to name the next one
	ctx      context.Context
	root     goroutine.Span
}

// start starts the informers under a root span "StartInformers".
func (in *informers) start(ctx context.Context) error {
	in.byName, in.handlers = map[string]*informer.Informer{}, map[string]int{}
	in.ctx, in.root = goroutine.Start(in.rt.Context(ctx), "StartInformers")
	for _, spec := range in.w.sc.Spec.Informers {
		inf, err := informer.New(informer.Config{
			Name:      spec.Name,
			Resource:  spec.Resource.GVR,
			Kind:      spec.Resource.GVK,
			Namespace: spec.Namespace,
			Era:       informer.Era(in.w.era),
			Resync:    spec.Resync,
			Source:    in.w.cluster,
		})
		if err != nil {
			return err
		}
		for range spec.Handlers {
			in.addHandler(in.ctx, inf)
		}
		in.list = append(in.list, inf)
		in.byName[spec.Name] = inf
	}
	for _, inf := range in.list {
		inf.Run(in.ctx)
	}
	return nil
}

func (in *informers) addHandler(ctx context.Context, inf *informer.Informer) {
	in.handlers[inf.Name()]++
	inf.AddHandler(ctx, informer.Observer(fmt.Sprintf("handler-%d", in.handlers[inf.Name()])))
}

// waitReady waits until every informer has synced and watches its resource,
// so that the first action is seen as a watch event.
func (in *informers) waitReady(ctx context.Context, clk clock.Clock, limit time.Duration) {
	want := map[schema.GroupVersionResource]int{}
	for _, spec := range in.w.sc.Spec.Informers {
		want[spec.Resource.GVR]++
	}
	ready := func() bool {
		for _, inf := range in.list {
			if !inf.HasSynced() {
				return false
			}
		}
		for gvr, n := range want {
			if in.w.cluster.OpenWatches(gvr) < n {
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

func (in *informers) end() { in.root.End() }
