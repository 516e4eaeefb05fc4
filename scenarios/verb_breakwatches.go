package scenarios

import (
	"context"

	"github.com/goccy/go-yaml"
)

// BreakWatches makes the apiserver end every open watch of Resource with 410 Gone, as a real
// one does when its watch cache has moved on, so that every reflector watching it re-lists.
type BreakWatches struct {
	Resource Resource
}

// Name returns "breakWatches".
func (*BreakWatches) Name() string { return "breakWatches" }

func (b *BreakWatches) decode(vd *verbDecoder) bool {
	f, ok := vd.args("a mapping with the resource whose watches end, such as {resource: pods}", "resource")
	if !ok {
		return false
	}
	b.Resource, ok = vd.requiredResource(f)
	return ok
}

func (b *BreakWatches) args() (any, error) {
	return yaml.MapSlice{{Key: "resource", Value: b.Resource.String()}}, nil
}

// Apply ends the resource's watches.
func (b *BreakWatches) Apply(ctx context.Context, w World) error {
	return w.BreakWatches(ctx, b.Resource)
}
