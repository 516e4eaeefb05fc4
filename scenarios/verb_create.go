package scenarios

import "context"

// Create creates an object in the apiserver, as kubectl create does: every watch of its
// resource delivers ADDED.
type Create struct {
	Object Object
}

// Name returns "create".
func (*Create) Name() string { return "create" }

func (c *Create) decode(vd *verbDecoder) bool {
	var ok bool
	c.Object, ok = vd.objectArg()
	return ok
}

func (c *Create) args() (any, error) { return objectMap(c.Object.Object) }

// Apply creates the object.
func (c *Create) Apply(ctx context.Context, w World) error { return w.Create(ctx, c.Object) }
