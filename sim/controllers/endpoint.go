package controllers

//lint:file-ignore SA1019 v1.5's endpoint controller writes core/v1 Endpoints (EndpointSlices came in 1.16); deprecated since 1.33, still served

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/tools/cache"

	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
	"github.com/kubeloom/kubeloom/sim/workqueue"
)

// fullServiceResyncPeriod is the endpoint controller's Services informer
// resync (FullServiceResyncPeriod).
const fullServiceResyncPeriod = 30 * time.Second

// EndpointController (pkg/controller/endpoint/endpoints_controller.go,
// v1.5): its own Services informer, the shared Pods informer, workers
// syncService that keep one Endpoints object per service: the addresses of
// the pods its selector picks.
func startEndpoint(ctx context.Context, c *Context) string {
	e := newEndpointController(ctx, c)
	goroutine.RuntimeFrom(ctx).Go(ctx, "controller/endpoint/run", func(ctx context.Context) {
		rt := goroutine.RuntimeFrom(ctx)
		e.services.Run(ctx)  // go e.serviceController.Run(stopCh)
		e.pods.RunDummy(ctx) // go e.podController.Run(stopCh)
		if !informer.WaitForCacheSync(ctx, c.Era, "pods", e.pods.HasSynced) {
			return
		}
		e.queue.Workers(ctx, "controller/endpoint/worker", int(c.Config.ConcurrentEndpointSyncs), "syncService", e.syncService)
		rt.Go(ctx, "controller/endpoint/check-leftover", func(ctx context.Context) {
			t := rt.Clock().NewTimer(5 * time.Minute) // give time for our cache to fill
			defer t.Stop()
			select {
			case <-ctx.Done():
				return
			case <-t.C():
			}
			ictx, sp := goroutine.Iterate(ctx, "checkLeftoverEndpoints")
			defer sp.End()
			e.checkLeftoverEndpoints(ictx)
		})
		<-ctx.Done()
	})
	return ""
}

// newEndpointController is NewEndpointController: its own services
// informer, its queue, and handlers on both informers.
func newEndpointController(ctx context.Context, c *Context) *endpointController {
	e := &endpointController{c: c, services: c.NewInformer("services", fullServiceResyncPeriod, informer.Private), pods: c.Informers.Informer("pods")}
	e.queue = workqueue.New(ctx, "endpoint")
	e.services.AddHandler(ctx, enqueueHandlers("endpoint-controller", e.queue))
	podChanged := func(ctx context.Context, obj any) {
		if p, ok := untomb(obj).(*corev1.Pod); ok {
			for _, key := range e.servicesOf(p) {
				e.queue.Add(ctx, key)
			}
		}
	}
	e.pods.AddHandler(ctx, informer.Funcs{HandlerName: "endpoint-controller", Add: podChanged, Delete: podChanged,
		Update: func(ctx context.Context, old, cur any) {
			if accessor(old).GetResourceVersion() == accessor(cur).GetResourceVersion() {
				return // a resync: nothing changed
			}
			podChanged(ctx, cur)
			if !labels.Equals(accessor(old).GetLabels(), accessor(cur).GetLabels()) {
				podChanged(ctx, old)
			}
		}})
	return e
}

type endpointController struct {
	c        *Context
	services *informer.Informer
	pods     *informer.Informer
	queue    *workqueue.Queue
}

// servicesOf returns the keys of the services whose selector picks the pod.
func (e *endpointController) servicesOf(p *corev1.Pod) []string {
	var keys []string
	for _, s := range inNamespace[*corev1.Service](e.services, p.Namespace) {
		if s.Spec.Selector != nil && labels.SelectorFromSet(s.Spec.Selector).Matches(labels.Set(p.Labels)) {
			keys = append(keys, keyOf(s))
		}
	}
	return keys
}

func (e *endpointController) syncService(ctx context.Context, key string) error {
	ns, name, _ := cache.SplitMetaNamespaceKey(key)
	svc, ok := get[*corev1.Service](e.services, key)
	if !ok {
		// The service is gone: delete its endpoints.
		err := do(ctx, "endpoints.Delete", key, func(ctx context.Context) error {
			return e.c.Client.CoreV1().Endpoints(ns).Delete(ctx, name, metav1.DeleteOptions{})
		})
		if apierrors.IsNotFound(err) {
			return nil
		}
		return err
	}
	if svc.Spec.Selector == nil {
		return nil // endpoints of a service without a selector are managed by hand
	}
	subsets := e.subsetsFor(svc)
	cur, err := call(ctx, "endpoints.Get", key, func(ctx context.Context) (*corev1.Endpoints, error) {
		return e.c.Client.CoreV1().Endpoints(ns).Get(ctx, name, metav1.GetOptions{})
	})
	if apierrors.IsNotFound(err) {
		cur = &corev1.Endpoints{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: svc.Labels}}
	} else if err != nil {
		return err
	}
	if cur.ResourceVersion != "" && reflect.DeepEqual(normalize(cur.Subsets), normalize(subsets)) && reflect.DeepEqual(cur.Labels, svc.Labels) {
		return nil // endpoints are equal, skipping update
	}
	upd := cur.DeepCopy()
	upd.Subsets, upd.Labels = subsets, svc.Labels
	if upd.ResourceVersion == "" {
		_, err = call(ctx, "endpoints.Create", key, func(ctx context.Context) (*corev1.Endpoints, error) {
			return e.c.Client.CoreV1().Endpoints(ns).Create(ctx, upd, metav1.CreateOptions{})
		})
	} else {
		_, err = call(ctx, "endpoints.Update", key, func(ctx context.Context) (*corev1.Endpoints, error) {
			return e.c.Client.CoreV1().Endpoints(ns).Update(ctx, upd, metav1.UpdateOptions{})
		})
	}
	return err
}

