package controllers

import (
	"context"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
	"github.com/kubeloom/kubeloom/sim/workqueue"
)

// ResourceQuotaController (pkg/controller/resourcequota, v1.5): it keeps
// each ResourceQuota's status.used up to date. Its own quota informer
// resyncs every --resource-quota-sync-period (5m), a loop re-queues every
// quota at that period, and "replenishment" handlers re-queue a namespace's
// quotas when an object they count is deleted (or a pod finishes). The
// apiserver's admission plugin counts creations; kubeloom's fake apiserver
// has none, so creations show up at the next full resync.
func startResourceQuota(ctx context.Context, c *Context) string {
	rq := newQuotaController(ctx, c)
	rt := goroutine.RuntimeFrom(ctx)
	rt.Go(ctx, "controller/resourcequota/run", func(ctx context.Context) {
		rq.quotas.Run(ctx)
		rq.pods.RunDummy(ctx) // replenishment through the shared informers
		rq.pvcs.RunDummy(ctx)
		for _, name := range []string{"services", "replicationcontrollers", "secrets", "configmaps"} {
			rq.counted[name].Run(ctx)
		}
		workers := int(c.Config.ConcurrentResourceQuotaSyncs)
		rq.queue.Workers(ctx, "controller/resourcequota/worker", workers, "syncResourceQuotaFromKey", rq.sync)
		rq.missingUsage.Workers(ctx, "controller/resourcequota/priority-worker", workers, "syncResourceQuotaFromKey", rq.sync)
		rt.Until(ctx, "controller/resourcequota/resync", c.Config.ResourceQuotaSyncPeriod.Duration, rq.enqueueAll, goroutine.WithIterationName("enqueueAll"))
		<-ctx.Done()
	})
	return ""
}

// newQuotaController is NewResourceQuotaController: its own quota
// informer, the replenishment informers and handlers, and two queues.
func newQuotaController(ctx context.Context, c *Context) *quotaController {
	period := c.Config.ResourceQuotaSyncPeriod.Duration
	rq := &quotaController{
		c:      c,
		quotas: c.NewInformer("resourcequotas", period, informer.Private),
		pods:   c.Informers.Informer("pods"),
		pvcs:   c.Informers.Informer("persistentvolumeclaims"),
		counted: map[string]*informer.Informer{
			"services":               c.NewInformer("services", c.ResyncPeriod(), informer.Private),
			"replicationcontrollers": c.NewInformer("replicationcontrollers", c.ResyncPeriod(), informer.Private),
			"secrets":                c.NewInformer("secrets", c.ResyncPeriod(), informer.Private),
			"configmaps":             c.NewInformer("configmaps", c.ResyncPeriod(), informer.Private),
		},
	}
	rq.queue = workqueue.New(ctx, "resourcequota_primary")
	rq.missingUsage = workqueue.New(ctx, "resourcequota_priority")
	rq.quotas.AddHandler(ctx, informer.Funcs{HandlerName: "resourcequota-controller", Add: rq.addQuota,
		Update: func(ctx context.Context, old, cur any) {
			if !apiequality.Semantic.DeepEqual(old.(*corev1.ResourceQuota).Spec.Hard, cur.(*corev1.ResourceQuota).Spec.Hard) {
				rq.addQuota(ctx, cur)
			}
		},
		Delete: func(ctx context.Context, obj any) { rq.queue.Add(ctx, keyOf(obj)) }})
	// Replenishment: the shared Pods and PVCs informers, private ones for the rest.
	rq.pods.AddHandler(ctx, informer.Funcs{HandlerName: "resourcequota-replenishment", Delete: rq.replenish("pods"),
		Update: func(ctx context.Context, old, cur any) {
			if isPodActive(old.(*corev1.Pod)) && !isPodActive(cur.(*corev1.Pod)) {
				rq.replenish("pods")(ctx, cur)
			}
		}})
	rq.pvcs.AddHandler(ctx, informer.Funcs{HandlerName: "resourcequota-replenishment", Delete: rq.replenish("persistentvolumeclaims")})
	for _, name := range []string{"services", "replicationcontrollers", "secrets", "configmaps"} {
		h := informer.Funcs{HandlerName: "resourcequota-replenishment", Delete: rq.replenish(name)}
		if name == "services" {
			h.Update = func(ctx context.Context, old, cur any) {
				if old.(*corev1.Service).Spec.Type != cur.(*corev1.Service).Spec.Type {
					rq.replenish(name)(ctx, cur)
				}
			}
		}
		rq.counted[name].AddHandler(ctx, h)
	}
	return rq
}

type quotaController struct {
	c            *Context
	quotas       *informer.Informer
	pods, pvcs   *informer.Informer
	counted      map[string]*informer.Informer
	queue        *workqueue.Queue
	missingUsage *workqueue.Queue
}

// addQuota puts a quota whose usage was never computed on the priority queue.
func (rq *quotaController) addQuota(ctx context.Context, obj any) {
	q := obj.(*corev1.ResourceQuota)
	if !apiequality.Semantic.DeepEqual(q.Spec.Hard, q.Status.Hard) {
		rq.missingUsage.Add(ctx, keyOf(q))
		return
	}
	for name := range q.Spec.Hard {
		if _, ok := q.Status.Used[name]; !ok {
			rq.missingUsage.Add(ctx, keyOf(q))
			return
		}
	}
	rq.queue.Add(ctx, keyOf(q))
}

func (rq *quotaController) enqueueAll(ctx context.Context) {
	for _, q := range listOf[*corev1.ResourceQuota](rq.quotas) {
		rq.queue.Add(ctx, keyOf(q))
	}
}

