package scenarios

import (
	"slices"
	"sort"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/kubernetes/scheme"
)

// Resource is a kind of Kubernetes object the fake apiserver stores, as client-go's scheme
// knows it.
type Resource struct {
	Name       string // plural, lower-case: "pods", "deployments"
	GVR        schema.GroupVersionResource
	GVK        schema.GroupVersionKind
	Namespaced bool
}

// String returns the name that selects r in a scenario file: the plural name, qualified with
// the group ("events.events.k8s.io") when another group's resource of the same name is the
// default one, as kubectl does.
func (r Resource) String() string {
	if r.Name == "" {
		return ""
	}
	if def, ok := resources().byName[r.Name]; ok && def.GVR.Group != r.GVR.Group && r.GVR.Group != "" {
		return r.Name + "." + r.GVR.Group
	}
	return r.Name
}

// LookupResource returns the resource of a plural lower-case name such as "pods" or
// "deployments", in its preferred version (apps/v1, not apps/v1beta1). A name can be
// qualified with its group, "events.events.k8s.io", where two groups use the same name;
// unqualified, the core group wins, then the group whose version is most stable.
func LookupResource(name string) (Resource, bool) {
	r, ok := resources().byName[name]
	return r, ok
}

// ResourceForKind returns the resource of a kind in an API version ("apps/v1", "Deployment"),
// for every version client-go's scheme registers. Kinds that the apiserver does not store
// (lists, options, reviews, subresources such as Scale) have none.
func ResourceForKind(apiVersion, kind string) (Resource, bool) {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return Resource{}, false
	}
	r, ok := resources().byGVK[gv.WithKind(kind)]
	return r, ok
}

// notStored are kinds with object metadata that the apiserver never lists or watches:
// request/response types and subresources.
var notStored = map[schema.GroupKind]bool{
	{Group: "", Kind: "Binding"}:                                      true, // pods/binding
	{Group: "", Kind: "RangeAllocation"}:                              true, // apiserver-internal
	{Group: "policy", Kind: "Eviction"}:                               true, // pods/eviction
	{Group: "apps", Kind: "Scale"}:                                    true,
	{Group: "extensions", Kind: "Scale"}:                              true,
	{Group: "autoscaling", Kind: "Scale"}:                             true,
	{Group: "authentication.k8s.io", Kind: "TokenRequest"}:            true, // serviceaccounts/token
	{Group: "authentication.k8s.io", Kind: "TokenReview"}:             true,
	{Group: "authentication.k8s.io", Kind: "SelfSubjectReview"}:       true,
	{Group: "authorization.k8s.io", Kind: "SubjectAccessReview"}:      true,
	{Group: "authorization.k8s.io", Kind: "SelfSubjectAccessReview"}:  true,
	{Group: "authorization.k8s.io", Kind: "LocalSubjectAccessReview"}: true,
	{Group: "authorization.k8s.io", Kind: "SelfSubjectRulesReview"}:   true,
}

// clusterScoped are the resources that live outside namespaces. client-go's scheme does not
// record scope, so this list is kept by hand; a test checks it against the typed clientset,
// whose getters for cluster-scoped resources take no namespace.
var clusterScoped = map[schema.GroupResource]bool{
	{Group: "", Resource: "nodes"}:                                                         true,
	{Group: "", Resource: "namespaces"}:                                                    true,
	{Group: "", Resource: "persistentvolumes"}:                                             true,
	{Group: "", Resource: "componentstatuses"}:                                             true,
	{Group: "admissionregistration.k8s.io", Resource: "mutatingwebhookconfigurations"}:     true,
	{Group: "admissionregistration.k8s.io", Resource: "validatingwebhookconfigurations"}:   true,
	{Group: "admissionregistration.k8s.io", Resource: "mutatingadmissionpolicies"}:         true,
	{Group: "admissionregistration.k8s.io", Resource: "mutatingadmissionpolicybindings"}:   true,
	{Group: "admissionregistration.k8s.io", Resource: "validatingadmissionpolicies"}:       true,
	{Group: "admissionregistration.k8s.io", Resource: "validatingadmissionpolicybindings"}: true,
	{Group: "certificates.k8s.io", Resource: "certificatesigningrequests"}:                 true,
	{Group: "certificates.k8s.io", Resource: "clustertrustbundles"}:                        true,
	{Group: "flowcontrol.apiserver.k8s.io", Resource: "flowschemas"}:                       true,
	{Group: "flowcontrol.apiserver.k8s.io", Resource: "prioritylevelconfigurations"}:       true,
	{Group: "internal.apiserver.k8s.io", Resource: "storageversions"}:                      true,
	{Group: "networking.k8s.io", Resource: "ingressclasses"}:                               true,
	{Group: "networking.k8s.io", Resource: "ipaddresses"}:                                  true,
	{Group: "networking.k8s.io", Resource: "servicecidrs"}:                                 true,
	{Group: "node.k8s.io", Resource: "runtimeclasses"}:                                     true,
	{Group: "rbac.authorization.k8s.io", Resource: "clusterroles"}:                         true,
	{Group: "rbac.authorization.k8s.io", Resource: "clusterrolebindings"}:                  true,
	{Group: "resource.k8s.io", Resource: "deviceclasses"}:                                  true,
	{Group: "resource.k8s.io", Resource: "devicetaintrules"}:                               true,
	{Group: "resource.k8s.io", Resource: "resourceslices"}:                                 true,
	{Group: "resource.k8s.io", Resource: "resourcepoolstatusrequests"}:                     true,
	{Group: "scheduling.k8s.io", Resource: "priorityclasses"}:                              true,
	{Group: "storage.k8s.io", Resource: "csidrivers"}:                                      true,
	{Group: "storage.k8s.io", Resource: "csinodes"}:                                        true,
	{Group: "storage.k8s.io", Resource: "storageclasses"}:                                  true,
	{Group: "storage.k8s.io", Resource: "volumeattachments"}:                               true,
	{Group: "storage.k8s.io", Resource: "volumeattributesclasses"}:                         true,
	{Group: "storagemigration.k8s.io", Resource: "storageversionmigrations"}:               true,
}

