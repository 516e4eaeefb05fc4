package scenarios

import "context"

// Update replaces an object with the one given, as kubectl replace does (the whole object,
// not only the changed fields): every watch of its resource delivers MODIFIED.
type Update struct {
	Object Object
}

// Name returns "update".
func (*Update) Name() string { return "update" }

func (u *Update) decode(vd *verbDecoder) bool {
	var ok bool
	u.Object, ok = vd.objectArg()
	return ok
}

func (u *Update) args() (any, error) { return objectMap(u.Object.Object) }

// Apply replaces the object.
func (u *Update) Apply(ctx context.Context, w World) error { return w.Update(ctx, u.Object) }
