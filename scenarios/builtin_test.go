package scenarios

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	corev1 "k8s.io/api/core/v1"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ (commit them only when you understand the change)")

func TestBuiltinsParse(t *testing.T) {
	sums := Builtins()
	if len(sums) < 2 {
		t.Fatalf("Builtins() = %v, want at least informer-basics and informer-eras", sums)
	}
	if !slices.IsSortedFunc(sums, func(a, b Summary) int { return strings.Compare(a.Name, b.Name) }) {
		t.Errorf("Builtins() is not sorted: %v", sums)
	}
	for _, sum := range sums {
		s, err := Builtin(sum.Name)
		if err != nil {
			t.Errorf("Builtin(%q): %v", sum.Name, err)
			continue
		}
		if s.Metadata.Name != sum.Name {
			t.Errorf("builtin/%s.yaml has metadata.name %q; the file name must be the scenario name", sum.Name, s.Metadata.Name)
		}
		if s.Source != "builtin:"+sum.Name {
			t.Errorf("Source = %q", s.Source)
		}
		if sum.Description == "" || strings.HasPrefix(sum.Description, "(invalid") {
			t.Errorf("%s: description %q", sum.Name, sum.Description)
		}
		// `kubeloom scenarios show` tells what to watch for, in both languages.
		m := s.Metadata
		if len(m.WatchFor) < 2 || m.ZH.Description == "" || len(m.ZH.WatchFor) != len(m.WatchFor) {
			t.Errorf("%s: %d watchFor items, zh.description %q, %d zh.watchFor items; want at least 2 items, the same number in both languages",
				sum.Name, len(m.WatchFor), m.ZH.Description, len(m.ZH.WatchFor))
		}
		for _, zh := range append([]string{m.ZH.Description}, m.ZH.WatchFor...) {
			if zh != "" && !hasHan(zh) {
				t.Errorf("%s: zh text without Chinese: %q", sum.Name, zh)
			}
		}
		src, ok := BuiltinSource(sum.Name)
		if !ok || !strings.Contains(string(src), "# ") {
			t.Errorf("%s: BuiltinSource should return the commented file", sum.Name)
		}
	}
}

// hasHan reports whether s has a Chinese character.
func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

func TestBuiltinUnknown(t *testing.T) {
	_, err := Builtin("nope")
	want := `unknown built-in scenario "nope"; the built-ins are cluster-basics, cluster-scale, cm-leader-failover, cm-startup, goroutine-leak, informer-basics, informer-eras, kubelet-pod-lifecycle, kubelet-startup, reflector-leak (kubeloom scenarios list describes them)`
	if err == nil || err.Error() != want {
		t.Errorf("Builtin(nope) error = %v\nwant %s", err, want)
	}
	for _, name := range []string{"", "../builtin/informer-basics", "builtin/informer-basics", "informer-basics.yaml"} {
		if _, ok := BuiltinSource(name); ok {
			t.Errorf("BuiltinSource(%q) found something", name)
		}
	}
}

