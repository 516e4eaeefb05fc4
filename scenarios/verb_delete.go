package scenarios

import (
	"context"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
)

// Delete deletes an object: every watch of its resource delivers DELETED. The file writes it
// {apiVersion, kind, namespace, name}; apiVersion defaults to v1, namespace to default for
// namespaced kinds.
type Delete struct {
	Object ObjectRef
}

// Name returns "delete".
func (*Delete) Name() string { return "delete" }

func (del *Delete) decode(vd *verbDecoder) bool {
	f, ok := vd.args("a mapping with apiVersion, kind, namespace and name, such as {kind: Pod, name: web-0}", "apiVersion", "kind", "namespace", "name")
	if !ok {
		return false
	}
	ref := &del.Object
	kf, good := f.need("kind", "a kind such as Pod")
	var avNode ast.Node // nil: the default, v1
	if af, ok := f.get("apiVersion"); ok {
		avNode = af.val
	} else if f.has("apiVersion") {
		good = false
	}
	if kf != nil {
		r, ok := vd.kindResource(avNode, join(vd.fl.path, "apiVersion"), kf.val, kf.path)
		ref.Resource, good = r, good && ok
	}
	// The name follows the rule of the kind's names, as the object's own metadata.name does;
	// with the kind unknown (already reported), only its presence is checked.
	nf := f.required("name", "the object's name")
	name, ok := nf.str(nonEmpty)
	if ok && ref.Resource.Name != "" {
		if msg := checkName(ref.Resource, name); msg != "" {
			vd.errorf(nf.fl.val, nf.fl.path, "%s", msg)
			ok = false
		}
	}
	ref.Name, good = name, good && ok
	if ns := f.optional("namespace", "a namespace name such as default"); ns.set() {
		v, ok := ns.str(func(s string) bool { return s == "" || isDNSLabel(s) })
		if ok && v != "" && ref.Resource.Name != "" && !ref.Resource.Namespaced {
			vd.errorf(ns.fl.val, ns.fl.path, "%s are cluster-scoped, not in a namespace; remove the namespace", ref.Resource.Name)
			ok = false
		}
		ref.Namespace, good = v, good && ok
	}
	if ref.Resource.Namespaced && ref.Namespace == "" {
		ref.Namespace = defaultNamespace
	}
	return good
}

func (del *Delete) args() (any, error) {
	ref := del.Object
	m := yaml.MapSlice{
		{Key: "apiVersion", Value: ref.Resource.GVK.GroupVersion().String()},
		{Key: "kind", Value: ref.Resource.GVK.Kind},
	}
	if ref.Namespace != "" {
		m = append(m, yaml.MapItem{Key: "namespace", Value: ref.Namespace})
	}
	return append(m, yaml.MapItem{Key: "name", Value: ref.Name}), nil
}

// Apply deletes the object.
func (del *Delete) Apply(ctx context.Context, w World) error { return w.Delete(ctx, del.Object) }
