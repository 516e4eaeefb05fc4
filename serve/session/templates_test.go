package session

import (
	"slices"
	"testing"

	"github.com/kubeloom/kubeloom/scenarios"
)

// Every built-in offers the actions its components allow, and only those:
// each template is accepted by the loader against the scenario.
func TestTemplates(t *testing.T) {
	verbs := func(name string) []string {
		sc, err := scenarios.Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		var vs []string
		for _, tp := range templates(sc) {
			if _, err := scenarios.ParseAction("template", []byte(tp.YAML), &sc.Spec, 0); err != nil {
				t.Errorf("%s: the template %q is refused: %v", name, tp.YAML, err)
			}
			if !slices.Contains(vs, tp.Verb) {
				vs = append(vs, tp.Verb)
			}
		}
		return vs
	}
	for name, want := range map[string][]string{
		"cm-leader-failover": {"killLeader", "blockLeaderLock", "breakWatches", "restartAPIServer", "create", "delete"},
		"informer-basics":    {"breakWatches", "restartAPIServer", "addHandler", "create", "delete"},
		"kubelet-startup":    {"breakWatches", "restartAPIServer", "stopKubelet", "startKubelet", "injectOOM", "setImageFSUsage", "create", "delete"},
	} {
		if got := verbs(name); !slices.Equal(got, want) {
			t.Errorf("%s offers %v, want %v", name, got, want)
		}
	}
	for _, b := range scenarios.Builtins() {
		if len(verbs(b.Name)) == 0 {
			t.Errorf("%s offers no action", b.Name)
		}
	}
}
