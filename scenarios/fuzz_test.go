package scenarios

import (
	"slices"
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
	f.Fuzz(func(t *testing.T, data []byte) {
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
		n := 0
		for _, set := range []bool{a.Create != nil, a.Update != nil, a.Delete != nil, a.BreakWatches != nil, a.RestartAPIServer != nil, a.AddHandler != nil,
			a.HangHandler != nil, a.KillLeader != nil, a.StopKubelet != nil, a.StartKubelet != nil, a.SetImageFSUsage != nil, a.InjectOOM != nil, a.TakePort != nil} {
			if set {
				n++
			}
		}
		if n != 1 || a.Verb() == "" {
			t.Fatalf("action %d has %d verbs", i, n)
		}
		switch {
		case a.AddHandler != nil && !informers[a.AddHandler.Informer]:
			t.Fatalf("addHandler to unknown informer %q", a.AddHandler.Informer)
		case a.HangHandler != nil && (!informers[a.HangHandler.Informer] || a.HangHandler.Handler < 1):
			t.Fatalf("hangHandler of unknown informer or handler %+v", a.HangHandler)
		case a.KillLeader != nil && (sp.ControllerManager == nil || !sp.ControllerManager.LeaderElect):
			t.Fatal("killLeader without a leader")
		case a.StopKubelet != nil && (sp.Kubelets == nil || !validNode(a.StopKubelet.Node, sp.Kubelets.Count)):
			t.Fatalf("stopKubelet of %q", a.StopKubelet.Node)
		case a.SetImageFSUsage != nil && (sp.Kubelets == nil || !validNode(a.SetImageFSUsage.Node, sp.Kubelets.Count) ||
			a.SetImageFSUsage.Percent < 0 || a.SetImageFSUsage.Percent > 100):
			t.Fatalf("bad setImageFSUsage %+v", a.SetImageFSUsage)
		case a.kubeletVerb() && (sp.Kubelets == nil || !validNode(a.kubeletNode(), sp.Kubelets.Count)):
			t.Fatalf("%s of %q", a.Verb(), a.kubeletNode())
		case a.InjectOOM != nil && ((a.InjectOOM.Pod == "") != (a.InjectOOM.Namespace == "") || (a.InjectOOM.Pod == "" && a.InjectOOM.Container != "")):
			t.Fatalf("bad injectOOM %+v", a.InjectOOM)
		case a.TakePort != nil && (!slices.Contains(kubeletServers, a.TakePort.Server) || a.TakePort.For < 0):
			t.Fatalf("bad takePort %+v", a.TakePort)
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
