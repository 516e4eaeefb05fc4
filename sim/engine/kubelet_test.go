package engine

import (
	"context"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/cluster"
	"github.com/kubeloom/kubeloom/traces"
)

// on returns the spans of one instance named name, by start time.
func on(spans []traces.Span, instance, name string) []traces.Span {
	var out []traces.Span
	for _, s := range spans {
		if s.Name == name && s.Resource.String(catalog.AttrServiceInstanceID) == instance {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start.Before(out[j].Start) })
	return out
}

// lifetimes returns the catalog names of the goroutines an instance ran.
func lifetimes(spans []traces.Span, instance string) map[string]int {
	out := map[string]int{}
	for _, s := range spans {
		if g := s.Attributes.String(catalog.AttrGoroutineName); g == s.Name && s.Resource.String(catalog.AttrServiceInstanceID) == instance {
			out[g]++
		}
	}
	return out
}

// classicOnly and modernOnly are the kubelet goroutines of one era alone
// (goroutine catalog §6).
func classicOnly() []string {
	return []string{"kubelet/network-status", "kubelet/pod-killer", "kubelet/kill-pod"}
}

func modernOnly() []string { return []string{"kubelet/image-cache"} }

func pods(t *testing.T, c *cluster.Cluster) map[string]corev1.Pod {
	t.Helper()
	list, err := c.Client.CoreV1().Pods("").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]corev1.Pod{}
	for _, p := range list.Items {
		out[p.Name] = p
	}
	return out
}

func TestKubeletStartup(t *testing.T) {
	var got map[string]corev1.Pod
	var events []corev1.Event
	sum, spans := runScenario(t, builtin(t, "kubelet-startup"), func(_ scenarios.Era, c *cluster.Cluster) {
		got = pods(t, c)
		list, _ := c.Client.CoreV1().Events("").List(context.Background(), metav1.ListOptions{})
		events = list.Items
	})
	if sum.Duration != 10*time.Minute {
		t.Errorf("ran %s, want 10m", sum.Duration)
	}
	// Every kubelet goroutine the article names runs (the classic era's set).
	ran := lifetimes(spans, "node-1")
	for _, e := range catalog.All() {
		if e.Component != "kubelet" || e.Article == "" || slices.Contains(modernOnly(), e.Name) {
			continue
		}
		if ran[e.Name] == 0 {
			t.Errorf("%s did not run", e.Name)
		}
	}
	if ran["kubelet/image-cache"] != 0 {
		t.Errorf("kubelet/image-cache ran in the classic era (v1.3 has no image cache loop)")
	}
	if n := ran["kubelet/config-mux"]; n != 3 {
		t.Errorf("%d config-mux goroutines, want one per source (file, http, api)", n)
	}
	if n := ran["kubelet/pod-worker"]; n != 4 {
		t.Errorf("%d pod workers, want 4 (static-web, url-cache, api-web, api-worker)", n)
	}

	// The four pods run, and the status manager says so in the apiserver;
	// the static pods through their mirror pods.
	for _, name := range []string{"api-web", "api-worker", "static-web-node-1", "url-cache-node-1"} {
		p, ok := got[name]
		if !ok {
			t.Errorf("pod %s is not in the apiserver", name)
			continue
		}
		if p.Status.Phase != corev1.PodRunning || p.Status.PodIP == "" {
			t.Errorf("pod %s: phase %q, IP %q; want Running with an IP", name, p.Status.Phase, p.Status.PodIP)
		}
	}
	if m := got["static-web-node-1"]; m.Annotations["kubernetes.io/config.mirror"] == "" {
		t.Errorf("static-web-node-1 is not a mirror pod: %v", m.Annotations)
	}

	// Image GC runs as wait.Until does: at once (nothing to free), then
	// every 5m; the 5m run, after usage was raised to 95% at 4m, frees
	// images down to at most 80%.
	gc := on(spans, "node-1", "Images/GarbageCollect")
	// (The run at 10m falls on the scenario's last instant: it may or may
	// not run before the end.)
	if len(gc) < 2 || len(gc) > 3 {
		t.Fatalf("%d image GC runs, want those at 0 and 5m (and maybe 10m)", len(gc))
	}
	start := gc[0].Start
	for i, s := range gc {
		if at := s.Start.Sub(start); at != time.Duration(i)*5*time.Minute {
			t.Errorf("image GC run %d at +%s, want +%s", i+1, at, time.Duration(i)*5*time.Minute)
		}
	}
	if _, ok := gc[0].Attributes["kubelet.imagefs.bytes_to_free"]; ok {
		t.Errorf("the first image GC had something to free: %v", gc[0].Attributes)
	}
	if u, _ := gc[1].Attributes.Int("kubelet.imagefs.usage_percent"); u < 90 {
		t.Errorf("usage at the 5m image GC = %d%%, want ≥ 90%% (set to 95%% at 4m)", u)
	}
	if after, ok := gc[1].Attributes.Int("kubelet.imagefs.usage_percent_after"); !ok || after > 80 || gc[1].StatusCode == "Error" {
		t.Errorf("usage after the 5m image GC = %d%% (status %s), want ≤ 80%%", after, gc[1].StatusCode)
	}
	if removed := len(on(spans, "node-1", "RemoveImage")); removed == 0 {
		t.Error("the image GC removed no image")
	}

	// Node status is written every 10s, ± one tick.
	writes := on(spans, "node-1", "nodes.UpdateStatus")
	if len(writes) < 55 {
		t.Fatalf("%d node status writes in 10m, want about 60", len(writes))
	}
	for i := 1; i < len(writes); i++ {
		if gap := writes[i].Start.Sub(writes[i-1].Start); gap < 9*time.Second || gap > 11*time.Second {
			t.Errorf("node status writes %d and %d are %s apart, want 10s ± 1s", i, i+1, gap)
		}
	}

	// The system OOM at 90s is a SystemOOM event on the node.
	found := false
	for _, e := range events {
		if e.Reason == "SystemOOM" && e.InvolvedObject.Kind == "Node" && e.Source.Host == "node-1" {
			found = true
		}
	}
	if !found {
		t.Error("no SystemOOM event for node-1")
	}
}

