package scenarios

import (
	"reflect"
	"sort"
	"strings"

	"github.com/goccy/go-yaml/ast"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
)

const (
	labelKeyWant   = "a label key: a name of at most 63 letters, digits, '-', '_' and '.', optionally after a DNS subdomain and '/', such as app or app.kubernetes.io/name"
	labelValueWant = "a label value: at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit, or empty"
	annotationWant = "an annotation key: a name of at most 63 letters, digits, '-', '_' and '.', optionally after a DNS subdomain and '/', such as example.com/note"
)

var objectMetaType = reflect.TypeOf(metav1.ObjectMeta{})

// checkLabels checks the labels and annotations of every object metadata of an object (its
// own, and its templates', such as a Deployment's spec.template.metadata) as the apiserver
// does (ValidateObjectMeta: ValidateLabels and ValidateAnnotations), at the key or value
// that is wrong. It returns false when one is.
func (d *decoder) checkLabels(w *jsonWriter, obj any) bool {
	good := true
	root := reflect.TypeOf(obj)
	var paths []string
	for jp := range w.vals {
		if strings.HasSuffix(jp, "metadata.labels") || strings.HasSuffix(jp, "metadata.annotations") {
			paths = append(paths, jp)
		}
	}
	sort.Strings(paths) // errors are sorted by position later; this keeps equal positions stable
	for _, jp := range paths {
		parent, field, _ := cutLast(jp)
		if t, ok := typeAt(root, parent); !ok || t != objectMetaType {
			continue // a label key that happens to end so, inside labels
		}
		m, ok := w.vals[jp].(*ast.MappingNode)
		if !ok {
			continue // null: no labels
		}
		if field == "labels" {
			good = d.labels(m, w.full(jp)) && good
		} else {
			good = d.annotations(m, w.full(jp)) && good
		}
	}
	return good
}

// cutLast splits a JSON path at its last dot.
func cutLast(jp string) (parent, last string, ok bool) {
	i := strings.LastIndexByte(jp, '.')
	if i < 0 {
		return "", jp, false
	}
	return jp[:i], jp[i+1:], true
}

// entries returns the key and string value of each entry of a labels or annotations mapping.
// The strict decoder has already checked that every value is a string.
func entries(m *ast.MappingNode) (keys []string, vals []string, nodes []*ast.MappingValueNode) {
	for _, mv := range m.Values {
		k, ok := keyName(mv.Key)
		if !ok {
			continue
		}
		v, _ := str(mv.Value)
		keys, vals, nodes = append(keys, k), append(vals, v), append(nodes, mv)
	}
	return keys, vals, nodes
}

func (d *decoder) labels(m *ast.MappingNode, path string) bool {
	good := true
	keys, vals, nodes := entries(m)
	for i, k := range keys {
		// ValidateLabels: IsQualifiedName for the key, IsValidLabelValue for the value.
		if msgs := validation.IsQualifiedName(k); len(msgs) > 0 {
			d.errorf(nodes[i].Key, path, "expected %s, got %s: %s", labelKeyWant, quote(k), strings.Join(msgs, "; "))
			good = false
		}
		if msgs := validation.IsValidLabelValue(vals[i]); len(msgs) > 0 {
			d.errorf(nodes[i].Value, path, "label %s: expected %s, got %s: %s", quote(k), labelValueWant, quote(vals[i]), strings.Join(msgs, "; "))
			good = false
		}
	}
	return good
}

func (d *decoder) annotations(m *ast.MappingNode, path string) bool {
	good := true
	keys, vals, nodes := entries(m)
	all := make(map[string]string, len(keys))
	for i, k := range keys {
		all[k] = vals[i]
		// ValidateAnnotations: the key is a qualified name in any case; the value is free text.
		if msgs := validation.IsQualifiedName(strings.ToLower(k)); len(msgs) > 0 {
			d.errorf(nodes[i].Key, path, "expected %s, got %s: %s", annotationWant, quote(k), strings.Join(msgs, "; "))
			good = false
		}
	}
	if err := apivalidation.ValidateAnnotationsSize(all); err != nil {
		d.errorf(m, path, "%v; the apiserver refuses more than %d KiB of annotations on one object", err, apivalidation.TotalAnnotationSizeLimitB>>10)
		good = false
	}
	return good
}
