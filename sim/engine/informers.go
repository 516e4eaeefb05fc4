package engine

import (
	"context"
	"fmt"
	"sync/atomic"
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
	handlers map[string][]*handler // per informer, in the order they were added
	release  <-chan struct{}       // closed when the run is over: unblocks hung handlers
	ctx      context.Context
	root     goroutine.Span
}

// handler is the informer lessons' event handler. It does nothing but be
// called (the handler span is the record), unless a hangHandler action
// hung it: then its next call blocks until the run is over, as a handler
// stuck on a channel nobody sends to does. It does not watch its context on
// purpose: nothing can stop a goroutine that is not listening, which is the
// lesson of the goroutine-leak scenario.
type handler struct {
	informer.Observer
	hung    atomic.Bool
	release <-chan struct{}
}

func (h *handler) OnAdd(context.Context, any, bool)   { h.block() }
func (h *handler) OnUpdate(context.Context, any, any) { h.block() }
func (h *handler) OnDelete(context.Context, any)      { h.block() }

func (h *handler) block() {
	if h.hung.Load() {
		<-h.release
	}
}

// start starts the informers under a root span "StartInformers".
func (in *informers) start(ctx context.Context) error {
	in.byName, in.handlers = map[string]*informer.Informer{}, map[string][]*handler{}
	in.ctx, in.root = goroutine.Start(in.rt.Context(ctx), "StartInformers")
	for _, spec := range in.w.sc.Spec.Informers {
		inf, err := informer.New(informer.Config{
			Name:      spec.Name,
			Resource:  spec.Resource.GVR,
			Kind:      spec.Resource.GVK,
			Namespace: spec.Namespace,
			Era:       informer.Era(in.w.era),
			Resync:    spec.Resync,
			Reflector: informer.Reflector(spec.Reflector),
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
	name := fmt.Sprintf("handler-%d", len(in.handlers[inf.Name()])+1)
	h := &handler{Observer: informer.Observer(name), release: in.release}
	in.handlers[inf.Name()] = append(in.handlers[inf.Name()], h)
	inf.AddHandler(ctx, h)
}

// hang makes handler n (from 1) of an informer block in its next call,
// and returns the handler's name.
func (in *informers) hang(informerName string, n int) (string, error) {
	hs := in.handlers[informerName]
	if n < 1 || n > len(hs) {
		return "", fmt.Errorf("informer %s has %d handlers, no handler %d", informerName, len(hs), n)
	}
	hs[n-1].hung.Store(true)
	return hs[n-1].Name(), nil
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
