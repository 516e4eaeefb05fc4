package controllers

import (
	"context"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/utils/ptr"

	"github.com/kubeloom/kubeloom/sim/informer"
)

// discovers are the requests of a discovery of every served resource
// (ServerGroupsAndResources on client-go's fake).
func discovers() []k8stesting.Action {
	return []k8stesting.Action{
		k8stesting.ActionImpl{Verb: "get", Resource: schema.GroupVersionResource{Resource: "group"}},
		k8stesting.ActionImpl{Verb: "get", Resource: schema.GroupVersionResource{Resource: "resource"}},
	}
}

// emptying are the requests that empty a namespace, as v1.5's
// deleteAllContent makes them: for each namespaced kind discovery lists
// that can be listed and deleted as a collection, a DELETE of the
// collection, then a LIST of what is left.
func emptying(t *testing.T, cc *Context, ns string) []k8stesting.Action {
	t.Helper()
	lists, err := cc.Resources()
	if err != nil {
		t.Fatal(err)
	}
	out := discovers()
	for _, l := range lists {
		gv, _ := schema.ParseGroupVersion(l.GroupVersion)
		for _, r := range l.APIResources {
			if r.Namespaced && slices.Contains(r.Verbs, "deletecollection") && slices.Contains(r.Verbs, "list") {
				out = append(out,
					//lint:ignore SA1019 the DELETE v1.5's namespace controller sends, OrphanDependents: false
					k8stesting.NewDeleteCollectionActionWithOptions(gv.WithResource(r.Name), ns, metav1.DeleteOptions{OrphanDependents: ptr.To(false)}, metav1.ListOptions{}),
					k8stesting.NewListAction(gv.WithResource(r.Name), gv.WithKind(r.Kind), ns, metav1.ListOptions{}))
			}
		}
	}
	return out
}

// TestNamespaceSync is syncNamespaceFromKey: a live namespace costs
// nothing; a deleted one is emptied kind by kind, then its "kubernetes"
// finalizer is removed and it is deleted, or, while content is still going
// (a pod stopping gracefully), the key is tried again later.
func TestNamespaceSync(t *testing.T) {
	for _, tc := range []struct {
		name    string
		deleted bool
		pods    []*corev1.Pod // in the namespace "team"
		// want is given the namespace as the apiserver has it.
		want      func(t *testing.T, cc *Context, ns *corev1.Namespace) []k8stesting.Action
		wantRetry time.Duration
	}{{
		name: "live: no request",
		want: func(*testing.T, *Context, *corev1.Namespace) []k8stesting.Action { return nil },
	}, {
		name: "deleted and empty: emptied, finalized, deleted", deleted: true,
		want: func(t *testing.T, cc *Context, ns *corev1.Namespace) []k8stesting.Action {
			finalized := ns.DeepCopy()
			finalized.Spec.Finalizers = nil
			want := append([]k8stesting.Action{gets("namespaces", "", "team")}, emptying(t, cc, "team")...)
			return append(want, k8stesting.NewRootCreateSubresourceAction(resourceOf("namespaces"), "team", "finalize", finalized),
				deletes("namespaces", "", "team", metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &ns.UID}}))
		},
	}, {
		name: "a pod still stopping: emptied, tried again in half its grace period", deleted: true,
		pods: []*corev1.Pod{{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "team"}, Spec: corev1.PodSpec{NodeName: "node-1"}}},
		want: func(t *testing.T, cc *Context, _ *corev1.Namespace) []k8stesting.Action {
			return append([]k8stesting.Action{gets("namespaces", "", "team")}, emptying(t, cc, "team")...)
		},
		wantRetry: 16 * time.Second, // 30s of grace: 30s/2 + 1s
	}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t, informer.Classic)
				nm := newNamespaceController(f.ctx, f.cc)
				ns := serve(f, "namespaces", &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team"}})
				for _, p := range tc.pods {
					serve(f, "pods", p)
				}
				if tc.deleted {
					ns = deleted(f, "namespaces", ns)
				}
				f.index(nm.namespaces, ns)
				want := tc.want(t, f.cc, ns)
				got, err := f.run(func(ctx context.Context) error { return nm.sync(ctx, "team") })
				checkRetry(t, err, tc.wantRetry)
				checkActions(t, want, got)
			})
		})
	}
}
