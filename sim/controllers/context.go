package controllers

import (
	"context"
	"math/rand/v2"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/kubeloom/kubeloom/sim/events"
	"github.com/kubeloom/kubeloom/sim/informer"
)

// Context is what StartControllers hands every controller: the
// configuration, clients, the shared informer factory and what the
// apiserver serves.
type Context struct {
	Config    *Config
	Era       informer.Era
	Client    kubernetes.Interface
	API       API // the apiserver by resource: the controllers' own informers, and what a dynamic client does
	Informers *informer.Factory
	// APIEnabled reports whether the apiserver serves a group/version
	// ("batch/v2alpha1"): StartControllers' discovery checks.
	APIEnabled func(groupVersion string) bool
	// NewEvents starts a controller's own event pipeline, as most v1.5
	// controllers' constructors do (record.NewBroadcaster() …).
	NewEvents func(ctx context.Context, component string, logging, sink bool) *events.Pipeline
	// Events is the controller manager's own pipeline, built in Run: its
	// recorder is the recorder StartControllers is given.
	Events *events.Pipeline
	// Rand draws ResyncPeriod's jitter; seeded by the scenario.
	Rand *rand.Rand
	// ReadFile reads a file named by a flag (the certificate controller's
	// CA); relative names are relative to the scenario's folder.
	ReadFile func(name string) ([]byte, error)
}

// ResyncPeriod is ResyncPeriod(s)(): a random period between
// --min-resync-period and twice that, so that informers do not resync in
// lock-step.
func (c *Context) ResyncPeriod() time.Duration {
	return time.Duration(float64(c.Config.MinResyncPeriod.Duration) * (c.Rand.Float64() + 1))
}

// groupVersion picks the group/version a controller's start condition
// checks: the one v1.5 served it from (classic), or today's (modern).
func (c *Context) groupVersion(classic, modern string) string {
	if c.Era == informer.Modern {
		return modern
	}
	return classic
}

// Resources is discovery: the resources the apiserver serves.
func (c *Context) Resources() ([]*metav1.APIResourceList, error) {
	_, lists, err := c.Client.Discovery().ServerGroupsAndResources()
	return lists, err
}

// NewInformer builds one of a controller's own informers (cache.NewInformer
// or NewIndexerInformer): informer/private, or a bare reflector.
func (c *Context) NewInformer(resource string, resync time.Duration, mode informer.Mode) *informer.Informer {
	r, ok := informer.LookupResource(resource)
	if !ok {
		panic("controllers: the informer package knows no resource " + resource)
	}
	inf, err := informer.New(informer.Config{Name: resource, Resource: r.GVR, Kind: r.GVK, Era: c.Era, Resync: resync, Source: c.API, Mode: mode})
	if err != nil {
		panic(err) // the resource table is fixed and valid
	}
	return inf
}

// API is the apiserver by resource, as the namespace controller and the
// garbage collector reach every kind of object (a dynamic client in v1.5).
type API interface {
	informer.Source
	Get(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) (runtime.Object, error)
	Update(ctx context.Context, gvr schema.GroupVersionResource, obj runtime.Object) (runtime.Object, error)
	Patch(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string, pt types.PatchType, data []byte) (runtime.Object, error)
	DeleteWithOptions(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string, opts metav1.DeleteOptions) error
	DeleteCollection(ctx context.Context, gvr schema.GroupVersionResource, namespace string, opts metav1.DeleteOptions, list metav1.ListOptions) error
}

// Descriptor is one controller StartControllers knows.
type Descriptor struct {
	// ID is the controller's --controllers name (1.6+), e.g. "statefulset".
	ID string
	// Classic and Modern are its names: as the article gives them (PetSet,
	// ScheduledJob) and as today's code does (StatefulSet, CronJob).
	Classic, Modern string
	// Start starts the controller as StartControllers does. It returns ""
	// when the controller started, else why not, as KCM logs it.
	Start func(ctx context.Context, c *Context) (notStarted string)
	// Pauses is how StartControllers sleeps --controller-start-interval
	// (jittered) after this controller.
	Pauses Pauses
}

// Pauses says how many jittered --controller-start-interval sleeps
// StartControllers takes after a controller. v1.5 writes
// time.Sleep(wait.Jitter(s.ControllerStartInterval.Duration, ControllerStartJitter))
// inside each controller's branch, so most sleep only when they start.
type Pauses int

const (
	PauseIfStarted      Pauses = iota // the sleep is inside the branch that starts it
	PauseAlways                       // after the if/else: ServiceController sleeps even when New fails
	PauseTwiceIfStarted               // the CronJob branch has two sleeps in a row
	PauseNever                        // the GarbageCollector, the last, has none
)

