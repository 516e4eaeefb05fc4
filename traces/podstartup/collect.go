package podstartup

import (
	"strings"
	"time"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
)

// The spans and attributes that mark a pod's moments (doc.go).
const (
	actionCreate  = "action/create"
	podsCreate    = "pods.Create"
	scheduleOne   = "scheduleOne"
	scheduler     = "scheduler/bind"
	statusSync    = "syncPod"
	statusManager = "kubelet/status-manager"
	attrPhase     = "k8s.pod.phase"
	attrMirrorPod = "kubelet.mirror_pod"
	phaseRunning  = "Running"
)

// Attributes are the attribute keys a Collector reads: a recording read
// with only these (traces.ReadOptions) and no events gives the same
// report, from less memory.
var Attributes = []string{catalog.AttrGoroutineName, catalog.AttrObjectKey, catalog.AttrNode, attrPhase, attrMirrorPod}

// moment is what one observation says of a pod.
type moment int

const (
	created      moment = iota // a create naming the pod
	createdGen                 // a create naming only its generateName prefix
	createdByRun               // the scenario's action/create, of a pod or of anything else
	scheduled
	running
	static // the pod is a static pod: its mirror pod was created
)

// observation is one span that marks a moment of a pod.
type observation struct {
	what moment
	key  string // the pod's namespace/name; for createdGen, the prefix
	node string // scheduled: the node; running: the kubelet's instance
	at   time.Time
	seq  int // the order observed, for a stable sort of equal times
}

// A Collector gathers the moments of every pod from spans or a timeline's
// marks, in any order; Report reckons the figures. The zero value is ready
// to use.
type Collector struct {
	obs []observation
}

// Span observes one span of a recording.
func (c *Collector) Span(sp *traces.Span) {
	c.Observe(sp.Resource.String(catalog.AttrServiceInstanceID), sp.Attributes.String(catalog.AttrGoroutineName), sp.Name, sp.Start, sp.Attributes)
}

// Spans observes every span of a recording.
func (c *Collector) Spans(spans []traces.Span) {
	for i := range spans {
		c.Span(&spans[i])
	}
}

// Observe observes a span given by its parts: the service.instance.id of
// its instance, the goroutine it ran on (goroutine.name; "" if unknown),
// its name, start and attributes. Spans that mark no moment are ignored.
func (c *Collector) Observe(instance, goroutine, name string, start time.Time, attrs traces.Attributes) {
	o := observation{at: start, seq: len(c.obs)}
	switch {
	case name == actionCreate:
		o.what, o.key = createdByRun, attrs.String(catalog.AttrObjectKey)
	case name == podsCreate:
		if mirror := attrs.String(attrMirrorPod); mirror != "" {
			// The kubelet creating a static pod's mirror: not the pod's
			// creation, which was a file or URL the kubelet read.
			o.what, o.key = static, mirror
			break
		}
		o.what, o.key = created, attrs.String(catalog.AttrObjectKey)
		if strings.HasSuffix(o.key, "-") {
			// generateName: the apiserver adds five characters.
			o.what = createdGen
		}
	case name == scheduleOne && goroutine == scheduler:
		o.what, o.key, o.node = scheduled, attrs.String(catalog.AttrObjectKey), attrs.String(catalog.AttrNode)
	case name == statusSync && goroutine == statusManager && attrs.String(attrPhase) == phaseRunning:
		o.what, o.key, o.node = running, attrs.String(catalog.AttrObjectKey), instance
	default:
		return
	}
	if o.key == "" {
		return
	}
	c.obs = append(c.obs, o)
}
