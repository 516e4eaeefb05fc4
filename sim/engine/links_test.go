package engine

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
)

// causedBy returns, for each span, the spans that name it as their cause
// (kubeloom.link=cause).
func causedBy(spans []traces.Span) map[string][]traces.Span {
	out := map[string][]traces.Span{}
	for _, s := range spans {
		for _, l := range s.Links {
			if l.Attributes.String(catalog.AttrLink) == catalog.LinkCause {
				out[l.SpanID] = append(out[l.SpanID], s)
			}
		}
	}
	return out
}

// unlinked are the verbs whose effect no span of the recording can name.
var unlinked = map[string]string{
	// The handler's next call never returns, so neither its span nor its
	// goroutine's ever ends and the recording holds neither (see
	// TestGoroutineLeak); what shows is a buffer growing on listener-pop.
	"hangHandler": "its effect is a call that never ends",
}

// Every scenario action is the cause of the first spans it sets off: the
// watch events of its write, or the span that reacts to what it did
// without one. The step-through's f follows these links from the action.
func TestActionsLinkToTheirEffects(t *testing.T) {
	runs := []struct {
		name, spec string
		// effect: per verb, the name of a span that must name the
		// action as its cause, and the instance it runs on.
		effect map[string][2]string
	}{
		{"informers", `
  informers: [{resource: pods, handlers: 1}]
  objects:
    - {apiVersion: v1, kind: Pod, metadata: {name: web-0, namespace: default}, spec: {containers: [{name: web, image: nginx}]}}
  actions:
    - {at: 2s, create: {apiVersion: v1, kind: Pod, metadata: {name: web-1, namespace: default}, spec: {containers: [{name: web, image: nginx}]}}}
    - {at: 3s, update: {apiVersion: v1, kind: Pod, metadata: {name: web-0, namespace: default, labels: {tier: front}}, spec: {containers: [{name: web, image: nginx}]}}}
    - {at: 4s, delete: {kind: Pod, namespace: default, name: web-1}}
    - {at: 5s, addHandler: {informer: pods}}
    - {at: 6s, breakWatches: {resource: pods}}
`, map[string][2]string{
			"create":       {"receive", "informers"},
			"update":       {"receive", "informers"},
			"delete":       {"receive", "informers"},
			"addHandler":   {"action/addHandler", "informers"},
			"breakWatches": {"receive", "informers"},
		}},
		{"failover", `
  controllerManager: {replicas: 2, leaderElect: true, controllers: [endpoint]}
  actions:
    - {at: 20s, killLeader: {}}
`, map[string][2]string{
			"killLeader": {"main", "cm-0"}, // the killed process records why it ended
		}},
		{"kubelet", `
  kubelets: {count: 1}
  actions:
    - {at: 5s, create: {apiVersion: v1, kind: Pod, metadata: {name: web, namespace: default}, spec: {nodeName: node-1, containers: [{name: web, image: nginx:1.11}]}}}
    - {at: 15s, injectOOM: {node: node-1, pod: default/web, container: web}}
    - {at: 16s, injectOOM: {node: node-1}}
    - {at: 20s, setImageFSUsage: {node: node-1, percent: 95}}
    - {at: 30s, stopKubelet: {node: node-1}}
    - {at: 31s, takePort: {node: node-1, server: healthz, for: 10s}}
    - {at: 32s, startKubelet: {node: node-1}}
`, map[string][2]string{
			"create":          {"receive", "node-1"}, // the kubelet's pod source
			"injectOOM":       {"oomEvent", "node-1"},
			"setImageFSUsage": {"Images/GarbageCollect", "node-1"}, // at 5m, the next image GC
			"stopKubelet":     {"main", "node-1"},
			"takePort":        {"ListenAndServe", "node-1"}, // healthz fails on the taken port
			"startKubelet":    {"main", "node-1"},
		}},
	}
	covered := map[string]bool{}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			sc, err := scenarios.Parse(r.name+".yaml", []byte("apiVersion: kubeloom.dev/v1\nkind: Scenario\nmetadata: {name: "+r.name+
				"}\nspec:\n  duration: 5m10s\n"+strings.TrimPrefix(r.spec, "\n")))
			if err != nil {
				t.Fatal(err)
			}
			sum, spans := runScenario(t, sc, nil)
			if len(sum.Failures) > 0 {
				t.Fatalf("actions failed: %v", sum.Failures)
			}
			effects := causedBy(spans)
			actions := 0
			for _, s := range spans {
				verb := s.Attributes.String("kubeloom.action")
				if verb == "" || !strings.HasPrefix(s.Name, "action/") || s.Resource.String(catalog.AttrServiceName) != serviceDriver {
					continue
				}
				actions++
				want, ok := r.effect[verb]
				if !ok {
					t.Errorf("no effect expected of %s", verb)
					continue
				}
				covered[verb] = true
				var got []string
				found := false
				for _, e := range effects[s.SpanID] {
					inst := e.Resource.String(catalog.AttrServiceInstanceID)
					got = append(got, e.Name+" on "+inst)
					found = found || e.Name == want[0] && inst == want[1]
				}
				t.Logf("%s at %gs: linked from %v", verb, s.Attributes["kubeloom.action.at_s"], got)
				if !found {
					t.Errorf("%s at %gs: linked from %v, want %s on %s among them", verb, s.Attributes["kubeloom.action.at_s"], got, want[0], want[1])
				}
			}
			if actions != len(strings.Split(strings.TrimSpace(r.spec[strings.Index(r.spec, "actions:")+len("actions:"):]), "\n")) {
				t.Errorf("%d action spans, want one per action", actions)
			}
		})
	}
	for _, v := range scenarios.Verbs() {
		if _, ok := unlinked[v]; !covered[v] && !ok {
			t.Errorf("no run covers the verb %s", v)
		}
	}
	if t.Failed() {
		t.Logf("covered %v", slices.Sorted(maps.Keys(covered)))
	}
}
