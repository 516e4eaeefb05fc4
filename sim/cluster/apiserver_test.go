package cluster

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
)

func TestCreateFillsSystemMetadata(t *testing.T) {
	at := time.Date(2016, 12, 12, 0, 0, 0, 0, time.UTC)
	c := New(WithClock(clocktesting.NewFakePassiveClock(at)), WithSeed(7))
	ctx := context.Background()
	pods := c.Client.CoreV1().Pods("default")
	p, err := pods.Create(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{GenerateName: "web-"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(p.Name, "web-") || len(p.Name) != len("web-")+5 {
		t.Errorf("generated name %q, want web- and 5 characters", p.Name)
	}
	if p.UID == "" || p.Generation != 1 || !p.CreationTimestamp.Time.Equal(at) || p.Status.Phase != corev1.PodPending {
		t.Errorf("metadata = uid %q, generation %d, created %v, phase %q", p.UID, p.Generation, p.CreationTimestamp, p.Status.Phase)
	}
	// The same seed gives the same names and UIDs.
	c2 := New(WithClock(clocktesting.NewFakePassiveClock(at)), WithSeed(7))
	p2, _ := c2.Client.CoreV1().Pods("default").Create(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{GenerateName: "web-"}}, metav1.CreateOptions{})
	if p2.Name != p.Name || p2.UID != p.UID {
		t.Errorf("seeded runs differ: %s/%s vs %s/%s", p.Name, p.UID, p2.Name, p2.UID)
	}
	// Whatever order goroutines reach the apiserver in, the same objects
	// get the same generated names and UIDs: two web- pods and a db- pod,
	// in two orders.
	created := func(prefixes ...string) map[string]string {
		c := New(WithClock(clocktesting.NewFakePassiveClock(at)), WithSeed(7))
		out := map[string]string{}
		for _, prefix := range prefixes {
			p, err := c.Client.CoreV1().Pods("default").Create(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{GenerateName: prefix}}, metav1.CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			out[p.Name] = string(p.UID)
		}
		return out
	}
	if a, b := created("web-", "db-", "web-"), created("db-", "web-", "web-"); len(a) != 3 || fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("names and UIDs depend on the order of creation: %v, then %v", a, b)
	}
	if _, err := pods.Create(ctx, &corev1.Pod{}, metav1.CreateOptions{}); !apierrors.IsInvalid(err) {
		t.Errorf("a pod without name or generateName: %v, want Invalid", err)
	}
	for _, ns := range []string{"default", "kube-system", "kube-public"} {
		if _, err := c.Client.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{}); err != nil {
			t.Errorf("namespace %s: %v", ns, err)
		}
	}
}

func TestUpdateIsOptimisticAndRespectsSubresources(t *testing.T) {
	c := New()
	ctx := context.Background()
	pods := c.Client.CoreV1().Pods("default")
	p, _ := pods.Create(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "a"}, Spec: corev1.PodSpec{NodeName: "n1"}}, metav1.CreateOptions{})

	stale := p.DeepCopy()
	p.Labels = map[string]string{"app": "web"}
	p.Status.Phase = corev1.PodRunning // ignored by the main resource
	p, err := pods.Update(ctx, p, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Status.Phase != corev1.PodPending || p.Labels["app"] != "web" || p.Generation != 1 {
		t.Errorf("after update: phase %q labels %v generation %d", p.Status.Phase, p.Labels, p.Generation)
	}
	if _, err := pods.Update(ctx, stale, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Errorf("update from a stale copy: %v, want Conflict", err)
	}

	p.Status.Phase = corev1.PodRunning
	p.Labels = nil // ignored by the status subresource
	p, err = pods.UpdateStatus(ctx, p, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Status.Phase != corev1.PodRunning || p.Labels["app"] != "web" {
		t.Errorf("after status update: phase %q labels %v", p.Status.Phase, p.Labels)
	}
	p.Spec.ActiveDeadlineSeconds = ptr.To[int64](5)
	if p, _ = pods.Update(ctx, p, metav1.UpdateOptions{}); p.Generation != 2 {
		t.Errorf("a spec change gives generation %d, want 2", p.Generation)
	}
}

func TestPatchGoesThroughTheWatch(t *testing.T) {
	c := New()
	ctx := context.Background()
	pods := c.Client.CoreV1().Pods("default")
	pods.Create(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "a"}}, metav1.CreateOptions{})
	w, _ := pods.Watch(ctx, metav1.ListOptions{ResourceVersion: "2"})
	defer w.Stop()
	p, err := pods.Patch(ctx, "a", types.StrategicMergePatchType, []byte(`{"metadata":{"labels":{"x":"y"}}}`), metav1.PatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Labels["x"] != "y" || p.ResourceVersion != "3" {
		t.Errorf("patched pod: labels %v rv %s", p.Labels, p.ResourceVersion)
	}
	if ev := <-w.ResultChan(); ev.Type != watch.Modified || ev.Object.(*corev1.Pod).ResourceVersion != "3" {
		t.Errorf("watch saw %v %v", ev.Type, ev.Object)
	}
}

