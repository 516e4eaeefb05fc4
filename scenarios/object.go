package scenarios

import (
	"strings"

	"github.com/goccy/go-yaml/ast"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	jsonserializer "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/client-go/kubernetes/scheme"
)

// codec decodes JSON into client-go's typed objects, strictly: an unknown field is an error.
var codec = jsonserializer.NewSerializerWithOptions(jsonserializer.DefaultMetaFactory, scheme.Scheme, scheme.Scheme,
	jsonserializer.SerializerOptions{Yaml: false, Strict: true})

// object decodes a Kubernetes object. The YAML tree is turned into JSON while remembering where
// each value came from, so that the strict decoder's complaints point at the right line.
func (d *decoder) object(n ast.Node, path string) (*Object, bool) {
	m, ok := n.(*ast.MappingNode)
	if !ok {
		d.expected(n, path, "a Kubernetes object: a mapping with apiVersion, kind, metadata and the kind's fields")
		return nil, false
	}
	w := &jsonWriter{d: d, prefix: path, keys: map[string]ast.Node{}, vals: map[string]ast.Node{}, ok: true}
	w.write(m, "")
	res, resOK := d.objectKind(w, m, path)
	if !w.ok || !resOK {
		return nil, false
	}
	obj, _, err := codec.Decode(w.buf, nil, nil)
	if err != nil {
		if serr, ok := runtime.AsStrictDecodingError(err); ok {
			for _, e := range serr.Errors() {
				d.strictError(w, res, obj, e)
			}
		} else {
			d.decodeError(w, res, err)
		}
		return nil, false
	}
	acc, err := meta.Accessor(obj)
	if err != nil { // every kind in the resource table has object metadata
		d.errorf(m, path, "cannot read the object's metadata: %v", err)
		return nil, false
	}
	good := true
	name := acc.GetName()
	switch {
	case name == "" && acc.GetGenerateName() != "":
		d.errorf(w.at("metadata.generateName"), join(path, "metadata.generateName"), "not supported in a scenario: set metadata.name, so that actions, traces and you can name the object")
		good = false
	case name == "" && w.vals["metadata.name"] != nil:
		d.expected(w.vals["metadata.name"], join(path, "metadata.name"), "a name; every object needs one")
		good = false
	case name == "":
		d.errorf(w.at("metadata"), join(path, "metadata.name"), "required field is missing; every object needs a name")
		good = false
	default:
		if msg := checkName(res, name); msg != "" {
			d.errorf(w.at("metadata.name"), join(path, "metadata.name"), "%s", msg)
			good = false
		}
	}
	ns := acc.GetNamespace()
	switch {
	case !res.Namespaced && ns != "":
		d.errorf(w.at("metadata.namespace"), join(path, "metadata.namespace"), "%s are cluster-scoped, not in a namespace; remove metadata.namespace", res.Name)
		good = false
	case res.Namespaced && ns == "":
		acc.SetNamespace(defaultNamespace)
	case res.Namespaced && len(validation.IsDNS1123Label(ns)) > 0:
		d.expected(w.at("metadata.namespace"), join(path, "metadata.namespace"), "a namespace name of lower-case letters, digits and '-'")
		good = false
	}
	if !d.checkLabels(w, obj) || !good {
		return nil, false
	}
	return &Object{Object: obj, Resource: res, Pos: d.pos(m)}, true
}

// objectKind checks the object's apiVersion and kind and returns its resource.
func (d *decoder) objectKind(w *jsonWriter, m *ast.MappingNode, path string) (Resource, bool) {
	av, avOK := w.vals["apiVersion"]
	kind, kindOK := w.vals["kind"]
	f := &fields{d: d, node: m, path: path}
	if !avOK && w.keys["apiVersion"] == nil {
		f.missing("apiVersion", "an API version such as v1 or apps/v1")
	}
	if !kindOK && w.keys["kind"] == nil {
		f.missing("kind", "a kind such as Pod or Deployment")
	}
	if !avOK || !kindOK {
		return Resource{}, false
	}
	return d.kindResource(av, join(path, "apiVersion"), kind, join(path, "kind"))
}