// subsetsFor puts each selected pod with an IP into the addresses (ready)
// or notReadyAddresses of a subset with the ports its containers resolve
// the service's target ports to: pods that resolve them alike share a
// subset, as v1.5's syncService leaves them after RepackSubsets.
func (e *endpointController) subsetsFor(svc *corev1.Service) []corev1.EndpointSubset {
	var subsets []corev1.EndpointSubset
	byPorts := map[string]int{} // the subset of each set of ports
	for _, p := range podsIn(e.pods, svc.Namespace, labels.SelectorFromSet(svc.Spec.Selector)) {
		if p.Status.PodIP == "" || p.DeletionTimestamp != nil {
			continue
		}
		ports := make([]corev1.EndpointPort, len(svc.Spec.Ports))
		for i, sp := range svc.Spec.Ports {
			ports[i] = corev1.EndpointPort{Name: sp.Name, Port: targetPort(p, sp), Protocol: sp.Protocol}
		}
		i, ok := byPorts[fmt.Sprint(ports)]
		if !ok {
			i = len(subsets)
			byPorts[fmt.Sprint(ports)] = i
			subsets = append(subsets, corev1.EndpointSubset{Ports: ports})
		}
		addr := corev1.EndpointAddress{IP: p.Status.PodIP, NodeName: nodeNameOf(p),
			TargetRef: &corev1.ObjectReference{Kind: "Pod", Namespace: p.Namespace, Name: p.Name, UID: p.UID, ResourceVersion: p.ResourceVersion}}
		if isPodReady(p) {
			subsets[i].Addresses = append(subsets[i].Addresses, addr)
		} else {
			subsets[i].NotReadyAddresses = append(subsets[i].NotReadyAddresses, addr)
		}
	}
	return subsets
}

func nodeNameOf(p *corev1.Pod) *string {
	if p.Spec.NodeName == "" {
		return nil
	}
	n := p.Spec.NodeName
	return &n
}

// targetPort resolves a service port's targetPort against a pod
// (podutil.FindPort): a number, or a named container port.
func targetPort(p *corev1.Pod, sp corev1.ServicePort) int32 {
	switch sp.TargetPort.Type {
	case intstr.String:
		for _, c := range p.Spec.Containers {
			for _, cp := range c.Ports {
				if cp.Name == sp.TargetPort.StrVal {
					return cp.ContainerPort
				}
			}
		}
		if n, err := strconv.Atoi(sp.TargetPort.StrVal); err == nil {
			return int32(n)
		}
	case intstr.Int:
		if sp.TargetPort.IntVal != 0 {
			return sp.TargetPort.IntVal
		}
	}
	return sp.Port
}

// normalize orders addresses so that comparing subsets ignores order.
func normalize(subsets []corev1.EndpointSubset) []corev1.EndpointSubset {
	out := make([]corev1.EndpointSubset, len(subsets))
	for i, s := range subsets {
		s = *s.DeepCopy()
		for _, addrs := range [][]corev1.EndpointAddress{s.Addresses, s.NotReadyAddresses} {
			sort.Slice(addrs, func(a, b int) bool { return addrs[a].IP < addrs[b].IP })
			for j := range addrs {
				if addrs[j].TargetRef != nil {
					addrs[j].TargetRef.ResourceVersion = ""
				}
			}
		}
		out[i] = s
	}
	return out
}

// checkLeftoverEndpoints queues every Endpoints object, so that those of
// services deleted while no controller ran are found and deleted.
func (e *endpointController) checkLeftoverEndpoints(ctx context.Context) {
	list, err := call(ctx, "endpoints.List", "", func(ctx context.Context) (*corev1.EndpointsList, error) {
		return e.c.Client.CoreV1().Endpoints("").List(ctx, metav1.ListOptions{})
	})
	if err != nil {
		return
	}
	for _, ep := range list.Items {
		if _, isLock := ep.Annotations["control-plane.alpha.kubernetes.io/leader"]; isLock {
			// The leader election lock is an Endpoints object without a
			// service. Kubernetes skips it here; versions before the fix
			// deleted it after 5 minutes and forced a re-election.
			continue
		}
		e.queue.Add(ctx, ep.Namespace+"/"+ep.Name)
	}
}
