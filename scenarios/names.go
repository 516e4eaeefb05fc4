package scenarios

import (
	"fmt"
	"strings"
	"unicode"

	"k8s.io/apimachinery/pkg/api/validate/content"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// An object's name follows the rule the apiserver applies to its kind (the ValidateNameFunc
// each kind's validation passes to ValidateObjectMeta in k8s.io/kubernetes/pkg/apis/*/validation):
// most kinds, nodes included, take a DNS-1123 subdomain; namespaces a DNS-1123 label; services
// a DNS-1035 label, since the name becomes a DNS name in the cluster; the RBAC kinds any path
// segment, so that system:controller:… can be named. A scenario refuses what a real cluster
// would, so that a lesson never shows an object no cluster can hold.
type nameRule struct {
	want  string // what the name must be, for "expected …"; check's messages give the details
	check apivalidation.ValidateNameFunc
}

var (
	subdomainName = nameRule{"a DNS subdomain, such as web-0", apivalidation.NameIsDNSSubdomain}
	labelName     = nameRule{"a DNS label, such as kube-system", apivalidation.NameIsDNSLabel}
	serviceName   = nameRule{"a DNS-1035 label, such as web", apivalidation.NameIsDNS1035Label}
	// The apiserver lets a path segment hold any character but '/' and '%'; kubeloom also
	// refuses the characters a terminal would act on rather than show (escape sequences), and
	// other characters that do not print, which no kubectl user could type.
	rbacName = nameRule{"a path segment of printing characters, such as system:controller:job-controller", func(name string, _ bool) []string {
		msgs := content.IsPathSegmentName(name) // what rbac/validation.ValidateRBACName does
		if i := strings.IndexFunc(name, func(r rune) bool { return !unicode.IsPrint(r) }); i >= 0 {
			msgs = append(msgs, fmt.Sprintf("may not contain %+q, a character that does not print", []rune(name[i:])[0]))
		}
		return msgs
	}}
)

// nameRules are the kinds whose names are not DNS subdomains.
var nameRules = map[schema.GroupResource]nameRule{
	{Resource: "namespaces"}:                                              labelName,
	{Resource: "services"}:                                                serviceName,
	{Group: "rbac.authorization.k8s.io", Resource: "roles"}:               rbacName,
	{Group: "rbac.authorization.k8s.io", Resource: "rolebindings"}:        rbacName,
	{Group: "rbac.authorization.k8s.io", Resource: "clusterroles"}:        rbacName,
	{Group: "rbac.authorization.k8s.io", Resource: "clusterrolebindings"}: rbacName,
}

// nameRuleOf returns the rule for the names of r's objects.
func nameRuleOf(r Resource) nameRule {
	if rule, ok := nameRules[r.GVR.GroupResource()]; ok {
		return rule
	}
	return subdomainName
}

// checkName returns, for a name r's objects may not have, the error message: what was
// expected, and why the apiserver refuses it. It returns "" for a valid name.
func checkName(r Resource, name string) string {
	rule := nameRuleOf(r)
	msgs := rule.check(name, false)
	if len(msgs) == 0 {
		return ""
	}
	return fmt.Sprintf("expected a %s name (%s), got %s: %s", r.GVK.Kind, rule.want, quote(name), strings.Join(msgs, "; "))
}
