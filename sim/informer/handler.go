package informer

import (
	"context"

	"k8s.io/client-go/tools/cache"
)

// Handler is an event handler (cache.ResourceEventHandler) that also gets
// the context of its call, so what it does next (enqueue a key, write to the
// apiserver) is traced under the handler span.
type Handler interface {
	Name() string // informer.handler, e.g. "handler-1" or "endpoint-controller"
	OnAdd(ctx context.Context, obj any, isInInitialList bool)
	OnUpdate(ctx context.Context, oldObj, newObj any)
	OnDelete(ctx context.Context, obj any)
}

// FromResourceEventHandler adapts a client-go handler.
func FromResourceEventHandler(name string, h cache.ResourceEventHandler) Handler {
	return adapted{name: name, h: h}
}

type adapted struct {
	name string
	h    cache.ResourceEventHandler
}

func (a adapted) Name() string                                   { return a.name }
func (a adapted) OnAdd(_ context.Context, obj any, initial bool) { a.h.OnAdd(obj, initial) }
func (a adapted) OnUpdate(_ context.Context, oldObj, newObj any) { a.h.OnUpdate(oldObj, newObj) }
func (a adapted) OnDelete(_ context.Context, obj any)            { a.h.OnDelete(obj) }

// Observer is a handler that does nothing but be called: the handler span
// is the record. The informer lessons use it.
type Observer string

func (o Observer) Name() string                     { return string(o) }
func (Observer) OnAdd(context.Context, any, bool)   {}
func (Observer) OnUpdate(context.Context, any, any) {}
func (Observer) OnDelete(context.Context, any)      {}

// Funcs is a Handler made of functions (cache.ResourceEventHandlerFuncs
// with contexts); a nil function ignores its notifications.
type Funcs struct {
	HandlerName string
	Add         func(ctx context.Context, obj any)
	Update      func(ctx context.Context, oldObj, newObj any)
	Delete      func(ctx context.Context, obj any)
}

func (f Funcs) Name() string { return f.HandlerName }

func (f Funcs) OnAdd(ctx context.Context, obj any, _ bool) {
	if f.Add != nil {
		f.Add(ctx, obj)
	}
}

func (f Funcs) OnUpdate(ctx context.Context, oldObj, newObj any) {
	if f.Update != nil {
		f.Update(ctx, oldObj, newObj)
	}
}

func (f Funcs) OnDelete(ctx context.Context, obj any) {
	if f.Delete != nil {
		f.Delete(ctx, obj)
	}
}
