package scenarios

import (
	"fmt"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
)

// APIVersion and Kind are the only values a scenario file's apiVersion and kind may have.
const (
	APIVersion = "kubeloom.dev/v1"
	Kind       = "Scenario"
)

// Limits on spec values. They keep a scenario small enough to run in seconds on a laptop.
const (
	MaxDuration = 24 * time.Hour // spec.duration
	MaxSpeed    = 10000          // spec.speed
	MaxReplicas = 10             // spec.controllerManager.replicas
	MaxKubelets = 1000           // spec.kubelets.count
	MaxHandlers = 100            // spec.informers[].handlers
)

// defaultNamespace is given to namespaced objects that name none, as kubectl does.
const defaultNamespace = "default"

// Scenario is a decoded, validated scenario file. Every default is filled in.
type Scenario struct {
	APIVersion string // always APIVersion
	Kind       string // always Kind
	Metadata   Metadata
	Spec       Spec
	// Source is where the scenario came from: the file path given to Parse or LoadFile, or
	// "builtin:NAME" for a built-in.
	Source string
}

// Metadata names and describes a scenario.
type Metadata struct {
	Name        string   // a DNS-1123 label: lower-case letters, digits and '-'
	Description string   // optional, one line for `kubeloom scenarios list`
	WatchFor    []string // optional: what to look at in the recording, for `kubeloom scenarios show`
	ZH          Text     // optional: the description and what to watch for in Chinese (metadata.zh)
}

// Text is what a scenario says of itself in one language.
type Text struct {
	Description string
	WatchFor    []string
}

// Text is the scenario's description and what to watch for in lang ("en"
// or "zh"). Chinese falls back to English, field by field, where the
// scenario has no Chinese.
func (m Metadata) Text(lang string) Text {
	t := Text{Description: m.Description, WatchFor: m.WatchFor}
	if lang == "zh" {
		if m.ZH.Description != "" {
			t.Description = m.ZH.Description
		}
		if len(m.ZH.WatchFor) > 0 {
			t.WatchFor = m.ZH.WatchFor
		}
	}
	return t
}

// Era selects which generation of Kubernetes behaviour the simulation follows.
type Era string

const (
	// EraClassic is the v1.3–v1.5 behaviour the articles read: DeltaFIFO informers, the
	// Endpoints leader-election lock, PetSet-era controller names.
	EraClassic Era = "classic"
	// EraModern is today's client-go: RealFIFO informers, the Lease lock.
	EraModern Era = "modern"
)

// allEras lists every era, in the order the documentation presents them.
var allEras = []Era{EraClassic, EraModern}

// Spec is what a scenario runs.
type Spec struct {
	Duration time.Duration // simulated; 0 < Duration ≤ MaxDuration
	Speed    float64       // default --speed: simulated seconds per real second; default 1
	Seed     int64         // default 1
	// Era is the era of a single run (default classic). It is empty when Eras is set: use
	// RunEras to get the eras to run.
	Era Era
	// Eras, when set, runs the whole scenario once per era, side by side as separate
	// instances, in this order. It holds at least two distinct eras.
	Eras              []Era
	APIServer         *APIServer         // nil: the era's default API groups
	ControllerManager *ControllerManager // nil: no controller-manager
	Kubelets          *Kubelets          // nil: no kubelet
	Informers         []Informer         // stand-alone instrumented informers
	Objects           []Object           // preloaded into the fake apiserver, in file order
	Actions           []Action           // sorted stably by At
}

// ParseEra returns the era named s, as --era names it.
func ParseEra(s string) (Era, error) {
	if e := Era(s); slices.Contains(allEras, e) {
		return e, nil
	}
	return "", fmt.Errorf("unknown era %q: expected classic or modern", s)
}

// RunEras returns the eras to run the scenario in: Eras if set, else just Era.
func (s *Spec) RunEras() []Era {
	if len(s.Eras) > 0 {
		return append([]Era(nil), s.Eras...)
	}
	return []Era{s.Era}
}

// ControllerManager configures the simulated kube-controller-manager.
type ControllerManager struct {
	Replicas    int  // ≥ 1, default 1; more than one replica compete for the leader lock
	LeaderElect bool // --leader-elect, default true
	// Controllers is --controllers, default ["*"]: "*" enables the default set, "name"
	// enables one controller, "-name" disables one.
	Controllers []string
	// ControllerPos is where each of Controllers is written (nil for the
	// default), for errors found by the simulator, which knows the names.
	ControllerPos []Position
	// Flags are further command-line flags ("--concurrent-endpoint-syncs": "5"), as the
	// simulated binary would receive them.
	Flags map[string]string
	// FlagPos is where each flag's value is written, for errors found when the simulator
	// parses the flags with the era's real flag set.
	FlagPos map[string]Position
}