// resourceTable indexes the stored kinds of client-go's scheme. It is built once and never
// changed.
type resourceTable struct {
	byName      map[string]Resource                  // "pods", "deployments.apps" → preferred version
	byGVK       map[schema.GroupVersionKind]Resource // every registered version
	preferred   map[schema.GroupKind]Resource
	kinds       map[string][]string // apiVersion → its stored kinds, sorted
	apiVersions []string            // sorted
	names       []string            // unqualified resource names, sorted
}

var resources = sync.OnceValue(buildResources)

func buildResources() *resourceTable {
	t := &resourceTable{
		byName:    map[string]Resource{},
		byGVK:     map[schema.GroupVersionKind]Resource{},
		preferred: map[schema.GroupKind]Resource{},
		kinds:     map[string][]string{},
	}
	for gvk := range scheme.Scheme.AllKnownTypes() {
		if gvk.Version == runtime.APIVersionInternal || strings.HasSuffix(gvk.Kind, "List") || notStored[gvk.GroupKind()] {
			continue
		}
		obj, err := scheme.Scheme.New(gvk)
		if err != nil {
			continue
		}
		if _, err := meta.Accessor(obj); err != nil {
			continue // options, WatchEvent, Status: no object metadata, never stored
		}
		gvr, _ := meta.UnsafeGuessKindToResource(gvk)
		r := Resource{
			Name:       gvr.Resource,
			GVR:        gvr,
			GVK:        gvk,
			Namespaced: !clusterScoped[gvr.GroupResource()],
		}
		t.byGVK[gvk] = r
		av := gvk.GroupVersion().String()
		t.kinds[av] = append(t.kinds[av], gvk.Kind)
		if p, ok := t.preferred[gvk.GroupKind()]; !ok || version.CompareKubeAwareVersionStrings(gvk.Version, p.GVK.Version) > 0 {
			t.preferred[gvk.GroupKind()] = r
		}
	}
	for av := range t.kinds {
		sort.Strings(t.kinds[av])
		t.apiVersions = append(t.apiVersions, av)
	}
	sort.Strings(t.apiVersions)
	for _, r := range t.preferred {
		if r.GVR.Group != "" {
			t.byName[r.Name+"."+r.GVR.Group] = r
		}
		if p, ok := t.byName[r.Name]; !ok || preferOver(r, p) {
			t.byName[r.Name] = r
		}
	}
	for name := range t.byName {
		if !strings.Contains(name, ".") {
			t.names = append(t.names, name)
		}
	}
	sort.Strings(t.names)
	return t
}

// preferOver decides which of two groups' resources of one name an unqualified name means:
// the core group, then the most stable version (deployments: apps/v1 over extensions/v1beta1),
// then the group name, so that the choice never depends on map order.
func preferOver(a, b Resource) bool {
	if (a.GVR.Group == "") != (b.GVR.Group == "") {
		return a.GVR.Group == ""
	}
	if c := version.CompareKubeAwareVersionStrings(a.GVK.Version, b.GVK.Version); c != 0 {
		return c > 0
	}
	return a.GVR.Group < b.GVR.Group
}

// isPreferred reports whether r is the version of its kind that LookupResource returns.
func (t *resourceTable) isPreferred(r Resource) bool {
	return t.preferred[r.GVK.GroupKind()].GVK == r.GVK
}

// kindsNamed returns the preferred resources of every group with a stored kind of that name.
func (t *resourceTable) kindsNamed(kind string) []Resource {
	var out []Resource
	for gk, r := range t.preferred {
		if gk.Kind == kind {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b Resource) int {
		if preferOver(a, b) {
			return -1
		}
		return 1
	})
	return out
}
