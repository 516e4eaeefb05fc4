package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/cluster"
	"github.com/kubeloom/kubeloom/traces"
)

// The shape of the re-list storm that the built-in cluster-scale teaches,
// on a cluster small enough for every test run: when the apiserver
// restarts, every watch of every component breaks, and each one is
// followed by exactly one LIST and one new watch of its reflector — the
// controller-manager's shared informers and every kubelet's pod source,
// node and service reflectors alike. In classic they all land one period
// (1s, wait.Until in 1.5's Reflector.Run) after the restart, within a few
// milliseconds of each other; in modern each reflector's backoff (0.8s
// with jitter up to twice that) spreads them. Nothing else changes:
// no pod is created or deleted.
func TestRestartAPIServerStorm(t *testing.T) {
	const nodes, perNode = 5, 30
	sc, err := scenarios.Parse("storm.yaml", []byte(`apiVersion: kubeloom.dev/v1
kind: Scenario
metadata: {name: storm}
spec:
  duration: 2m30s
  eras: [classic, modern]
  controllerManager: {replicas: 1}
  kubelets: {count: 5}
  actions:
    - at: 10s
      create:
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web}
        spec:
          replicas: 150
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec:
              containers:
                - {name: web, image: "nginx:1.11"}
    - {at: 2m, restartAPIServer: {}}
`))
	if err != nil {
		t.Fatal(err)
	}
	podsAtEnd := map[scenarios.Era]int{}
	sum, spans := runScenario(t, sc, func(era scenarios.Era, c *cluster.Cluster) { podsAtEnd[era] = len(pods(t, c)) })
	if len(sum.Failures) > 0 {
		t.Fatalf("actions failed: %v", sum.Failures)
	}
	for _, era := range []scenarios.Era{scenarios.EraClassic, scenarios.EraModern} {
		t.Run(string(era), func(t *testing.T) {
			var mine []traces.Span
			for _, s := range spans {
				if s.Resource.String(catalog.AttrEra) == string(era) {
					mine = append(mine, s)
				}
			}
			instance := func(id string) string { return string(era) + "/" + id } // two eras: each instance is named by its era
			restart := on(mine, instance("scenario"), "action/restartAPIServer")
			if len(restart) != 1 {
				t.Fatalf("%d action/restartAPIServer spans, want 1", len(restart))
			}
			at := restart[0].Start
			broken, _ := restart[0].Attributes.Int("watches.broken")
			resources, _ := restart[0].Attributes["k8s.resources"].([]string)
			for _, want := range []string{"pods", "nodes", "services", "replicasets", "deployments"} {
				if !slices.Contains(resources, want) {
					t.Errorf("k8s.resources = %v, want %s among them", resources, want)
				}
			}

			// Every broken watch of a reflector brings exactly one LIST and
			// one new watch, and none comes before the reflector's wait. The
			// two other watches are the scheduler stand-in's (scheduler/bind:
			// its pods and its nodes), which watch again at once, without a
			// LIST and without a span.
			var lists, watches []traces.Span
			for _, s := range mine {
				if s.Start.Before(at) || s.Attributes.String(catalog.AttrInformer) == "" {
					continue
				}
				switch {
				case strings.HasSuffix(s.Name, ".List"):
					lists = append(lists, s)
				case strings.HasSuffix(s.Name, ".Watch"):
					watches = append(watches, s)
				}
			}
			if reflectors := broken - 2; int64(len(lists)) != reflectors || int64(len(watches)) != reflectors {
				t.Errorf("%d watches broke; after them %d LISTs and %d new watches of reflectors, want %d of each", broken, len(lists), len(watches), reflectors)
			}
			first, last := at.Add(time.Hour), at
			for _, l := range lists {
				if l.Start.Before(first) {
					first = l.Start
				}
				if l.End.After(last) {
					last = l.End
				}
			}
			wait, spread := first.Sub(at), last.Sub(first)
			t.Logf("%d watches broke (%v); %d LISTs from +%v for %v", broken, resources, len(lists), wait, spread)
			switch era {
			case scenarios.EraClassic:
				if wait < time.Second || spread > 100*time.Millisecond {
					t.Errorf("the LISTs start %v after the restart and spread over %v; want all at its 1s period, within 100ms", wait, spread)
				}
			case scenarios.EraModern:
				if wait < 800*time.Millisecond || last.Sub(at) > 2*time.Second {
					t.Errorf("the LISTs run from +%v to +%v; want them within the backoff's first step (0.8s to 1.6s)", wait, last.Sub(at))
				}
			}

			// Who re-lists: the controller-manager's pod informer gets every
			// pod, and each kubelet's pod source the pods of its node.
			items := func(id string) []int64 {
				var out []int64
				for _, l := range lists {
					if l.Name == "pods.List" && l.Resource.String(catalog.AttrServiceInstanceID) == instance(id) {
						n, _ := l.Attributes.Int("k8s.list.items")
						out = append(out, n)
					}
				}
				return out
			}
			if got := items("cm-0"); !slices.Contains(got, int64(nodes*perNode)) {
				t.Errorf("cm-0's pod LISTs after the restart had %v items, want one with all %d pods", got, nodes*perNode)
			}
			for i := 1; i <= nodes; i++ {
				node := fmt.Sprintf("node-%d", i)
				if got := items(node); len(got) != 1 || got[0] != perNode {
					t.Errorf("%s's pod source re-listed %v items, want once its %d pods", node, got, perNode)
				}
			}
			if n := podsAtEnd[era]; n != nodes*perNode {
				t.Errorf("%d pods at the end, want the %d from before the restart", n, nodes*perNode)
			}
		})
	}
}
