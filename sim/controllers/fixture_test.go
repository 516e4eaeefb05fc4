package controllers

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	k8stesting "k8s.io/client-go/testing"

	"github.com/kubeloom/kubeloom/sim/informer"
	"github.com/kubeloom/kubeloom/sim/workqueue"
)

// fixture tests one sync of a controller the way kubernetes/sample-controller's
// controller_test.go does: objects are stored in the fake apiserver (its
// f.objects) and put straight into the informers' indexers (its
// f.fooLister), nothing runs, the sync is called once for one key, and the
// requests it made — the fake clientset's Actions() — are compared with the
// expected ones.
//
// sample-controller filters its informers' list and watch requests out of
// Actions() (filterInformerActions), because its fixture starts them.
// Here no informer ever runs, and the controllers' event pipelines write
// nowhere, so every action is the sync's own: none is filtered out, and a
// LIST the sync makes itself is compared like any other request.
type fixture struct {
	*harness
}

// newFixture must be called inside synctest.Test: a controller's
// constructor starts its event pipeline and its workqueue, whose goroutines
// stop with the test.
func newFixture(t *testing.T, era informer.Era) *fixture {
	t.Helper()
	return &fixture{startHarness(t, era, false)}
}

// resourceOf is the resource of a plural name the informers know ("pods").
func resourceOf(name string) schema.GroupVersionResource {
	r, ok := informer.LookupResource(name)
	if !ok {
		panic("controllers test: no resource " + name)
	}
	return r.GVR
}

// serve stores obj in the fake apiserver under the resource named (as
// sample-controller's fixture preloads its clientset with f.objects) and
// returns it as stored: with a resourceVersion, a UID if it had none, a
// creation time and a generation.
func serve[T runtime.Object](f *fixture, resource string, obj T) T {
	f.t.Helper()
	stored, err := f.c.Create(context.Background(), resourceOf(resource), obj)
	if err != nil {
		f.t.Fatalf("storing %s: %v", resource, err)
	}
	return stored.(T)
}

// deleted deletes obj in the fake apiserver and returns it as the
// apiserver then has it, being deleted: a namespace Terminating, an object
// with finalizers, a bound pod in its grace period. An object that goes at
// once fails the test.
func deleted[T runtime.Object](f *fixture, resource string, obj T) T {
	f.t.Helper()
	m, err := meta.Accessor(obj)
	if err != nil {
		f.t.Fatal(err)
	}
	gvr := resourceOf(resource)
	if err := f.c.Delete(context.Background(), gvr, m.GetNamespace(), m.GetName()); err != nil {
		f.t.Fatalf("deleting %s %s: %v", resource, m.GetName(), err)
	}
	now, err := f.c.Get(context.Background(), gvr, m.GetNamespace(), m.GetName())
	if err != nil {
		f.t.Fatalf("%s %s went at once: %v", resource, m.GetName(), err)
	}
	return now.(T)
}

// index puts objects straight into an informer's cache, as
// sample-controller's fixture adds f.fooLister to the indexer.
func (f *fixture) index(inf *informer.Informer, objs ...runtime.Object) {
	f.t.Helper()
	for _, o := range objs {
		if err := inf.Indexer().Add(o); err != nil {
			f.t.Fatal(err)
		}
	}
}

// add stores obj in the fake apiserver and puts it, as stored, into inf's
// cache: an object both the apiserver and the informer know, as most are.
func add[T runtime.Object](f *fixture, inf *informer.Informer, obj T) T {
	f.t.Helper()
	stored := serve(f, inf.Name(), obj)
	f.index(inf, stored)
	return stored
}

// run forgets the requests the setup made, calls sync once and returns the
// requests it made, in order.
func (f *fixture) run(sync func(ctx context.Context) error) ([]k8stesting.Action, error) {
	f.c.Client.ClearActions()
	err := sync(f.ctx)
	return f.c.Client.Actions(), err
}

