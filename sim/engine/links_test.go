package engine

import (
	"slices"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
)

// causedBy returns, for each span, the spans that name it as their cause
// (kubeloom.link=cause).
func causedBy(spans []traces.Span) map[trace.SpanID][]traces.Span {
	out := map[trace.SpanID][]traces.Span{}
	for _, s := range spans {
		for _, l := range s.Links {
			if l.Attributes.String(catalog.AttrLink) == catalog.LinkCause {
				out[l.SpanID] = append(out[l.SpanID], s)
			}
		}
	}
	return out
}

// reach returns the spans ("name on instance") that the causal links and
// the span tree lead to from s, transitively: a span's children are its
// doing (the kubelet's UndeltaStore.Add calls send, which Merge links to).
func reach(tree map[trace.SpanID][]traces.Span, s traces.Span) map[string]bool {
	out := map[string]bool{}
	seen := map[trace.SpanID]bool{s.SpanID: true}
	next := []traces.Span{s}
	for len(next) > 0 {
		cur := next[0]
		next = next[1:]
		for _, e := range tree[cur.SpanID] {
			if !seen[e.SpanID] {
				seen[e.SpanID] = true
				out[e.Name+" on "+e.Resource.String(catalog.AttrServiceInstanceID)] = true
				next = append(next, e)
			}
		}
	}
	return out
}

// unlinked are the verbs whose effect no span of the recording can name.
func unlinked() map[string]string {
	return map[string]string{
		// The handler's next call never returns, so neither its span nor its
		// goroutine's ever ends and the recording holds neither (see
		// TestGoroutineLeak); what shows is a buffer growing on listener-pop.
		"hangHandler": "its effect is a call that never ends",
	}
}

// Every scenario action is the cause of the first spans it sets off: the
// watch events of its write, or the span that reacts to what it did
// without one. The step-through's f follows these links from the action.
func TestActionsLinkToTheirEffects(t *testing.T) {
	runs := []struct {
		name, spec string
		// effects: per action, by its time, the spans ("name on
		// instance") that must name it as their cause; reaches: spans
		// the existing chains of causes lead to from it.
		effects, reaches map[string][]string
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
`, map[string][]string{
			"2s": {"receive on informers"}, // the watch event of the write
			"3s": {"receive on informers"},
			"4s": {"receive on informers"},
			"5s": {"action/addHandler on informers"}, // its work on the informers' instance
			"6s": {"receive on informers"},           // the 410 Gone
		}, map[string][]string{
			"2s": {"OnAdd on informers"}, // receive → DeltaFIFO.Add → Pop → pop → OnAdd
			"3s": {"OnUpdate on informers"},
			"4s": {"OnDelete on informers"},
		}},
		{"failover", `
  controllerManager: {replicas: 2, leaderElect: true, controllers: [endpoint]}
  actions:
    - {at: 20s, killLeader: {}}
    - {at: 50s, blockLeaderLock: {for: 20s}}
`, map[string][]string{
			"20s": {"main on cm-0"},  // the killed process records why it ended
			"50s": {"renew on cm-1"}, // the new leader's renewal, whose tries the apiserver refuses
		}, nil},
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
    - {at: 50s, restartAPIServer: {}}
`, map[string][]string{
			"5s":  {"receive on node-1"},                      // the kubelet's pod source
			"15s": {"oomEvent on node-1", "relist on node-1"}, // the OOM watcher, and the PLEG that sees web die
			"16s": {"oomEvent on node-1"},
			"20s": {"Images/GarbageCollect on node-1"}, // at 5m, the next image GC, which has to free space
			"30s": {"main on node-1"},
			"31s": {"ListenAndServe on node-1"}, // healthz fails on the taken port
			"32s": {"main on node-1"},
			"50s": {"receive on node-1"}, // the 410 Gone of each of the kubelet's watches
		}, map[string][]string{
			"5s":  {"kubelet/pod-worker on node-1"}, // receive → UndeltaStore.Add → send → Merge → configCh → the pod's worker
			"15s": {"StartContainer on node-1"},     // relist → plegCh → syncPod, which starts web again
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
			effects, tree := causedBy(spans), causedBy(spans)
			for _, s := range spans {
				if s.ParentSpanID.IsValid() {
					tree[s.ParentSpanID] = append(tree[s.ParentSpanID], s)
				}
			}
			seen := map[string]bool{}
			for _, s := range spans {
				verb := s.Attributes.String(catalog.AttrAction)
				if verb == "" || !strings.HasPrefix(s.Name, "action/") || s.Resource.String(catalog.AttrServiceName) != serviceDriver {
					continue
				}
				at, _ := s.Attributes.Float(catalog.AttrActionAt)
				when := time.Duration(at * float64(time.Second)).String()
				seen[when] = true
				covered[verb] = true
				var got []string
				for _, e := range effects[s.SpanID] {
					got = append(got, e.Name+" on "+e.Resource.String(catalog.AttrServiceInstanceID))
				}
				t.Logf("%s at %s: linked from %v", verb, when, got)
				for _, want := range r.effects[when] {
					if !slices.Contains(got, want) {
						t.Errorf("%s at %s: linked from %v, want %s among them", verb, when, got, want)
					}
				}
				reached := reach(tree, s)
				for _, want := range r.reaches[when] {
					if !reached[want] {
						t.Errorf("%s at %s: its causal links do not lead to %s", verb, when, want)
					}
				}
			}
			for when := range r.effects {
				if !seen[when] {
					t.Errorf("no action span at %s", when)
				}
			}
		})
	}
	for _, v := range scenarios.Verbs() {
		if _, ok := unlinked()[v]; !covered[v] && !ok {
			t.Errorf("no run covers the verb %s", v)
		}
	}
}