func TestKubeletStartupModern(t *testing.T) {
	sc := builtin(t, "kubelet-startup")
	sc.Spec.Era = scenarios.EraModern
	sc.Spec.Duration = 2 * time.Minute
	sc.Spec.Actions = nil
	_, spans := runScenario(t, sc, nil)
	ran := lifetimes(spans, "node-1")
	for _, name := range classicOnly() {
		if ran[name] != 0 {
			t.Errorf("%s ran in the modern era (gone today)", name)
		}
	}
	if ran["kubelet/image-cache"] != 1 {
		t.Error("kubelet/image-cache did not run in the modern era")
	}
	// Since 1.5 the eviction manager starts after the runtime is up.
	ev := on(spans, "node-1", "kubelet/eviction")
	init := on(spans, "node-1", "initializeRuntimeDependentModules")
	if len(ev) != 1 || len(init) != 1 || ev[0].ParentSpanID != init[0].SpanID {
		t.Errorf("the eviction manager is not started by initializeRuntimeDependentModules")
	}
	if len(on(spans, "node-1", "nodes.PatchStatus")) == 0 || len(on(spans, "node-1", "nodes.UpdateStatus")) != 0 {
		t.Error("the modern kubelet should PATCH its node status")
	}
}

func TestKubeletPodLifecycle(t *testing.T) {
	var got map[string]corev1.Pod
	_, spans := runScenario(t, builtin(t, "kubelet-pod-lifecycle"), func(_ scenarios.Era, c *cluster.Cluster) { got = pods(t, c) })

	// web reached Running through the status manager before it was deleted.
	running := false
	for _, s := range on(spans, "node-1", "syncPod") {
		if s.Attributes.String(catalog.AttrGoroutineName) == "kubelet/status-manager" && s.Attributes.String("k8s.pod.name") == "web" &&
			s.Attributes.String("k8s.pod.phase") == "Running" {
			running = true
		}
	}
	if !running {
		t.Error("the status manager never wrote web as Running")
	}
	if _, ok := got["web"]; ok {
		t.Error("web is still in the apiserver: the kubelet did not finish its deletion")
	}
	// The OOM kill and the crash loop show in crasher's and web's statuses.
	crasher := got["crasher"]
	if len(crasher.Status.ContainerStatuses) != 1 || crasher.Status.ContainerStatuses[0].RestartCount < 3 {
		t.Errorf("crasher's status = %+v, want several restarts", crasher.Status.ContainerStatuses)
	} else if last := crasher.Status.ContainerStatuses[0].LastTerminationState.Terminated; last == nil || last.ExitCode != 1 {
		t.Errorf("crasher's last termination = %+v, want exit code 1", last)
	}
	oomKilled := false
	for _, s := range on(spans, "node-1", "relist") {
		for _, e := range s.Events {
			if e.Name == "ContainerDied" && e.Attributes.String("container.name") == "web" && s.Start.Sub(spans[0].Start) < 3*time.Minute {
				oomKilled = true
			}
		}
	}
	if !oomKilled {
		t.Error("PLEG saw no ContainerDied for web before its deletion (the OOM kill at 2m)")
	}
	// The container GC keeps one dead container per pod and name, and
	// removes all of a deleted pod's.
	removed := map[string]int{}
	for _, s := range on(spans, "node-1", "Containers/GarbageCollect") {
		for _, e := range s.Events {
			if e.Name == "removed" {
				removed[e.Attributes.String("k8s.pod.name")]++
			}
		}
	}
	if removed["crasher"] == 0 || removed["web"] == 0 {
		t.Errorf("container GC removed %v, want dead containers of crasher and web", removed)
	}
}