func TestNamespaceTermination(t *testing.T) {
	c := New()
	ctx := context.Background()
	nss := c.Client.CoreV1().Namespaces()
	ns, _ := nss.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "scratch"}}, metav1.CreateOptions{})
	if fmt.Sprint(ns.Spec.Finalizers) != "[kubernetes]" || ns.Status.Phase != corev1.NamespaceActive {
		t.Fatalf("new namespace: finalizers %v phase %q", ns.Spec.Finalizers, ns.Status.Phase)
	}
	if err := nss.Delete(ctx, "scratch", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	nss.Delete(ctx, "scratch", metav1.DeleteOptions{}) // a second delete does not skip the finalizer
	ns, err := nss.Get(ctx, "scratch", metav1.GetOptions{})
	if err != nil || ns.DeletionTimestamp == nil || ns.Status.Phase != corev1.NamespaceTerminating {
		t.Fatalf("deleted namespace: %v %+v", err, ns)
	}
	_, err = c.Client.CoreV1().ConfigMaps("scratch").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "late"}}, metav1.CreateOptions{})
	if !apierrors.IsForbidden(err) {
		t.Errorf("create in a terminating namespace: %v, want Forbidden", err)
	}
	ns.Spec.Finalizers = nil
	if _, err := nss.Finalize(ctx, ns, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := nss.Get(ctx, "scratch", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("a finalized terminating namespace is gone, got %v", err)
	}
}

func TestFinalizersAndGracefulDeletion(t *testing.T) {
	c := New()
	ctx := context.Background()
	cms := c.Client.CoreV1().ConfigMaps("default")
	cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "held", Finalizers: []string{"example.com/hold"}}}, metav1.CreateOptions{})
	cms.Delete(ctx, "held", metav1.DeleteOptions{})
	cms.Delete(ctx, "held", metav1.DeleteOptions{}) // a second delete changes nothing
	cm, _ := cms.Get(ctx, "held", metav1.GetOptions{})
	if cm == nil || cm.DeletionTimestamp == nil {
		t.Fatal("an object with a finalizer must stay, marked for deletion, however often it is deleted")
	}
	cm.Finalizers = nil
	if _, err := cms.Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := cms.Get(ctx, "held", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("removing the last finalizer deletes the object, got %v", err)
	}

	orphanMe, _ := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "owner"}}, metav1.CreateOptions{})
	cms.Delete(ctx, orphanMe.Name, metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationOrphan)})
	if got, _ := cms.Get(ctx, "owner", metav1.GetOptions{}); got == nil || fmt.Sprint(got.Finalizers) != "[orphan]" {
		t.Errorf("orphan deletion: %+v", got)
	}

	pods := c.Client.CoreV1().Pods("default")
	pods.Create(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "bound"}, Spec: corev1.PodSpec{NodeName: "node-1"}}, metav1.CreateOptions{})
	pods.Create(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "pending"}}, metav1.CreateOptions{})
	pods.Delete(ctx, "bound", metav1.DeleteOptions{})
	pods.Delete(ctx, "bound", metav1.DeleteOptions{}) // again, gracefully: still waits
	pods.Delete(ctx, "pending", metav1.DeleteOptions{})
	if p, _ := pods.Get(ctx, "bound", metav1.GetOptions{}); p == nil || p.DeletionTimestamp == nil || *p.DeletionGracePeriodSeconds != 30 {
		t.Errorf("a bound pod waits for its kubelet: %+v", p)
	}
	if _, err := pods.Get(ctx, "pending", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("an unscheduled pod goes at once, got %v", err)
	}
	// The kubelet writes the terminating pod's status: it stays.
	p, _ := pods.Get(ctx, "bound", metav1.GetOptions{})
	p.Status.Phase = corev1.PodSucceeded
	if _, err := pods.UpdateStatus(ctx, p, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := pods.Get(ctx, "bound", metav1.GetOptions{}); err != nil {
		t.Errorf("a status write removed a pod being deleted gracefully: %v", err)
	}
	pods.Delete(ctx, "bound", metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)})
	if _, err := pods.Get(ctx, "bound", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("a delete with grace 0 removes the pod, got %v", err)
	}
}

