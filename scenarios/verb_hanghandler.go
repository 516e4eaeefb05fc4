package scenarios

import (
	"context"

	"github.com/goccy/go-yaml"
)

// HangHandler makes one event handler of a running informer block forever in its next call,
// as a handler stuck on a channel nobody sends to or a lock nobody releases. The handler's
// informer/listener-run goroutine is stuck with it: notifications pile up in its
// listener-pop's buffer, and when the informer stops, listener-run cannot. That is a
// goroutine leak, which the run's summary reports.
type HangHandler struct {
	Informer string // an Informer's Name
	// Handler is 1 for the informer's first handler: spec.informers[].handlers count first,
	// then the handlers addHandler actions add, in order.
	Handler int
}

// Name returns "hangHandler".
func (*HangHandler) Name() string { return "hangHandler" }

func (h *HangHandler) decode(vd *verbDecoder) bool {
	f, ok := vd.args("a mapping with the informer and the number of its handler, such as {informer: pods, handler: 2}", "informer", "handler")
	if !ok {
		return false
	}
	h.Informer, ok = vd.informer(f)
	hf := f.required("handler", "the number of one of the informer's handlers, 1 for the first")
	n, good := hf.integer(1, MaxHandlers)
	h.Handler = int(n)
	vd.handler(hf, h.Handler)
	return ok && good
}

func (h *HangHandler) args() (any, error) {
	return yaml.MapSlice{{Key: "informer", Value: h.Informer}, {Key: "handler", Value: h.Handler}}, nil
}

// Apply hangs the handler.
func (h *HangHandler) Apply(ctx context.Context, w World) error {
	return w.HangHandler(ctx, h.Informer, h.Handler)
}