func TestClusterBasics(t *testing.T) {
	var nodes []corev1.Node
	var got map[string]corev1.Pod
	_, spans := runScenario(t, builtin(t, "cluster-basics"), func(_ scenarios.Era, c *cluster.Cluster) {
		list, _ := c.Client.CoreV1().Nodes().List(context.Background(), metav1.ListOptions{})
		nodes = list.Items
		got = pods(t, c)
	})
	// Both nodes ran some of the Deployment's pods.
	ranOn := map[string]int{}
	for _, s := range spans {
		if s.Name == "syncPod" && s.Attributes.String(catalog.AttrGoroutineName) == "kubelet/status-manager" &&
			s.Attributes.String("k8s.pod.phase") == "Running" && strings.HasPrefix(s.Attributes.String("k8s.pod.name"), "web-") {
			ranOn[s.Resource.String(catalog.AttrServiceInstanceID)]++
		}
	}
	if ranOn["node-1"] == 0 || ranOn["node-2"] == 0 {
		t.Errorf("Running pods written per node: %v, want both nodes", ranOn)
	}
	// node-2 went NotReady 40–45s after its last status update (the
	// grace period, then the next 5s pass of the node monitor); its
	// kubelet stopped at 2m.
	stop := on(spans, "scenario", "action/stopKubelet")
	if len(stop) != 1 {
		t.Fatalf("%d stopKubelet actions", len(stop))
	}
	var lastStatus time.Time
	for _, s := range on(spans, "node-2", "syncNodeStatus") {
		if s.Start.Before(stop[0].Start) {
			lastStatus = s.Start
		}
	}
	for _, n := range nodes {
		for _, c := range n.Status.Conditions {
			if c.Type != corev1.NodeReady {
				continue
			}
			switch n.Name {
			case "node-1":
				if c.Status != corev1.ConditionTrue {
					t.Errorf("node-1 Ready = %s, want True", c.Status)
				}
			case "node-2":
				// (LastTransitionTime keeps whole seconds.)
				after := c.LastTransitionTime.Sub(lastStatus)
				if c.Status == corev1.ConditionTrue || after < 39*time.Second || after > 46*time.Second {
					t.Errorf("node-2 Ready = %s since %s after its last status, want not True from 40s to 45s after", c.Status, after)
				}
			}
		}
	}
	// Every goroutine of node-2's kubelet ended with it.
	for _, sp := range spans {
		if g := sp.Attributes.String(catalog.AttrGoroutineName); g == sp.Name && sp.Resource.String(catalog.AttrServiceInstanceID) == "node-2" &&
			sp.End.After(stop[0].End) {
			t.Errorf("%s of node-2 ended %s after the kubelet was stopped", g, sp.End.Sub(stop[0].End))
		}
	}
	// Its pods were evicted (2m later) and replaced on node-1.
	evicted, running := 0, 0
	for _, p := range got {
		if !strings.HasPrefix(p.Name, "web-") {
			continue
		}
		if p.Spec.NodeName == "node-2" && p.DeletionTimestamp != nil {
			evicted++
		}
		if p.Spec.NodeName == "node-1" && p.DeletionTimestamp == nil && p.Status.Phase == corev1.PodRunning {
			running++
		}
	}
	if evicted == 0 || running != 4 {
		t.Errorf("%d pods evicted from node-2, %d running on node-1; want some and 4", evicted, running)
	}
}