// check runs sync once and compares the requests it made with want:
// verb, resource, subresource, namespace, name and what was sent, as
// sample-controller's checkAction compares them, shown as a cmp.Diff.
// opts adjust the comparison (cmpopts.SortSlices where the sync makes
// requests from several goroutines).
func (f *fixture) check(sync func(ctx context.Context) error, want []k8stesting.Action, opts ...cmp.Option) {
	f.t.Helper()
	got, err := f.run(sync)
	if err != nil {
		f.t.Errorf("sync: %v", err)
	}
	checkActions(f.t, want, got, opts...)
}

// checkRetry checks what a sync returned: nothing, or, with want > 0, a
// workqueue.RetryAfter of want: the key is tried again, it did not fail.
func checkRetry(t *testing.T, err error, want time.Duration) {
	t.Helper()
	var retry workqueue.RetryAfter
	switch {
	case want == 0 && err != nil:
		t.Errorf("sync: %v", err)
	case want != 0 && (!errors.As(err, &retry) || retry.After != want):
		t.Errorf("sync: %v, want a retry after %s", err, want)
	}
}

func checkActions(t *testing.T, want, got []k8stesting.Action, opts ...cmp.Option) {
	t.Helper()
	if d := cmp.Diff(requestsOf(want), requestsOf(got), opts...); d != "" {
		t.Errorf("requests to the apiserver (-want +got):\n%s", d)
	}
}

// request is what a test compares of an action.
type request struct {
	Verb        string
	Resource    string // resource.group
	Subresource string
	Namespace   string
	Name        string         // the action's, else the object's (empty for generateName)
	Object      runtime.Object // created or updated
	Patch       string
	Delete      *metav1.DeleteOptions
}

func requestsOf(actions []k8stesting.Action) []request {
	out := make([]request, 0, len(actions))
	for _, a := range actions {
		r := request{Verb: a.GetVerb(), Resource: a.GetResource().GroupResource().String(), Subresource: a.GetSubresource(), Namespace: a.GetNamespace()}
		switch a := a.(type) {
		case k8stesting.CreateActionImpl:
			r.Object, r.Name = a.GetObject(), a.Name
		case k8stesting.UpdateActionImpl:
			r.Object = a.GetObject()
		case k8stesting.GetActionImpl:
			r.Name = a.GetName()
		case k8stesting.DeleteActionImpl:
			r.Name, r.Delete = a.GetName(), &a.DeleteOptions
		case k8stesting.DeleteCollectionActionImpl:
			r.Delete = &a.DeleteOptions
		case k8stesting.PatchActionImpl:
			r.Name, r.Patch = a.GetName(), string(a.GetPatch())
		}
		if r.Name == "" && r.Object != nil {
			if m, err := meta.Accessor(r.Object); err == nil {
				r.Name = m.GetName()
			}
		}
		out = append(out, r)
	}
	return out
}

// The requests a test expects, built as sample-controller's
// expect…Action helpers build them.

func creates(resource string, obj runtime.Object) k8stesting.Action {
	return k8stesting.NewCreateAction(resourceOf(resource), namespaceOf(obj), obj)
}

func updates(resource string, obj runtime.Object) k8stesting.Action {
	return k8stesting.NewUpdateAction(resourceOf(resource), namespaceOf(obj), obj)
}

func updatesStatus(resource string, obj runtime.Object) k8stesting.Action {
	return k8stesting.NewUpdateSubresourceAction(resourceOf(resource), "status", namespaceOf(obj), obj)
}

func gets(resource, namespace, name string) k8stesting.Action {
	return k8stesting.NewGetAction(resourceOf(resource), namespace, name)
}

func lists(resource, namespace string) k8stesting.Action {
	r, _ := informer.LookupResource(resource)
	return k8stesting.NewListAction(r.GVR, r.GVK, namespace, metav1.ListOptions{})
}

func deletes(resource, namespace, name string, opts metav1.DeleteOptions) k8stesting.Action {
	return k8stesting.NewDeleteActionWithOptions(resourceOf(resource), namespace, name, opts)
}

func namespaceOf(obj runtime.Object) string {
	m, err := meta.Accessor(obj)
	if err != nil {
		panic(err)
	}
	return m.GetNamespace()
}
