package session

import (
	"fmt"

	"github.com/kubeloom/kubeloom/scenarios"
)

// Template is an action the page offers for this scenario: a verb and the
// YAML Act takes for it, with the scenario's own names filled in
// ("stopKubelet: {node: node-1}").
type Template struct {
	Verb string `json:"verb"`
	YAML string `json:"yaml"`
}

// Templates lists the actions that make sense for this scenario, in the
// order the page shows them: those that break something first. Each is
// checked as Act checks it, so none is offered that the scenario refuses
// (killLeader without leader election, a kubelet verb without kubelets).
func (s *Session) Templates() []Template {
	return templates(s.sc)
}

func templates(sc *scenarios.Scenario) []Template {
	var nodes []string
	if k := sc.Spec.Kubelets; k != nil {
		nodes = k.NodeNames()
	}
	var out []Template
	add := func(verb, format string, args ...any) {
		src := verb + ": " + fmt.Sprintf(format, args...)
		if _, err := scenarios.ParseAction("template", []byte(src), &sc.Spec, 0); err == nil {
			out = append(out, Template{Verb: verb, YAML: src})
		}
	}
	add("killLeader", "{}")
	add("blockLeaderLock", "{for: 30s}")
	add("breakWatches", "{resource: pods}")
	add("restartAPIServer", "{}")
	for _, n := range nodes {
		add("stopKubelet", "{node: %s}", n)
		add("startKubelet", "{node: %s}", n)
	}
	for _, n := range nodes {
		add("injectOOM", "{node: %s}", n)
		add("setImageFSUsage", "{node: %s, percent: 95}", n)
	}
	for _, inf := range sc.Spec.Informers {
		add("addHandler", "{informer: %s}", inf.Name)
	}
	add("create", "{apiVersion: v1, kind: Pod, metadata: {name: live-1, namespace: default}, spec: {containers: [{name: web, image: \"nginx:1.27\"}]}}")
	add("delete", "{apiVersion: v1, kind: Pod, namespace: default, name: live-1}")
	return out
}
