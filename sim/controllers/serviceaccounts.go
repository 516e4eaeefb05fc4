package controllers

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
	"github.com/kubeloom/kubeloom/sim/workqueue"
)

// ServiceAccountsController (pkg/controller/serviceaccount, v1.5): shared
// ServiceAccounts and Namespaces informers; one worker makes sure every
// active namespace has the service account "default". The only controller
// v1.5's StartControllers hands the leader-election stop channel.
func startServiceAccounts(ctx context.Context, c *Context) string {
	sc := newServiceAccountsController(ctx, c)
	goroutine.RuntimeFrom(ctx).Go(ctx, "controller/serviceaccount/run", func(ctx context.Context) {
		if !informer.WaitForCacheSync(ctx, c.Era, "serviceaccounts", sc.sas.HasSynced) {
			return
		}
		sc.queue.Workers(ctx, "controller/serviceaccount/worker", 1, "syncNamespace", sc.sync)
		<-ctx.Done()
	})
	return ""
}

// newServiceAccountsController is NewServiceAccountsController: its queue
// and handlers on the shared informers.
func newServiceAccountsController(ctx context.Context, c *Context) *serviceAccountsController {
	sc := &serviceAccountsController{c: c, sas: c.Informers.Informer("serviceaccounts"), namespaces: c.Informers.Informer("namespaces")}
	sc.queue = workqueue.New(ctx, "serviceaccount")
	sc.sas.AddHandler(ctx, informer.Funcs{HandlerName: "serviceaccount-controller", Delete: func(ctx context.Context, obj any) {
		if sa, ok := untomb(obj).(*corev1.ServiceAccount); ok {
			sc.queue.Add(ctx, sa.Namespace)
		}
	}})
	add := func(ctx context.Context, obj any) { sc.queue.Add(ctx, accessor(obj).GetName()) }
	sc.namespaces.AddHandler(ctx, informer.Funcs{HandlerName: "serviceaccount-controller", Add: add,
		Update: func(ctx context.Context, _, cur any) { add(ctx, cur) }})
	return sc
}

type serviceAccountsController struct {
	c               *Context
	sas, namespaces *informer.Informer
	queue           *workqueue.Queue
}

// sync is syncNamespace: create "default" where it is missing.
func (sc *serviceAccountsController) sync(ctx context.Context, key string) error {
	ns, ok := get[*corev1.Namespace](sc.namespaces, key)
	if !ok || ns.Status.Phase != corev1.NamespaceActive {
		return nil
	}
	if _, ok := get[*corev1.ServiceAccount](sc.sas, key+"/default"); ok {
		return nil
	}
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: key}}
	_, err := call(ctx, "serviceaccounts.Create", key+"/default", func(ctx context.Context) (*corev1.ServiceAccount, error) {
		return sc.c.Client.CoreV1().ServiceAccounts(key).Create(ctx, sa, metav1.CreateOptions{})
	})
	if apierrors.IsAlreadyExists(err) || apierrors.IsForbidden(err) {
		return nil // already there, or the namespace began terminating
	}
	return err
}