func TestDeleteCollectionAndScale(t *testing.T) {
	c := New()
	ctx := context.Background()
	cms := c.Client.CoreV1().ConfigMaps("default")
	for i := range 3 {
		cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprint("cm-", i), Labels: map[string]string{"keep": fmt.Sprint(i == 0)}}}, metav1.CreateOptions{})
	}
	if err := cms.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "keep=false"}); err != nil {
		t.Fatal(err)
	}
	if list, _ := cms.List(ctx, metav1.ListOptions{}); len(list.Items) != 1 || list.Items[0].Name != "cm-0" {
		t.Errorf("after deletecollection: %v", list.Items)
	}

	deps := c.Client.AppsV1().Deployments("default")
	deps.Create(ctx, &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web"}, Spec: appsv1.DeploymentSpec{Replicas: ptr.To[int32](3),
		Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}, metav1.CreateOptions{})
	sc, err := deps.GetScale(ctx, "web", metav1.GetOptions{})
	if err != nil || sc.Spec.Replicas != 3 || sc.Status.Selector != "app=web" {
		t.Fatalf("scale: %v %+v", err, sc)
	}
	sc.Spec.Replicas = 5
	if _, err := deps.UpdateScale(ctx, "web", sc, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if d, _ := deps.Get(ctx, "web", metav1.GetOptions{}); *d.Spec.Replicas != 5 || d.Generation != 2 {
		t.Errorf("after scale: replicas %d generation %d", *d.Spec.Replicas, d.Generation)
	}
}

func TestWatchesNeverOverflow(t *testing.T) {
	c := New()
	ctx := context.Background()
	w, _ := c.Client.CoreV1().ConfigMaps("").Watch(ctx, metav1.ListOptions{})
	defer w.Stop()
	const n = 1000 // the fake's own watches panic past 100 unread events
	for i := range n {
		c.Client.CoreV1().ConfigMaps("default").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprint("cm-", i)}}, metav1.CreateOptions{})
	}
	for i := range n {
		ev := <-w.ResultChan()
		if want := fmt.Sprint("cm-", i); ev.Object.(*corev1.ConfigMap).Name != want {
			t.Fatalf("event %d is %s, want %s", i, ev.Object.(*corev1.ConfigMap).Name, want)
		}
	}
}

func TestBindSetsTheNode(t *testing.T) {
	c := New()
	ctx := context.Background()
	pods := c.Client.CoreV1().Pods("default")
	pods.Create(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "a"}}, metav1.CreateOptions{})
	b := &corev1.Binding{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "default"}, Target: corev1.ObjectReference{Kind: "Node", Name: "node-1"}}
	if err := pods.Bind(ctx, b, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if p, _ := pods.Get(ctx, "a", metav1.GetOptions{}); p.Spec.NodeName != "node-1" {
		t.Errorf("bound to %q", p.Spec.NodeName)
	}
	if err := pods.Bind(ctx, b, metav1.CreateOptions{}); !apierrors.IsConflict(err) {
		t.Errorf("binding twice: %v, want Conflict", err)
	}
}