// APIServer configures the simulated apiserver.
type APIServer struct {
	// RuntimeConfig is kube-apiserver's --runtime-config: API group/versions turned on or
	// off ("batch/v2alpha1": true serves v1.5's alpha CronJob API, which the cron job
	// controller needs). Keys are "group/version" (or "v1" for the core group).
	RuntimeConfig map[string]bool
}

// Kubelets configures the simulated kubelets (one per node).
type Kubelets struct {
	Count int // ≥ 1, default 1; nodes are named node-1 … node-Count
	// ManifestDir is the kubelet's --pod-manifest-path (the file source of static pods); a
	// relative path is relative to the scenario file's folder. Empty: no file source.
	ManifestDir string
	// ManifestDirPos is where ManifestDir is written, for the simulator's errors about where it
	// leads (engine.Check: outside the scenario's folder).
	ManifestDirPos Position
	// ManifestURL turns on the kubelet's --manifest-url source (an HTTP server kubeloom runs).
	ManifestURL bool
}

// NodeNames returns the node names of the kubelets: node-1 … node-Count.
func (k *Kubelets) NodeNames() []string {
	names := make([]string, k.Count)
	for i := range names {
		names[i] = nodeName(i + 1)
	}
	return names
}

func nodeName(i int) string { return fmt.Sprintf("node-%d", i) }

// Informer is a stand-alone instrumented shared informer.
type Informer struct {
	Name      string        // unique; defaults to Resource.Name
	Resource  Resource      // what it lists and watches
	Namespace string        // "" watches every namespace
	Handlers  int           // event handlers registered before start, ≥ 1, default 1
	Resync    time.Duration // resync period, ≥ 0, default 0 (no resync)
	// Reflector is the classic reflector's version: ReflectorV15 (the default) or
	// ReflectorV14, whose ListAndWatch leaves its resync goroutine behind (kubernetes#35015).
	Reflector Reflector
}

// Reflector names a version of the reflector's ListAndWatch (spec.informers[].reflector).
type Reflector string

const (
	// ReflectorV15 is v1.5's: each call's resync goroutine ends with the call (cancelCh,
	// kubernetes#35672). Today's client-go does the same.
	ReflectorV15 Reflector = "v1.5"
	// ReflectorV14 is v1.3's and v1.4's, before #35672: the resync goroutine ends only with
	// the informer, so every re-list leaks one. The classic era only.
	ReflectorV14 Reflector = "v1.4"
)

// reflectors lists every reflector version, the default first.
var reflectors = []string{string(ReflectorV15), string(ReflectorV14)}

// Object is a Kubernetes object from a scenario file, decoded strictly into its client-go type
// (e.g. *corev1.Pod). Its namespace is filled in ("default") for namespaced kinds.
type Object struct {
	Object   runtime.Object
	Resource Resource
	Pos      Position // where the object starts in the file
}

// Ref returns the object's resource, namespace and name.
func (o Object) Ref() ObjectRef {
	ref := ObjectRef{Resource: o.Resource}
	if m, err := meta.Accessor(o.Object); err == nil {
		ref.Namespace, ref.Name = m.GetNamespace(), m.GetName()
	}
	return ref
}

// ObjectRef names an object.
type ObjectRef struct {
	Resource  Resource
	Namespace string // "" for cluster-scoped resources
	Name      string
}

// Key returns the object's cache key, as client-go's MetaNamespaceKeyFunc forms it:
// "namespace/name", or "name" for cluster-scoped objects.
func (r ObjectRef) Key() string {
	if r.Namespace == "" {
		return r.Name
	}
	return r.Namespace + "/" + r.Name
}

// Action is one timed step of a scenario: at a simulated time, a verb.
type Action struct {
	At  time.Duration // simulated time since start, 0 ≤ At ≤ Spec.Duration
	Pos Position      // where the action starts in the file
	// Verb is what the action does, one of the verb types: *Create, *TakePort, … (Verbs lists
	// their names). It is never nil in a parsed scenario.
	Verb Verb
}

// Summary describes a built-in scenario.
type Summary struct {
	Name        string
	Description string
}
