package controllers

import (
	"context"
	"fmt"
	"slices"
	"time"

	"go.opentelemetry.io/otel/attribute"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
	"github.com/kubeloom/kubeloom/sim/workqueue"
)

const (
	// namespaceDeletionGracePeriod delays every namespace event (v1.5).
	namespaceDeletionGracePeriod = 5 * time.Second
	// finalizerEstimate is how long an object with finalizers is given.
	finalizerEstimate = 15 * time.Second
)

// NamespaceController (pkg/controller/namespace, v1.5): when a namespace is
// deleted (the apiserver marks it Terminating), its workers delete every
// namespaced object in it, kind by kind as discovery lists them, then
// remove the "kubernetes" finalizer, after which the namespace goes.
func startNamespace(ctx context.Context, c *Context) string {
	nm := newNamespaceController(ctx, c)
	goroutine.RuntimeFrom(ctx).Go(ctx, "controller/namespace/run", func(ctx context.Context) {
		nm.namespaces.Run(ctx)
		nm.queue.Workers(ctx, "controller/namespace/worker", int(c.Config.ConcurrentNamespaceSyncs), "syncNamespaceFromKey", nm.sync)
		<-ctx.Done()
	})
	return ""
}

// newNamespaceController is NewNamespaceController: its own namespaces
// informer, whose handler queues each namespace after the grace period.
func newNamespaceController(ctx context.Context, c *Context) *namespaceController {
	nm := &namespaceController{c: c, namespaces: c.NewInformer("namespaces", c.Config.NamespaceSyncPeriod.Duration, informer.Private)}
	nm.queue = workqueue.New(ctx, "namespace")
	enqueue := func(ctx context.Context, obj any) { nm.queue.AddAfter(ctx, keyOf(obj), namespaceDeletionGracePeriod) }
	nm.namespaces.AddHandler(ctx, informer.Funcs{HandlerName: "namespace-controller", Add: enqueue,
		Update: func(ctx context.Context, _, cur any) { enqueue(ctx, cur) }})
	return nm
}

type namespaceController struct {
	c          *Context
	namespaces *informer.Informer
	queue      *workqueue.Queue
}

func (nm *namespaceController) sync(ctx context.Context, key string) error {
	cached, ok := get[*corev1.Namespace](nm.namespaces, key)
	if !ok || cached.DeletionTimestamp == nil {
		return nil // a live namespace costs nothing
	}
	nss := nm.c.Client.CoreV1().Namespaces()
	ns, err := call(ctx, "namespaces.Get", key, func(ctx context.Context) (*corev1.Namespace, error) {
		return nss.Get(ctx, key, metav1.GetOptions{})
	})
	if apierrors.IsNotFound(err) {
		return nil
	} else if err != nil {
		return err
	}
	if ns.Status.Phase != corev1.NamespaceTerminating {
		upd := ns.DeepCopy()
		upd.Status.Phase = corev1.NamespaceTerminating
		if ns, err = call(ctx, "namespaces.UpdateStatus", key, func(ctx context.Context) (*corev1.Namespace, error) {
			return nss.UpdateStatus(ctx, upd, metav1.UpdateOptions{})
		}); err != nil {
			return err
		}
	}
	if len(ns.Spec.Finalizers) == 0 {
		return nm.deleteNamespace(ctx, ns)
	}
	estimate, err := nm.deleteAllContent(ctx, ns)
	if err != nil {
		return err
	}
	if estimate > 0 {
		return workqueue.RetryAfter{After: estimate/2 + time.Second, Reason: fmt.Sprintf("content remaining in namespace %s", key)}
	}
	// Remove the "kubernetes" finalizer: the namespace is empty.
	upd := ns.DeepCopy()
	upd.Spec.Finalizers = nil
	for _, f := range ns.Spec.Finalizers {
		if f != corev1.FinalizerKubernetes {
			upd.Spec.Finalizers = append(upd.Spec.Finalizers, f)
		}
	}
	result, err := call(ctx, "namespaces.Finalize", key, func(ctx context.Context) (*corev1.Namespace, error) {
		return nss.Finalize(ctx, upd, metav1.UpdateOptions{})
	})
	if apierrors.IsNotFound(err) {
		return nil
	} else if err != nil {
		return err
	}
	if len(result.Spec.Finalizers) == 0 {
		return nm.deleteNamespace(ctx, result)
	}
	return nil
}

func (nm *namespaceController) deleteNamespace(ctx context.Context, ns *corev1.Namespace) error {
	uid := ns.UID
	err := do(ctx, "namespaces.Delete", ns.Name, func(ctx context.Context) error {
		return nm.c.Client.CoreV1().Namespaces().Delete(ctx, ns.Name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}})
	})
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

// deleteAllContent deletes every namespaced object of the namespace and
// estimates how long the ones still there (pods stopping gracefully,
// objects with finalizers) need.
func (nm *namespaceController) deleteAllContent(ctx context.Context, ns *corev1.Namespace) (time.Duration, error) {
	lists, err := nm.c.Resources()
	if err != nil {
		return 0, err
	}
	var estimate time.Duration
	for _, list := range lists {
		gv, _ := schema.ParseGroupVersion(list.GroupVersion)
		for _, r := range list.APIResources {
			if !r.Namespaced || !slices.Contains(r.Verbs, "deletecollection") || !slices.Contains(r.Verbs, "list") {
				continue
			}
			gvr := gv.WithResource(r.Name)
			err := do(ctx, r.Name+".DeleteCollection", ns.Name, func(ctx context.Context) error {
				orphan := false
				//lint:ignore SA1019 v1.5's deleteCollection sends OrphanDependents: false (pkg/controller/namespace/namespace_controller_utils.go)
				return nm.c.API.DeleteCollection(ctx, gvr, ns.Name, metav1.DeleteOptions{OrphanDependents: &orphan}, metav1.ListOptions{})
			})
			if err != nil {
				return 0, err
			}
			left, err := nm.c.list(ctx, gvr, gv.WithKind(r.Kind), ns.Name)
			if err != nil {
				return 0, err
			}
			for _, it := range left {
				estimate = max(estimate, remainingFor(it, ns))
			}
			if len(left) > 0 {
				goroutine.SpanFrom(ctx).AddEvent("content remaining", attribute.String(catalog.AttrResource, r.Name), attribute.Int("items", len(left)))
			}
		}
	}
	return estimate, nil
}

// remainingFor estimates how long an object still in a deleted namespace
// needs: a pod its grace period, counted from the namespace's deletion;
// anything with finalizers 15s.
func remainingFor(obj any, ns *corev1.Namespace) time.Duration {
	if p, ok := obj.(*corev1.Pod); ok && p.DeletionGracePeriodSeconds != nil {
		return max(time.Second, time.Duration(*p.DeletionGracePeriodSeconds)*time.Second)
	}
	if len(accessor(obj).GetFinalizers()) > 0 {
		return finalizerEstimate
	}
	return time.Second
}
