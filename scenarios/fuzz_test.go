package scenarios

import (
	"slices"
	"strings"
	"testing"
)

// FuzzParse feeds Parse arbitrary input, starting from the built-ins and some broken files.
// Parse must never panic, must return either a scenario or an error, and an accepted
// scenario must keep the invariants the simulator relies on.
func FuzzParse(f *testing.F) {
	for _, sum := range Builtins() {
		src, _ := BuiltinSource(sum.Name)
		f.Add(src)
	}
	f.Add([]byte(head + "spec: {duration: 1s, actions: [{at: 1s, killLeader: {}}], controllerManager: {}}\n"))
	f.Add([]byte(head + "spec: {duration: 1s, actions: [{at: 1s, restartAPIServer: {}}], kubelets: {count: 2}}\n"))
	f.Add([]byte(head + "spec: {duration: 1s, kubelets: {count: 2}, actions: [{at: 0, setImageFSUsage: {node: node-2, percent: 1}}]}\n"))
	f.Add([]byte(head + "spec: {duration: 1m, kubelets: {count: 2}, actions: [{at: 1s, stopKubelet: {node: node-2}}, {at: 2s, takePort: {node: node-2, server: readonly, for: 30s}}, {at: 40s, startKubelet: {node: node-2}}]}\n"))
	f.Add([]byte(head + "spec: {duration: 1m, kubelets: {}, actions: [{at: 1s, injectOOM: {node: node-1}}, {at: 2s, injectOOM: {node: node-1, pod: kube-system/web-0, container: web}}]}\n"))
	f.Add([]byte(head + "spec:\n  duration: 1s\n  objects:\n    - {apiVersion: apps/v1, kind: Deployment, metadata: {name: d}, spec: {replicas: 1}}\n"))
	f.Add([]byte("a: &x [*x]\n"))
	f.Add([]byte("--- |\n  text\n"))
	// The small forms of the files that made the parser run away before the limits (issue 30):
	// nested brackets, block levels, and many objects.
	f.Add(deepFlow(MaxDepth + 1))
	f.Add([]byte(head + "spec:\n  duration: 1s\n  x:\n" + strings.Repeat("- ", MaxDepth+1) + "1\n"))
	f.Add([]byte(head + "spec: {duration: 1s, x: " + strings.Repeat("{a: ", MaxDepth) + "1" + strings.Repeat("}", MaxDepth) + "}\n"))
	f.Add(manyObjects(20))
	f.Add([]byte("a: |\n  [[[[\nb: '[[\n  [[' # [[\nc: \"[\\\"[\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// When the parser will see data, its tree must be no deeper than scanDepth measured. A
		// disagreement shows within a few lines, and parsing every large input twice would halve
		// the executions, so only small inputs are parsed again.
		if _, _, bad := checkText(data); bad == "" && len(data) <= 2048 {
			if measured := maxDepth(data); measured <= MaxDepth {
				if d, ok := treeDepth(data); ok && d > measured {
					t.Fatalf("scanDepth measured %d levels, the parser built %d", measured, d)
				}
			}
		}
		s, err := Parse("fuzz.yaml", data)
		if (s == nil) == (err == nil) {
			t.Fatalf("Parse returned scenario %v and error %v", s != nil, err)
		}
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		checkInvariants(t, s)
	})
}

func checkInvariants(t *testing.T, s *Scenario) {
	t.Helper()
	sp := &s.Spec
	if sp.Duration <= 0 || sp.Duration > MaxDuration {
		t.Fatalf("accepted duration %v", sp.Duration)
	}
	if !(sp.Speed > 0 && sp.Speed <= MaxSpeed) {
		t.Fatalf("accepted speed %v", sp.Speed)
	}
	eras := sp.RunEras()
	if len(eras) == 0 || (len(sp.Eras) > 0) == (sp.Era != "") {
		t.Fatalf("era %q and eras %v", sp.Era, sp.Eras)
	}
	seen := map[Era]bool{}
	for _, e := range eras {
		if (e != EraClassic && e != EraModern) || seen[e] {
			t.Fatalf("bad eras %v", eras)
		}
		seen[e] = true
	}
	if s.Metadata.Name == "" {
		t.Fatal("accepted an empty name")
	}
	informers := map[string]bool{}
	for _, inf := range sp.Informers {
		if inf.Name == "" || informers[inf.Name] || inf.Handlers < 1 || inf.Resync < 0 || inf.Resource.Name == "" {
			t.Fatalf("bad informer %+v", inf)
		}
		informers[inf.Name] = true
	}
	for _, o := range sp.Objects {
		if o.Object == nil || o.Resource.Name == "" || o.Ref().Name == "" || (o.Resource.Namespaced != (o.Ref().Namespace != "")) {
			t.Fatalf("bad object %+v", o)
		}
	}
	for i, a := range sp.Actions {
		if a.At < 0 || a.At > sp.Duration {
			t.Fatalf("action %d at %v, duration %v", i, a.At, sp.Duration)
		}
		if i > 0 && a.At < sp.Actions[i-1].At {
			t.Fatalf("actions not sorted: %v before %v", sp.Actions[i-1].At, a.At)
		}
		if a.Verb == nil || a.Verb.Name() == "" {
			t.Fatalf("action %d has no verb", i)
		}
		kubelet := func(node string) bool { return sp.Kubelets != nil && validNode(node, sp.Kubelets.Count) }
		switch v := a.Verb.(type) {
		case *AddHandler:
			if !informers[v.Informer] {
				t.Fatalf("addHandler to unknown informer %q", v.Informer)
			}
		case *HangHandler:
			if !informers[v.Informer] || v.Handler < 1 {
				t.Fatalf("hangHandler of unknown informer or handler %+v", v)
			}
		case *KillLeader:
			if sp.ControllerManager == nil || !sp.ControllerManager.LeaderElect {
				t.Fatal("killLeader without a leader")
			}
		case *StopKubelet:
			if !kubelet(v.Node) {
				t.Fatalf("stopKubelet of %q", v.Node)
			}
		case *StartKubelet:
			if !kubelet(v.Node) {
				t.Fatalf("startKubelet of %q", v.Node)
			}
		case *SetImageFSUsage:
			if !kubelet(v.Node) || v.Percent < 0 || v.Percent > 100 {
				t.Fatalf("bad setImageFSUsage %+v", v)
			}
		case *InjectOOM:
			if !kubelet(v.Node) || (v.Pod == "") != (v.Namespace == "") || (v.Pod == "" && v.Container != "") {
				t.Fatalf("bad injectOOM %+v", v)
			}
		case *TakePort:
			if !kubelet(v.Node) || !slices.Contains(kubeletServers, v.Server) || v.For < 0 {
				t.Fatalf("bad takePort %+v", v)
			}
		}
	}
	// What was accepted can be written out and read back.
	out, err := Marshal(s)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	if _, err := Parse("marshal.yaml", out); err != nil {
		t.Fatalf("Marshal output does not parse: %v\n%s", err, out)
	}
}