// A port taken while the kubelet is stopped makes its healthz server
// fail, and wait.Until retry it every 5s until the port is free again.
func TestTakePortRetriesHealthz(t *testing.T) {
	sc, err := scenarios.Parse("takeport.yaml", []byte(`apiVersion: kubeloom.dev/v1
kind: Scenario
metadata: {name: takeport}
spec:
  duration: 90s
  kubelets: {count: 1}
  actions:
    - {at: 20s, stopKubelet: {node: node-1}}
    - {at: 21s, takePort: {node: node-1, server: healthz, for: 20s}}
    - {at: 22s, startKubelet: {node: node-1}}
`))
	if err != nil {
		t.Fatal(err)
	}
	sum, spans := runScenario(t, sc, nil)
	var fails, serving []time.Duration
	t0 := spans[0].Start
	for _, s := range spans {
		if s.Name == "ListenAndServe" && s.Attributes.String(catalog.AttrGoroutineName) == "kubelet/healthz-server" {
			if s.StatusCode == "Error" {
				fails = append(fails, s.Start.Sub(t0))
			} else {
				serving = append(serving, s.Start.Sub(t0))
			}
		}
	}
	slices.Sort(fails)
	if len(fails) < 3 || len(serving) != 2 {
		t.Fatalf("healthz iterations failed at %v and served from %v; want retries every 5s, then serving", fails, serving)
	}
	for i := 1; i < len(fails); i++ {
		if d := fails[i] - fails[i-1]; d != 5*time.Second {
			t.Errorf("retries %v are not 5s apart", fails)
		}
	}
	if ex := sum.Instances; len(ex) == 0 {
		t.Error("no instances in the summary")
	}
}

// TestKubeletInRealTime runs kubelet-startup in real time, fast, with the
// kubelet's servers on real loopback ports, until it has asked them; in real time
// the startup steps have distinct timestamps, so their order shows.
func TestKubeletInRealTime(t *testing.T) {
	sc := builtin(t, "kubelet-startup")
	ask := newAsker(3) // healthz, server, read-only
	spans := runAsking(t, sc, ask)
	got := ask.answers("")
	for _, srv := range []string{"healthz", "server", "readonly"} {
		if h := got["node-1 "+srv+" /healthz"]; h != "200 ok" {
			t.Errorf("%s /healthz = %q, want 200 ok", srv, h)
		}
	}
	if p := got["node-1 server /pods"]; !strings.HasPrefix(p, "200 ") || !strings.Contains(p, `"kind":"PodList"`) {
		t.Errorf("/pods = %.200q", p)
	}
	if s := got["node-1 readonly /stats/summary"]; !strings.HasPrefix(s, "200 ") || !strings.Contains(s, `"nodeName":"node-1"`) {
		t.Errorf("/stats/summary = %.200q", s)
	}
	// The startup steps, in the article's order (v1.3's server.go: the
	// healthz goroutine starts in run after RunKubelet returns).
	wantSteps := []string{"main", "InitLogs", "run", "RunKubelet", "NewBroadcaster", "CreateAndInitKubelet", "makePodSourceConfig",
		"NewSourceFile", "NewSourceURL", "NewSourceApiserver", "NewMainKubelet", "BirthCry", "StartGarbageCollection", "startKubelet",
		"kubelet/healthz-server"}
	// On kubelet/main-loop, started by startKubelet, concurrently with the
	// rest of run (as in Kubernetes):
	loop := []string{"startKubelet", "initializeModules", "syncLoop"}
	var first = map[string]traces.Span{}
	for _, s := range spans {
		if s.Resource.String(catalog.AttrServiceInstanceID) != "node-1" || !slices.Contains(wantSteps, s.Name) && !slices.Contains(loop, s.Name) {
			continue
		}
		if f, ok := first[s.Name]; !ok || s.Start.Before(f.Start) {
			first[s.Name] = s
		}
	}
	order := slices.Clone(wantSteps)
	sort.SliceStable(order, func(i, j int) bool { return first[order[i]].Start.Before(first[order[j]].Start) })
	if !slices.Equal(order, wantSteps) {
		t.Errorf("startup steps\n got %v\nwant %v", order, wantSteps)
	}
	order = slices.Clone(loop)
	sort.SliceStable(order, func(i, j int) bool { return first[order[i]].Start.Before(first[order[j]].Start) })
	if !slices.Equal(order, loop) {
		t.Errorf("main-loop steps\n got %v\nwant %v", order, loop)
	}
}