// kindResource resolves an apiVersion and kind written in the file. An older version of a
// kind is refused: the simulated informers watch the preferred one, and an object stored
// under another version would be invisible to them.
// A nil avNode means the default apiVersion, v1; errors about it then point at the kind.
func (d *decoder) kindResource(avNode ast.Node, avPath string, kindNode ast.Node, kindPath string) (Resource, bool) {
	av, ok1 := "v1", true
	if avNode == nil {
		avNode = kindNode
	} else if av, ok1 = str(avNode); !ok1 {
		d.expected(avNode, avPath, "an API version such as v1 or apps/v1")
	}
	kind, ok2 := str(kindNode)
	if !ok2 {
		d.expected(kindNode, kindPath, "a kind such as Pod or Deployment")
	}
	if !ok1 || !ok2 {
		return Resource{}, false
	}
	t := resources()
	if r, ok := ResourceForKind(av, kind); ok {
		if !t.isPreferred(r) {
			p := t.preferred[r.GVK.GroupKind()]
			d.errorf(avNode, avPath, "%s is an older version of %s; use apiVersion: %s", av, kind, p.GVK.GroupVersion())
			return Resource{}, false
		}
		return r, true
	}
	gv, err := schema.ParseGroupVersion(av)
	if err == nil && scheme.Scheme.Recognizes(gv.WithKind(kind)) {
		if strings.HasSuffix(kind, "List") {
			d.errorf(kindNode, kindPath, "%s is a list; write each %s as an object of its own", kind, strings.TrimSuffix(kind, "List"))
		} else {
			d.errorf(kindNode, kindPath, "%s cannot be stored in the apiserver (it is a request or a subresource, not an object); expected a kind such as Pod", kind)
		}
		return Resource{}, false
	}
	elsewhere := t.kindsNamed(kind)
	kinds, gvKnown := t.kinds[av]
	switch {
	case gvKnown && len(elsewhere) > 0:
		d.errorf(kindNode, kindPath, "%s is not in %s; use apiVersion: %s", kind, av, elsewhere[0].GVK.GroupVersion())
	case gvKnown:
		if c, ok := closest(kind, kinds); ok {
			d.errorf(kindNode, kindPath, "unknown kind %s in %s; did you mean %s?", quote(kind), av, c)
		} else {
			d.errorf(kindNode, kindPath, "unknown kind %s in %s; expected one of %s", quote(kind), av, strings.Join(kinds, ", "))
		}
	case len(elsewhere) > 0:
		d.errorf(avNode, avPath, "unknown apiVersion %s; %s is in %s", quote(av), kind, elsewhere[0].GVK.GroupVersion())
	default:
		if c, ok := closest(av, t.apiVersions); ok {
			d.errorf(avNode, avPath, "unknown apiVersion %s; did you mean %s?", quote(av), c)
		} else {
			d.errorf(avNode, avPath, "unknown apiVersion %s; expected an API version such as v1, apps/v1 or batch/v1", quote(av))
		}
	}
	return Resource{}, false
}

// requiredResource decodes a mapping's required resource field (informers, breakWatches).
func (d *decoder) requiredResource(f *fields) (Resource, bool) {
	if fl, ok := f.need("resource", "a resource name such as pods"); ok {
		return d.resource(fl.val, fl.path)
	}
	return Resource{}, false
}

// resource resolves a resource name (informers, breakWatches).
func (d *decoder) resource(n ast.Node, path string) (Resource, bool) {
	const want = "a plural lower-case resource name such as pods, nodes or deployments"
	v, ok := str(n)
	if !ok {
		d.expected(n, path, want)
		return Resource{}, false
	}
	if r, ok := LookupResource(v); ok {
		return r, true
	}
	t := resources()
	hint := ""
	if rs := t.kindsNamed(kindCase(v, t)); len(rs) > 0 {
		hint = rs[0].String()
	} else if r, ok := LookupResource(strings.ToLower(v)); ok {
		hint = r.String()
	} else if c, ok := closest(v, t.names); ok {
		hint = c
	}
	if hint != "" {
		d.errorf(n, path, "expected %s, got %s; did you mean %s?", want, describe(n), hint)
		return Resource{}, false
	}
	d.expected(n, path, want)
	return Resource{}, false
}

// kindCase returns the kind whose name is s ignoring case ("pod" → "Pod"), or s.
func kindCase(s string, t *resourceTable) string {
	for gk := range t.preferred {
		if strings.EqualFold(gk.Kind, s) {
			return gk.Kind
		}
	}
	return s
}
