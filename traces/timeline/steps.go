package timeline

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/kubeloom/kubeloom/sim/catalog"
)

// StepKind is what happens at a step.
type StepKind string

// Step kinds, in the order steps at the same instant are told.
const (
	StepStarted   StepKind = "started"   // a goroutine starts
	StepIteration StepKind = "iteration" // a loop iteration (or an event-driven goroutine's turn) begins
	StepCall      StepKind = "call"      // a span on the lane that is no iteration: a handler call, an API call, a startup step
	StepEvent     StepKind = "event"     // a span event (a watch event, "became leader", ...)
	StepStopped   StepKind = "stopped"   // a goroutine returns
)

var kindOrder = map[StepKind]int{StepStarted: 0, StepIteration: 1, StepCall: 2, StepEvent: 3, StepStopped: 4}

// Step is one moment of a recording told as a story: what happened, on
// which goroutine, and what the goroutine catalog says about it.
type Step struct {
	Kind     StepKind
	At       time.Time
	Instance *Instance
	Lane     *Lane
	// Mark is the iteration, call or event; nil for started and stopped.
	Mark *Mark
	// Entry is the catalog entry of the lane's goroutine (narrative in
	// English and Chinese, the article's words, the Kubernetes source);
	// HasEntry is false for main lanes and names this kubeloom does not know.
	Entry    catalog.Entry
	HasEntry bool
	// Startup is the catalog's story of a call on a main lane (a startup
	// step such as NewKubeletServer, or a scenario action); HasStartup is
	// false for other steps and for calls the catalog does not know.
	Startup    catalog.Step
	HasStartup bool
}

// StartupStep returns the catalog's story of a call on a main lane of an
// instance of service. Calls named after what they act on are looked up by
// their first word: the scenario's root span "scenario NAME" as "scenario",
// a controller's "start EndpointController" as "start".
func StartupStep(service, call string) (catalog.Step, bool) {
	if st, ok := catalog.LookupStep(service, call); ok {
		return st, true
	}
	if first, _, ok := strings.Cut(call, " "); ok {
		return catalog.LookupStep(service, first)
	}
	return catalog.Step{}, false
}

// Name is what the step is called: the mark's name, or the goroutine's.
func (s Step) Name() string {
	if s.Mark != nil {
		return s.Mark.Name
	}
	return s.Lane.Label
}

// Steps returns the recording as an ordered stream of steps: goroutines
// starting and stopping, their iterations, calls and span events, by
// simulated time; steps at the same instant follow instance and lane
// order, a start before the lane's marks and a stop after them, except
// that the scenario's own main lane (its root span, LoadObjects and the
// actions) goes first: what happens at the instant of an action can only
// be its effect or unrelated to it, so the action is told before. A
// scenario action is a step at the time the scenario gives it
// (kubeloom.action.at_s), which in a live run is a few milliseconds before
// its span starts. Lanes still running when the recording ended have no
// stopped step.
//
// A Step carries its catalog stories by value; StepRefs gives the same
// steps in the same order without them, a seventh of the size.
func Steps(tl *Timeline) []Step {
	refs := StepRefs(tl)
	steps := make([]Step, len(refs))
	var lane *Lane
	var entry catalog.Entry
	var hasEntry bool
	for i, r := range refs {
		if r.Lane != lane {
			lane = r.Lane
			entry, hasEntry = catalog.Lookup(lane.Goroutine)
		}
		st := Step{Kind: r.Kind, At: r.At, Instance: r.Instance, Lane: r.Lane, Mark: r.Mark(), Entry: entry, HasEntry: hasEntry}
		st.Startup, st.HasStartup = r.Startup()
		steps[i] = st
	}
	return steps
}

// StepRef is a step of Steps without the catalog's stories: what happens,
// when, on which lane, and which of the lane's marks it is.
type StepRef struct {
	Kind     StepKind
	At       time.Time
	Instance *Instance
	Lane     *Lane
	// Index is the mark's index in the lane's Iterations, Calls or Events,
	// by Kind; -1 for started and stopped.
	Index int
}

// Mark returns the iteration, call or event of the step, or nil for
// started and stopped.
func (r StepRef) Mark() *Mark {
	switch r.Kind {
	case StepIteration:
		return &r.Lane.Iterations[r.Index]
	case StepCall:
		return &r.Lane.Calls[r.Index]
	case StepEvent:
		return &r.Lane.Events[r.Index]
	}
	return nil
}