// A restarted kubelet finds its pods' containers still running (the
// runtime outlives it) and adopts them: nothing is killed or restarted,
// and the pods keep their IPs.
func TestKubeletRestartKeepsPods(t *testing.T) {
	sc := builtin(t, "kubelet-startup")
	sc.Spec.Duration = 2 * time.Minute
	sc.Spec.Actions = nil
	extra, err := scenarios.Parse("restart.yaml", []byte(`apiVersion: kubeloom.dev/v1
kind: Scenario
metadata: {name: restart}
spec:
  duration: 2m
  kubelets: {count: 1}
  actions:
    - {at: 60s, stopKubelet: {node: node-1}}
    - {at: 70s, startKubelet: {node: node-1}}
`))
	if err != nil {
		t.Fatal(err)
	}
	sc.Spec.Actions = extra.Spec.Actions
	var after map[string]corev1.Pod
	_, spans := runScenario(t, sc, func(_ scenarios.Era, c *cluster.Cluster) { after = pods(t, c) })
	if n := len(on(spans, "node-1", "killPod")); n != 0 {
		t.Errorf("%d pods killed across the restart, want none", n)
	}
	if n := len(on(spans, "node-1", "main")); n != 2 {
		t.Errorf("%d kubelet processes, want 2", n)
	}
	for _, name := range []string{"api-web", "api-worker", "static-web-node-1", "url-cache-node-1"} {
		p := after[name]
		if p.Status.Phase != corev1.PodRunning || p.Status.PodIP == "" {
			t.Errorf("%s after the restart: phase %s, IP %q", name, p.Status.Phase, p.Status.PodIP)
		}
		for _, cs := range p.Status.ContainerStatuses {
			if cs.RestartCount != 0 {
				t.Errorf("%s/%s restarted %d times across the kubelet restart", name, cs.Name, cs.RestartCount)
			}
		}
	}
}

// TestKubeletRunOrder holds run and RunKubelet to the source's order
// (cmd/kubelet/app/server.go, v1.3, as in 1.5): run builds two clientsets,
// KubeClient and an EventClient with its own rate limit, then RunKubelet
// makes the recorder right after the broadcaster, before its two
// watchers. Steps on one goroutine end in the order they run, and the
// recording is in end order, so in virtual time, where they share an
// instant, the recording shows the order.
func TestKubeletRunOrder(t *testing.T) {
	sc := builtin(t, "kubelet-startup")
	sc.Spec.Duration = 10 * time.Second
	_, spans := runScenario(t, sc, nil)
	rk := on(spans, "node-1", "RunKubelet")
	if len(rk) != 1 {
		t.Fatalf("%d RunKubelet spans on node-1, want 1", len(rk))
	}
	children := func(parentID trace.SpanID) (names []string, clients []string) {
		for _, s := range spans {
			if s.ParentSpanID == parentID && s.Attributes.String(catalog.AttrGoroutineName) == "" {
				names = append(names, s.Name)
				if c := s.Attributes.String("kubeloom.client"); c != "" {
					clients = append(clients, c)
				}
			}
		}
		return names, clients
	}
	run, clients := children(rk[0].ParentSpanID) // run
	if want := []string{"UnsecuredKubeletConfig", "CreateAPIServerClientConfig", "NewForConfig", "NewForConfig", "RunKubelet"}; !slices.Equal(run, want) {
		t.Errorf("run's steps\n got %v\nwant %v", run, want)
	}
	if want := []string{"KubeClient", "EventClient"}; !slices.Equal(clients, want) {
		t.Errorf("run's clientsets = %v, want %v", clients, want)
	}
	runKubelet, _ := children(rk[0].SpanID)
	if want := []string{"NewBroadcaster", "NewRecorder", "StartLogging", "StartRecordingToSink", "CreateAndInitKubelet", "startKubelet"}; !slices.Equal(runKubelet, want) {
		t.Errorf("RunKubelet's steps\n got %v\nwant %v", runKubelet, want)
	}
}