// replenish re-queues the quotas of the object's namespace that count the resource.
func (rq *quotaController) replenish(resource string) func(ctx context.Context, obj any) {
	return func(ctx context.Context, obj any) {
		ns := accessor(untomb(obj)).GetNamespace()
		// By key (inNamespace), not in the index's map order: the queue
		// gets them in that order, the same every run.
		for _, q := range inNamespace[*corev1.ResourceQuota](rq.quotas, ns) {
			for name := range q.Spec.Hard {
				if counts(resource, name) {
					rq.queue.Add(ctx, keyOf(q))
					break
				}
			}
		}
	}
}

// counts reports whether a quota resource name counts objects of resource.
func counts(resource string, name corev1.ResourceName) bool {
	n := string(name)
	switch resource {
	case "pods":
		return n == "pods" || n == "count/pods" || strings.HasPrefix(n, "requests.") && n != "requests.storage" ||
			strings.HasPrefix(n, "limits.") || n == "cpu" || n == "memory"
	case "persistentvolumeclaims":
		return n == "persistentvolumeclaims" || n == "requests.storage"
	case "services":
		return strings.HasPrefix(n, "services")
	}
	return n == resource || n == "count/"+resource
}

func (rq *quotaController) sync(ctx context.Context, key string) error {
	q, ok := get[*corev1.ResourceQuota](rq.quotas, key)
	if !ok {
		return nil // "Resource quota has been deleted"
	}
	used := corev1.ResourceList{}
	// Each kind is listed once per sync, as v1.5 runs each evaluator once.
	lists := map[string][]runtime.Object{}
	list := func(res string) []runtime.Object {
		if l, ok := lists[res]; ok {
			return l
		}
		r, _ := informer.LookupResource(res) // usage names only resources it knows
		l, _ := rq.c.list(ctx, r.GVR, r.GVK, q.Namespace)
		lists[res] = l
		return l
	}
	// In name order, not map order: the first use of a resource LISTs it,
	// and the LISTs must come in the same order every run.
	for _, name := range slices.Sorted(maps.Keys(q.Spec.Hard)) {
		if v, ok := usage(list, name); ok {
			used[name] = v
		}
	}
	if apiequality.Semantic.DeepEqual(q.Status.Hard, q.Spec.Hard) && apiequality.Semantic.DeepEqual(q.Status.Used, used) {
		return nil
	}
	upd := q.DeepCopy()
	upd.Status = corev1.ResourceQuotaStatus{Hard: q.Spec.Hard, Used: used}
	_, err := call(ctx, "resourcequotas.UpdateStatus", key, func(ctx context.Context) (*corev1.ResourceQuota, error) {
		return rq.c.Client.CoreV1().ResourceQuotas(q.Namespace).UpdateStatus(ctx, upd, metav1.UpdateOptions{})
	})
	return err
}

// usage is quota.CalculateUsage for one resource name of a namespace,
// from list, which LISTs a resource of the namespace from the apiserver as
// v1.5's evaluators do (its pod evaluator reads the shared informer's
// cache once that has synced; kubeloom lists pods too, so that a quota is
// right from its first sync).
func usage(list func(resource string) []runtime.Object, name corev1.ResourceName) (resource.Quantity, bool) {
	n := string(name)
	count := func(items []runtime.Object, keep func(runtime.Object) bool) resource.Quantity {
		c := 0
		for _, o := range items {
			if keep == nil || keep(o) {
				c++
			}
		}
		return *resource.NewQuantity(int64(c), resource.DecimalSI)
	}
	active := func(o runtime.Object) bool { return isPodActive(o.(*corev1.Pod)) }
	svcType := func(t corev1.ServiceType) func(runtime.Object) bool {
		return func(o runtime.Object) bool { return o.(*corev1.Service).Spec.Type == t }
	}
	switch n {
	case "pods", "count/pods":
		return count(list("pods"), active), true
	case "services.loadbalancers":
		return count(list("services"), svcType(corev1.ServiceTypeLoadBalancer)), true
	case "services.nodeports":
		return count(list("services"), svcType(corev1.ServiceTypeNodePort)), true
	case "services", "replicationcontrollers", "secrets", "configmaps", "persistentvolumeclaims", "resourcequotas":
		return count(list(n), nil), true
	case "count/services", "count/replicationcontrollers", "count/secrets", "count/configmaps", "count/persistentvolumeclaims", "count/resourcequotas":
		return count(list(strings.TrimPrefix(n, "count/")), nil), true
	case "requests.storage":
		sum := resource.Quantity{}
		for _, o := range list("persistentvolumeclaims") {
			if q, ok := o.(*corev1.PersistentVolumeClaim).Spec.Resources.Requests[corev1.ResourceStorage]; ok {
				sum.Add(q)
			}
		}
		return sum, true
	case "cpu", "memory", "requests.cpu", "requests.memory", "limits.cpu", "limits.memory":
		limits := strings.HasPrefix(n, "limits.")
		res := corev1.ResourceName(n[strings.LastIndexByte(n, '.')+1:])
		sum := resource.Quantity{}
		for _, o := range list("pods") {
			p := o.(*corev1.Pod)
			if !isPodActive(p) {
				continue
			}
			for _, ctr := range p.Spec.Containers {
				l := ctr.Resources.Requests
				if limits {
					l = ctr.Resources.Limits
				}
				if q, ok := l[res]; ok {
					sum.Add(q)
				}
			}
		}
		return sum, true
	}
	return resource.Quantity{}, false
}