// Count is the number of sleeps after a controller that did or did not start.
func (p Pauses) Count(started bool) int {
	switch {
	case p == PauseAlways:
		return 1
	case p == PauseNever || !started:
		return 0
	case p == PauseTwiceIfStarted:
		return 2
	}
	return 1
}

// Name is the controller's name in an era.
func (d Descriptor) Name(era informer.Era) string {
	if era == informer.Modern {
		return d.Modern
	}
	return d.Classic
}

// All returns the controllers in v1.5's StartControllers order
// (cmd/kube-controller-manager/app/controllermanager.go, release-1.5): the
// HorizontalController in its own autoscaling/v1 block after the
// extensions/v1beta1 one (DaemonSets, Job, Deployment, ReplicaSet); the
// article's list, from master a few weeks earlier, puts it after the
// NamespaceController.
func All() []Descriptor {
	return []Descriptor{
		{ID: "endpoint", Classic: "EndpointController", Modern: "EndpointController", Start: startEndpoint},
		{ID: "replicationcontroller", Classic: "ReplicationManager", Modern: "ReplicationManager", Start: startReplicationManager},
		{ID: "podgc", Classic: "PodGCController", Modern: "PodGCController", Start: startPodGC},
		{ID: "node", Classic: "NodeController", Modern: "NodeController", Start: startNode},
		{ID: "service", Classic: "ServiceController", Modern: "ServiceController", Start: startService, Pauses: PauseAlways},
		{ID: "route", Classic: "RouteController", Modern: "RouteController", Start: startRoute},
		{ID: "resourcequota", Classic: "ResourceQuotaController", Modern: "ResourceQuotaController", Start: startResourceQuota},
		{ID: "namespace", Classic: "NamespaceController", Modern: "NamespaceController", Start: startNamespace},
		{ID: "daemonset", Classic: "DaemonSetsController", Modern: "DaemonSetsController", Start: startDaemonSet},
		{ID: "job", Classic: "JobController", Modern: "JobController", Start: startJob},
		{ID: "deployment", Classic: "DeploymentController", Modern: "DeploymentController", Start: startDeployment},
		{ID: "replicaset", Classic: "ReplicaSetController", Modern: "ReplicaSetController", Start: startReplicaSet},
		{ID: "horizontalpodautoscaling", Classic: "HorizontalController", Modern: "HorizontalController", Start: startHPA},
		{ID: "disruption", Classic: "DisruptionController", Modern: "DisruptionController", Start: startDisruption},
		{ID: "statefulset", Classic: "PetSetController", Modern: "StatefulSetController", Start: startStatefulSet},
		{ID: "cronjob", Classic: "ScheduledJobController", Modern: "CronJobController", Start: startCronJob, Pauses: PauseTwiceIfStarted},
		{ID: "persistentvolume-binder", Classic: "PersistentVolumeController", Modern: "PersistentVolumeController", Start: startPersistentVolume},
		{ID: "attachdetach", Classic: "AttachDetachController", Modern: "AttachDetachController", Start: startAttachDetach},
		{ID: "certificatesigningrequests", Classic: "CertificateController", Modern: "CertificateController", Start: startCertificates},
		{ID: "serviceaccount", Classic: "ServiceAccountsController", Modern: "ServiceAccountsController", Start: startServiceAccounts},
		{ID: "garbagecollector", Classic: "GarbageCollector", Modern: "GarbageCollector", Start: startGarbageCollector, Pauses: PauseNever},
	}
}

// DiscoveryBefore is the controller StartControllers asks the apiserver
// what it serves before: after the ResourceQuotaController, v1.5 polls
// ServerAPIVersions and reads ServerResources, which gate the API-group
// blocks that follow.
const DiscoveryBefore = "namespace"

// Alias returns the ID an older --controllers name stands for ("petset"
// is "statefulset", "scheduledjob" is "cronjob": the names the article's
// era gave them), and whether name is one.
func Alias(name string) (id string, ok bool) {
	switch name {
	case "petset":
		return "statefulset", true
	case "scheduledjob":
		return "cronjob", true
	}
	return "", false
}

// list LISTs a resource of a namespace from the apiserver, in a span
// <resource>.List: what v1.5's code that reads the apiserver rather than a
// cache does (the quota evaluators, the namespace deleter).
func (c *Context) list(ctx context.Context, gvr schema.GroupVersionResource, gvk schema.GroupVersionKind, ns string) ([]runtime.Object, error) {
	return call(ctx, gvr.Resource+".List", ns, func(ctx context.Context) ([]runtime.Object, error) {
		obj, err := c.API.List(ctx, gvr, gvk, ns, metav1.ListOptions{})
		if err != nil {
			return nil, err
		}
		return meta.ExtractList(obj)
	})
}