// TestBuiltinGolden writes each built-in with Marshal (every default filled in) and compares
// it with testdata/NAME.golden.yaml; -update rewrites those. It then parses the output again
// and expects the same scenario: Marshal and Parse round-trip.
func TestBuiltinGolden(t *testing.T) {
	for _, sum := range Builtins() {
		t.Run(sum.Name, func(t *testing.T) {
			s, err := Builtin(sum.Name)
			if err != nil {
				t.Fatal(err)
			}
			out, err := Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", sum.Name+".golden.yaml")
			if *update {
				if err := os.WriteFile(golden, out, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if string(out) != string(want) {
				t.Errorf("Marshal(%s) differs from %s (go test -update rewrites it):\n%s", sum.Name, golden, out)
			}
			again, err := Parse(golden, out)
			if err != nil {
				t.Fatalf("Marshal output does not parse: %v", err)
			}
			if a, b := comparable(s), comparable(again); !reflect.DeepEqual(a, b) {
				t.Errorf("round trip changed the scenario:\nbefore %+v\nafter  %+v", a.Spec, b.Spec)
			}
		})
	}
}

// comparable returns a copy of s without positions and source, which a round trip changes.
func comparable(s *Scenario) Scenario {
	c := *s
	c.Source = ""
	if cm := s.Spec.ControllerManager; cm != nil {
		cp := *cm
		cp.FlagPos, cp.ControllerPos = nil, nil // positions differ between files
		c.Spec.ControllerManager = &cp
	}
	if k := s.Spec.Kubelets; k != nil {
		cp := *k
		cp.ManifestDirPos = Position{}
		c.Spec.Kubelets = &cp
	}
	c.Spec.Objects = slices.Clone(s.Spec.Objects)
	for i := range c.Spec.Objects {
		c.Spec.Objects[i].Pos = Position{}
	}
	c.Spec.Actions = slices.Clone(s.Spec.Actions)
	for i := range c.Spec.Actions {
		a := &c.Spec.Actions[i]
		a.Pos = Position{}
		switch v := a.Verb.(type) {
		case *Create:
			cp := *v
			cp.Object.Pos = Position{}
			a.Verb = &cp
		case *Update:
			cp := *v
			cp.Object.Pos = Position{}
			a.Verb = &cp
		}
	}
	return c
}

func TestInformerBasics(t *testing.T) {
	s, err := Builtin("informer-basics")
	if err != nil {
		t.Fatal(err)
	}
	sp := s.Spec
	if sp.Duration != 30*time.Second || sp.Speed != 10 || sp.Seed != 1 || sp.Era != EraClassic || len(sp.Eras) != 0 {
		t.Errorf("spec header: %v %v %v %v %v", sp.Duration, sp.Speed, sp.Seed, sp.Era, sp.Eras)
	}
	if sp.ControllerManager != nil || sp.Kubelets != nil {
		t.Error("informer-basics runs no components")
	}
	if len(sp.Informers) != 1 || sp.Informers[0].Name != "pods" || sp.Informers[0].Resource.Name != "pods" || sp.Informers[0].Handlers != 2 {
		t.Errorf("informers: %+v", sp.Informers)
	}
	var names []string
	for _, o := range sp.Objects {
		pod := o.Object.(*corev1.Pod)
		if pod.Namespace != "default" || pod.Labels["app"] != "web" || len(pod.Spec.Containers) != 1 ||
			pod.Spec.Containers[0].Name != "web" || pod.Spec.Containers[0].Image != "nginx:1.27" {
			t.Errorf("object %s: %+v", pod.Name, pod)
		}
		names = append(names, pod.Name)
	}
	if strings.Join(names, ",") != "web-0,web-1,web-2" {
		t.Errorf("objects: %v", names)
	}
	var acts []string
	for _, a := range sp.Actions {
		acts = append(acts, a.At.String()+" "+a.Verb.Name())
	}
	if got := strings.Join(acts, ", "); got != "5s create, 10s update, 15s delete, 20s breakWatches" {
		t.Errorf("actions: %s", got)
	}
	if p := sp.Actions[0].Verb.(*Create).Object.Object.(*corev1.Pod); p.Name != "web-3" {
		t.Errorf("create: %s", p.Name)
	}
	if p := sp.Actions[1].Verb.(*Update).Object.Object.(*corev1.Pod); p.Name != "web-1" || p.Labels["tier"] != "front" || p.Labels["app"] != "web" {
		t.Errorf("update: %s %v", p.Name, p.Labels)
	}
	if d := sp.Actions[2].Verb.(*Delete).Object; d.Key() != "default/web-2" || d.Resource.Name != "pods" {
		t.Errorf("delete: %+v", d)
	}
	if b := sp.Actions[3].Verb.(*BreakWatches); b.Resource.Name != "pods" {
		t.Errorf("breakWatches: %+v", b)
	}
}

// TestInformerEras checks that informer-eras is informer-basics run in both eras.
func TestInformerEras(t *testing.T) {
	basics, err := Builtin("informer-basics")
	if err != nil {
		t.Fatal(err)
	}
	eras, err := Builtin("informer-eras")
	if err != nil {
		t.Fatal(err)
	}
	if got := eras.Spec.RunEras(); !slices.Equal(got, []Era{EraClassic, EraModern}) {
		t.Errorf("RunEras() = %v", got)
	}
	a, b := comparable(basics), comparable(eras)
	b.Metadata, b.Spec.Eras, b.Spec.Era = a.Metadata, nil, a.Spec.Era
	if !reflect.DeepEqual(a, b) {
		t.Errorf("informer-eras should run the informer, objects and actions of informer-basics")
	}
}

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mine.yaml")
	src, _ := BuiltinSource("informer-basics")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Resolve(file)
	if err != nil || s.Source != file {
		t.Errorf("Resolve(file) = %v, %v", s, err)
	}
	s, err = Resolve("informer-eras")
	if err != nil || s.Source != "builtin:informer-eras" {
		t.Errorf("Resolve(builtin) = %v, %v", s, err)
	}
	_, err = Resolve("missing.yaml")
	if err == nil || !strings.HasPrefix(err.Error(), "failed to read scenario file: open missing.yaml") {
		t.Errorf("Resolve(missing.yaml) error = %v", err)
	}
	_, err = Resolve("informer-basix")
	want := `unknown scenario "informer-basix": no such file, and no built-in of that name; the built-ins are cluster-basics, cluster-scale, cm-leader-failover, cm-startup, goroutine-leak, informer-basics, informer-eras, kubelet-pod-lifecycle, kubelet-startup, reflector-leak (kubeloom scenarios list describes them)`
	if err == nil || err.Error() != want {
		t.Errorf("Resolve(informer-basix) error = %v", err)
	}
	// A file in the working directory without an extension is still a file.
	t.Chdir(dir)
	if err := os.WriteFile("plain", src, 0o644); err != nil {
		t.Fatal(err)
	}
	if s, err := Resolve("plain"); err != nil || s.Source != "plain" {
		t.Errorf("Resolve(plain) = %v, %v", s, err)
	}
}

// TestMarshalRoundTrip covers what the built-ins do not use: components, every verb, eras,
// qualified resource names and values YAML would misread unquoted.
func TestMarshalRoundTrip(t *testing.T) {
	src := specWith(
		"speed: 0.5",
		"seed: -7",
		"eras: [modern, classic]",
		`apiServer: {runtimeConfig: {"batch/v2alpha1": true, "certificates.k8s.io/v1alpha1": false}}`,
		`controllerManager: {replicas: 3, leaderElect: true, controllers: ["*", "-ttl"], flags: {"--concurrent-endpoint-syncs": 5, "--node-monitor-grace-period": "40s", "--x": "true"}}`,
		"kubelets: {count: 2, manifestDir: manifests/, manifestURL: true}",
		"informers:",
		"  - {resource: events.events.k8s.io, namespace: kube-system, handlers: 3, resync: 1m}",
		"  - {name: all-nodes, resource: nodes}",
		"objects:",
		"  - {apiVersion: v1, kind: Namespace, metadata: {name: kube-system}}",
		"  - {apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: kube-system}, data: {a: \"1\", b: \"true\", c: \"\"}}",
		"actions:",
		"  - {at: 1s, killLeader: {}}",
		"  - {at: 2s, stopKubelet: {node: node-2}}",
		"  - {at: 3s, setImageFSUsage: {node: node-1, percent: 95}}",
		"  - {at: 3s, takePort: {node: node-2, server: readonly, for: 1m30s}}",
		"  - {at: 3s, takePort: {node: node-2}}",
		"  - {at: 3s, injectOOM: {node: node-1}}",
		"  - {at: 3s, injectOOM: {node: node-1, pod: web-0}}",
		"  - {at: 3s, injectOOM: {node: node-2, pod: kube-system/etcd-node-2, container: etcd}}",
		"  - {at: 3s, startKubelet: {node: node-2}}",
		"  - {at: 4s, addHandler: {informer: all-nodes}}",
		"  - {at: 5s, breakWatches: {resource: events.events.k8s.io}}",
		"  - {at: 6s, delete: {apiVersion: v1, kind: Node, name: node-2}}",
		"  - {at: 7s, update: {apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: kube-system}, data: {a: \"2\"}}}",
		"  - {at: 30s, create: {apiVersion: batch/v1, kind: Job, metadata: {name: j}, spec: {template: {spec: {restartPolicy: Never, containers: [{name: j, image: busybox}]}}}}}",
	)
	s, err := Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Parse("marshal.yaml", out)
	if err != nil {
		t.Fatalf("Marshal output does not parse: %v\n%s", err, out)
	}
	if a, b := comparable(s), comparable(again); !reflect.DeepEqual(a, b) {
		t.Errorf("round trip changed the scenario:\n%s", out)
	}
	if got := again.Spec.Informers[0]; got.Name != "events.events.k8s.io" || got.Resource.GVR.Group != "events.k8s.io" {
		t.Errorf("qualified resource lost: %+v", got)
	}
	if got := again.Spec.ControllerManager.Flags["--concurrent-endpoint-syncs"]; got != "5" {
		t.Errorf("flag value = %q", got)
	}
	if got := again.Spec.APIServer.RuntimeConfig; len(got) != 2 || !got["batch/v2alpha1"] || got["certificates.k8s.io/v1alpha1"] {
		t.Errorf("runtimeConfig = %v", got)
	}
	// Defaults are written out: the pod's namespace, the server and the holding time.
	for _, want := range []string{"pod: default/web-0\n", "server: healthz\n", "for: 0s\n", "for: 1m30s\n", "container: etcd\n"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("Marshal output lacks %q:\n%s", want, out)
		}
	}
	if p := s.Spec.ControllerManager.FlagPos["--x"]; p.Line == 0 {
		t.Errorf("flag --x has no position")
	}
}
