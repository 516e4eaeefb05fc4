package timeline

import (
	"fmt"
	"path"
	"strings"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/traces"
)

// MainLane is the goroutine name of the lane that holds the spans of an
// instance that run on no traced goroutine: the root "run" span, startup
// steps and scenario actions.
const MainLane = "main"

// Timeline is a recording arranged for viewing.
type Timeline struct {
	Scenario string // kubeloom.scenario of the recording
	// Start and End are the earliest span start and the latest span end of
	// the recording, in simulated time. Start is the origin of Offset.
	Start, End time.Time
	Instances  []*Instance // sorted by service, then ID (node-2 before node-10)
	Spans      int         // spans in the recording
	// Orphans counts spans that belong to no lane: their parent is missing
	// (it had not ended when the recording stopped) and nothing on their
	// path says which goroutine they ran on.
	Orphans int
	Links   int // causal links (kubeloom.link=cause)
	// Outline is set on a timeline made by Outline: its lanes have their
	// Tally but no marks.
	Outline bool
}

// Instance is one running component: a (service.name, service.instance.id) pair.
type Instance struct {
	Service, ID string
	Lanes       []*Lane // by goroutine start time, then label

	groups  []*Group // see group.go
	display []*Lane
}

// Lane is one goroutine of an instance (or the instance's main lane).
type Lane struct {
	Goroutine string // catalog name (goroutine.name), or MainLane
	// Label names the lane uniquely within its instance: the goroutine name,
	// plus qualifiers (informer.name, informer.handler, ...) when several
	// goroutines of the instance share the name, plus "#n" if still ambiguous.
	Label  string
	Kind   string        // goroutine.kind; "" when the lifetime span is missing
	Period time.Duration // goroutine.period_s; 0 if none
	// Start and End are the goroutine's lifetime. A lane whose lifetime span
	// is missing from the recording is Open and ends at the Timeline's End;
	// so is one whose lifetime span is marked catalog.AttrRunning (a live
	// snapshot's goroutine that has not returned yet), which ends at the
	// snapshot's instant.
	Start, End time.Time
	Open       bool
	SpanID     trace.SpanID // the lifetime span; zero when missing or for a main lane

	Iterations []Mark // loop iteration spans, by start
	Calls      []Mark // the lane's other spans, by start
	Events     []Mark // span events on the lane's spans, by time
	Tally      Tally  // how many iterations and calls, also in an Outline
	// Attributes of the lifetime span; for an Open lane, the goroutine
	// attributes found on its spans.
	Attributes traces.Attributes
	// Causes are the span IDs the lifetime span names as what started the
	// goroutine (kubeloom.link=cause: a pod worker's HandlePodAdditions).
	Causes []trace.SpanID

	// Group is the lane's innermost group (group.go): a family of lanes,
	// else its component. Short is its label inside that group: what the
	// group's name already says left out, still distinct in the group.
	Group *Group
	Short string

	spawner   *Lane  // the lane whose span the lifetime span hangs under
	owner     string // the controller it was started for (kubeloom.controller.id)
	component string // its component's name
	quals     []qual // the qualifiers in Label, in order
}

// qual is a qualifier of a lane's label: an attribute that tells the lane
// from others of its goroutine name.
type qual struct{ key, value string }

// Tally counts a lane's spans other than its lifetime span.
type Tally struct {
	Iterations int   // iteration spans: len(Iterations)
	Skipped    int64 // the idle iterations sampled out: the sum of the Iterations' Skipped
	Calls      int   // the other spans: len(Calls)
}

// Mark is a span or a span event placed on a lane. An event has Start == End.
type Mark struct {
	Name       string
	Start, End time.Time
	Iteration  int64 // the iteration number, for iteration marks
	// Skipped counts the idle iterations before this one that the recorder
	// sampled out (kubeloom.skipped_iterations): loops of 1s or less record
	// only some iterations.
	Skipped    int64
	SpanID     trace.SpanID // the span, or for an event the span it was recorded on
	Attributes traces.Attributes
	// Causes are the span IDs the span names as its causes (span links
	// with kubeloom.link=cause); nil for events.
	Causes []trace.SpanID
}

