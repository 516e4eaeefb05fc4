package catalog

import "slices"

// A Step explains a startup step: a call on an instance's main line (no
// goroutine of its own), such as NewKubeletServer or StartControllers. The
// goroutine catalog explains goroutines; the steps between them are what
// the articles walk through first, and the step-through and the HTML page
// tell them the same way. Like an Entry, a Step holds the facts; its Story
// is in sim/catalog/locale.
type Step struct {
	Component string // the instance's service.name: "kube-controller-manager", "kubelet", "kubeloom"
	Name      string // the span's name, e.g. "NewKubeletServer"
	Function  string // the Kubernetes function it stands for (v1.5 era)
	File      string // the Kubernetes file of that function
	Article   string // article file and section, "" if the articles do not name it
}

var (
	steps     = map[[2]string]Step{}
	stepOrder []Step // as registered: each component's steps in the order they run
)

func registerSteps(ss ...Step) {
	for _, s := range ss {
		k := [2]string{s.Component, s.Name}
		if _, dup := steps[k]; dup {
			panic("catalog: duplicate step " + s.Component + " " + s.Name)
		}
		steps[k] = s
		stepOrder = append(stepOrder, s)
	}
}

// LookupStep returns the step of a main-line span named name on an
// instance of component (its service.name).
func LookupStep(component, name string) (Step, bool) {
	s, ok := steps[[2]string{component, name}]
	return s, ok
}

// Steps returns every step, each component's in the order they run.
func Steps() []Step { return slices.Clone(stepOrder) }
