package scenarios

import (
	"context"

	"github.com/goccy/go-yaml"
)

// AddHandler adds one event handler to a running informer; client-go first gives the new
// handler an add notification for every object already in the cache.
type AddHandler struct {
	Informer string // an Informer's Name
}

// Name returns "addHandler".
func (*AddHandler) Name() string { return "addHandler" }

func (a *AddHandler) decode(vd *verbDecoder) bool {
	f, ok := vd.args("a mapping with the informer to add a handler to, such as {informer: pods}", "informer")
	if !ok {
		return false
	}
	vd.addsHandler()
	a.Informer, ok = vd.informer(f)
	return ok
}

func (a *AddHandler) args() (any, error) {
	return yaml.MapSlice{{Key: "informer", Value: a.Informer}}, nil
}

// Apply adds the handler.
func (a *AddHandler) Apply(ctx context.Context, w World) error { return w.AddHandler(ctx, a.Informer) }
