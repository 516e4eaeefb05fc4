package timeline

import (
	"math"
	"sort"
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
func Steps(tl *Timeline) []Step {
	var steps []Step
	for _, in := range tl.Instances {
		for _, l := range in.Lanes {
			entry, ok := catalog.Lookup(l.Goroutine)
			add := func(kind StepKind, at time.Time, m *Mark) {
				st := Step{Kind: kind, At: at, Instance: in, Lane: l, Mark: m, Entry: entry, HasEntry: ok}
				if kind == StepCall && l.Goroutine == MainLane {
					st.Startup, st.HasStartup = StartupStep(in.Service, m.Name)
					if in.Service == catalog.ServiceScenario {
						st.At = actionTime(tl, m)
					}
				}
				steps = append(steps, st)
			}
			if l.Goroutine != MainLane {
				add(StepStarted, l.Start, nil)
			}
			for i := range l.Iterations {
				add(StepIteration, l.Iterations[i].Start, &l.Iterations[i])
			}
			for i := range l.Calls {
				add(StepCall, l.Calls[i].Start, &l.Calls[i])
			}
			for i := range l.Events {
				add(StepEvent, l.Events[i].Start, &l.Events[i])
			}
			if l.Goroutine != MainLane && !l.Open {
				add(StepStopped, l.End, nil)
			}
		}
	}
	// Lane order, with the scenario's main lane first.
	order := map[*Lane]int{}
	n := 1
	for _, in := range tl.Instances {
		for _, l := range in.Lanes {
			order[l] = n
			if in.Service == catalog.ServiceScenario && l.Goroutine == MainLane {
				order[l] = 0
			}
			n++
		}
	}
	// Sort indexes, not the steps: a Step carries its catalog entry by
	// value, and a 100,000-span recording has as many steps.
	idx := make([]int, len(steps))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool {
		a, b := &steps[idx[i]], &steps[idx[j]]
		if !a.At.Equal(b.At) {
			return a.At.Before(b.At)
		}
		if order[a.Lane] != order[b.Lane] {
			return order[a.Lane] < order[b.Lane]
		}
		return kindOrder[a.Kind] < kindOrder[b.Kind]
	})
	sorted := make([]Step, len(steps))
	for i, k := range idx {
		sorted[i] = steps[k]
	}
	steps = sorted
	return steps
}

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
