package kubelet

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// notAPod is a manifest that decodes to another kind of object.
type notAPod struct{ gvk schema.GroupVersionKind }

func (e *notAPod) Error() string {
	return fmt.Sprintf("expected a Pod, got a %s", gvkString(e.gvk))
}

// gvkString is "v1 Service" or "apps/v1 Deployment".
func gvkString(gvk schema.GroupVersionKind) string {
	return gvk.GroupVersion().String() + " " + gvk.Kind
}

// yamlLine finds the line of a YAML syntax error ("yaml: line 3: …").
var yamlLine = regexp.MustCompile(`yaml: line (\d+):`)

// manifestReason says why a manifest did not decode, without a word of
// the manifest: the decoder's messages quote it (the whole file for a
// missing kind, a value for a wrong type, a key for a strict error), so
// each kind of failure gets a sentence of kubeloom's own, and only what
// the decoder found out (a line, a kind of its scheme) is kept.
func manifestReason(err error) string {
	var np *notAPod
	switch {
	case errors.As(err, &np):
		return np.Error()
	case runtime.IsMissingKind(err):
		return "no kind: not a Kubernetes object (expected kind: Pod)"
	case runtime.IsMissingVersion(err):
		return "no apiVersion (expected apiVersion: v1)"
	case runtime.IsNotRegisteredError(err):
		// The kind is a word of the file, and unknown: not repeated.
		return "a kind or apiVersion kubeloom does not know (expected kind: Pod, apiVersion: v1)"
	}
	msg := err.Error()
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		return "not valid YAML (line " + m[1] + ")"
	}
	switch {
	// The decoder reads apiVersion and kind first (SimpleMetaFactory),
	// with encoding/json, and wraps its error as text.
	case strings.Contains(msg, "couldn't get version/kind") && (strings.Contains(msg, "invalid character") || strings.Contains(msg, "unexpected end")):
		return "not valid JSON"
	case strings.Contains(msg, "couldn't get version/kind"):
		return "not a YAML or JSON object (expected a Pod manifest)"
	case strings.Contains(msg, "cannot unmarshal"):
		return "a field holds a value of the wrong type for a v1 Pod"
	}
	return "not a Pod manifest kubeloom can decode (YAML or JSON)"
}