// Offset returns how far t is from the start of the recording, in simulated time.
func (tl *Timeline) Offset(t time.Time) time.Duration { return t.Sub(tl.Start) }

// Duration returns the simulated time the recording covers.
func (tl *Timeline) Duration() time.Duration { return tl.End.Sub(tl.Start) }

// LaneCount returns the number of lanes of all instances.
func (tl *Timeline) LaneCount() int {
	n := 0
	for _, in := range tl.Instances {
		n += len(in.Lanes)
	}
	return n
}

// Instance returns the instance of service with the given ID, or nil.
func (tl *Timeline) Instance(service, id string) *Instance {
	for _, in := range tl.Instances {
		if in.Service == service && in.ID == id {
			return in
		}
	}
	return nil
}

// Name returns "service id", as viewers title an instance, or just the
// service when the ID is empty or repeats it.
func (in *Instance) Name() string {
	if in.ID == "" || in.ID == in.Service {
		return in.Service
	}
	return in.Service + " " + in.ID
}

// Lane returns the lane with the given label, or nil.
func (in *Instance) Lane(label string) *Lane {
	for _, l := range in.Lanes {
		if l.Label == label {
			return l
		}
	}
	return nil
}

// Filter selects instances and lanes of a timeline, as `kubeloom replay
// --instance` and `--goroutine` do. The zero Filter selects everything.
type Filter struct {
	// Instances selects instances by name: a name matches an instance if
	// it matches the instance's ID, its service, or its Name ("service
	// id"). A name may be a path.Match pattern ("node-*").
	Instances []string
	// Goroutines selects lanes with path.Match patterns, matched against
	// the lane's label and its goroutine name, and also, for a pattern
	// without a '/', against both without their component prefix: "pleg*"
	// selects kubelet/pleg-relist, "informer/listener-*" every listener,
	// "main" the main lanes. A '*' does not match a '/'.
	Goroutines []string
}

// IsZero reports whether f selects everything.
func (f Filter) IsZero() bool { return len(f.Instances) == 0 && len(f.Goroutines) == 0 }

// Validate reports a malformed pattern.
func (f Filter) Validate() error {
	for _, list := range []struct {
		flag     string
		patterns []string
	}{{"--instance", f.Instances}, {"--goroutine", f.Goroutines}} {
		for _, p := range list.patterns {
			if _, err := path.Match(p, ""); err != nil {
				return fmt.Errorf("%s %q: %w: see `go doc path.Match` for the syntax (*, ?, [a-z], \\ to escape)", list.flag, p, err)
			}
		}
	}
	return nil
}

// MatchInstance reports whether the filter keeps in.
func (f Filter) MatchInstance(in *Instance) bool {
	if len(f.Instances) == 0 {
		return true
	}
	for _, p := range f.Instances {
		for _, name := range []string{in.ID, in.Service, in.Name(), in.Service + " " + in.ID} {
			if ok, _ := path.Match(p, name); ok {
				return true
			}
		}
	}
	return false
}

// MatchLane reports whether the filter keeps lane l (of an instance it keeps).
func (f Filter) MatchLane(l *Lane) bool {
	if len(f.Goroutines) == 0 {
		return true
	}
	names := []string{l.Label, l.Goroutine}
	for _, p := range f.Goroutines {
		for _, name := range names {
			if ok, _ := path.Match(p, name); ok {
				return true
			}
			if strings.Contains(p, "/") {
				continue
			}
			if i := strings.IndexByte(name, '/'); i >= 0 {
				if ok, _ := path.Match(p, name[i+1:]); ok {
					return true
				}
			}
		}
	}
	return false
}

// Match reports whether the filter keeps lane l of instance in.
func (f Filter) Match(in *Instance, l *Lane) bool { return f.MatchInstance(in) && f.MatchLane(l) }