// Startup is the startup story of a call on an instance's main lane, if
// the catalog tells one (StartupStep).
func (r StepRef) Startup() (catalog.Step, bool) {
	if r.Kind != StepCall || r.Lane.Goroutine != MainLane {
		return catalog.Step{}, false
	}
	return StartupStep(r.Instance.Service, r.Mark().Name)
}

// stepKey orders the steps: by time, then lane order (the scenario's main
// lane first), then kind, then lane, then the mark's index. The last two
// are the order in which Steps lists a recording's steps before sorting,
// so sorting by the whole key is the stable sort by the first three.
type stepKey struct {
	sec   int64
	nsec  int32
	order int32 // the lane's place: 0 for the scenario's main lane
	lane  int32 // the lane's number, in instance and lane order
	index int32 // the mark's index, -1 for started and stopped
	kind  int8
}

func compareStepKeys(a, b stepKey) int {
	switch {
	case a.sec != b.sec:
		return cmp.Compare(a.sec, b.sec)
	case a.nsec != b.nsec:
		return cmp.Compare(a.nsec, b.nsec)
	case a.order != b.order:
		return cmp.Compare(a.order, b.order)
	case a.kind != b.kind:
		return cmp.Compare(a.kind, b.kind)
	case a.lane != b.lane:
		return cmp.Compare(a.lane, b.lane)
	}
	return cmp.Compare(a.index, b.index)
}

// StepRefs returns the steps of Steps, in the same order, as StepRefs.
func StepRefs(tl *Timeline) []StepRef {
	type laneAt struct {
		in *Instance
		l  *Lane
	}
	var lanes []laneAt
	n := 0
	for _, in := range tl.Instances {
		for _, l := range in.Lanes {
			lanes = append(lanes, laneAt{in, l})
			n += len(l.Iterations) + len(l.Calls) + len(l.Events) + 2
		}
	}
	keys := make([]stepKey, 0, n)
	for li, la := range lanes {
		in, l := la.in, la.l
		order := int32(li + 1)
		scenarioMain := in.Service == catalog.ServiceScenario && l.Goroutine == MainLane
		if scenarioMain {
			order = 0
		}
		add := func(kind StepKind, at time.Time, index int) {
			keys = append(keys, stepKey{sec: at.Unix(), nsec: int32(at.Nanosecond()), order: order, lane: int32(li), index: int32(index), kind: int8(kindOrder[kind])})
		}
		if l.Goroutine != MainLane {
			add(StepStarted, l.Start, -1)
		}
		for i := range l.Iterations {
			add(StepIteration, l.Iterations[i].Start, i)
		}
		for i := range l.Calls {
			at := l.Calls[i].Start
			if scenarioMain {
				at = actionTime(tl, &l.Calls[i])
			}
			add(StepCall, at, i)
		}
		for i := range l.Events {
			add(StepEvent, l.Events[i].Start, i)
		}
		if l.Goroutine != MainLane && !l.Open {
			add(StepStopped, l.End, -1)
		}
	}
	slices.SortFunc(keys, compareStepKeys)
	refs := make([]StepRef, len(keys))
	for i, k := range keys {
		la := lanes[k.lane]
		r := StepRef{Kind: stepKinds[k.kind], Instance: la.in, Lane: la.l, Index: int(k.index)}
		switch r.Kind {
		case StepStarted:
			r.At = la.l.Start
		case StepStopped:
			r.At = la.l.End
		case StepCall:
			r.At = la.l.Calls[r.Index].Start
			if k.order == 0 {
				r.At = actionTime(tl, &la.l.Calls[r.Index])
			}
		default:
			r.At = r.Mark().Start
		}
		refs[i] = r
	}
	return refs
}

// stepKinds are the kinds by kindOrder.
var stepKinds = [...]StepKind{StepStarted, StepIteration, StepCall, StepEvent, StepStopped}

// actionTime is when a call on the scenario's main lane is told: an
// action at the time the scenario gives it, if its span started then or
// later (it starts a little later in a live run, when the player wakes
// up), else the span's start.
func actionTime(tl *Timeline, m *Mark) time.Time {
	if m.Attributes.String(catalog.AttrAction) == "" {
		return m.Start
	}
	at, ok := m.Attributes.Float(catalog.AttrActionAt)
	if !ok || at < 0 {
		return m.Start
	}
	if t := tl.Start.Add(time.Duration(math.Round(at * float64(time.Second)))); !t.After(m.Start) {
		return t
	}
	return m.Start
}
