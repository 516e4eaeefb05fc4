package engine

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeloom/kubeloom/internal/memnet"
	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/cluster"
	"github.com/kubeloom/kubeloom/sim/controllermanager"
	"github.com/kubeloom/kubeloom/traces"
)

// runScenario runs a scenario inside a synctest bubble, the controller-manager
// replicas' HTTP servers on an in-memory network, reads the recording back
// and checks that no goroutine was left; inspect, if set, sees each era's
// cluster at the end.
func runScenario(t *testing.T, sc *scenarios.Scenario, inspect func(era scenarios.Era, c *cluster.Cluster)) (*Summary, []traces.Span) {
	t.Helper()
	var rec bytes.Buffer
	var sum *Summary
	synctest.Test(t, func(t *testing.T) {
		var err error
		net := memnet.New()
		sum, err = Run(context.Background(), Options{Scenario: sc, Recording: &rec, Listen: net.Listen, Dial: net.Dial, inspect: inspect})
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	})
	spans, err := traces.Read(&rec, sc.Metadata.Name+".jsonl")
	if err != nil {
		t.Fatalf("reading the recording: %v", err)
	}
	if int64(len(spans)) != sum.Spans {
		t.Errorf("summary says %d spans, the recording has %d", sum.Spans, len(spans))
	}
	if len(sum.Leftovers) != 0 {
		t.Errorf("leftover goroutines: %v", sum.Leftovers)
	}
	checkStartupStories(t, spans)
	return sum, spans
}

func builtin(t *testing.T, name string) *scenarios.Scenario {
	t.Helper()
	sc, err := scenarios.Builtin(name)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// articleOrder is the controllers of v1.5's StartControllers, as each era
// names them: the article's list, but with the HorizontalController in
// release-1.5's autoscaling/v1 block after the ReplicaSetController.
func articleOrder(era string) []string {
	order := []string{"EndpointController", "ReplicationManager", "PodGCController", "NodeController", "ServiceController", "RouteController",
		"ResourceQuotaController", "NamespaceController", "DaemonSetsController", "JobController",
		"DeploymentController", "ReplicaSetController", "HorizontalController", "DisruptionController", "PetSetController", "ScheduledJobController",
		"PersistentVolumeController", "AttachDetachController", "CertificateController", "ServiceAccountsController", "GarbageCollector"}
	if era == "modern" {
		order[slices.Index(order, "PetSetController")] = "StatefulSetController"
		order[slices.Index(order, "ScheduledJobController")] = "CronJobController"
	}
	return order
}

// startSpans returns the controller start spans in the order they started.
func startSpans(spans []traces.Span) []traces.Span {
	var out []traces.Span
	for _, s := range spans {
		if strings.HasPrefix(s.Name, "start ") && s.Attributes.String(controllermanager.AttrControllerID) != "" {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start.Before(out[j].Start) })
	return out
}

func TestCMStartupClassic(t *testing.T) {
	testCMStartup(t, scenarios.EraClassic)
}

func TestCMStartupModern(t *testing.T) {
	testCMStartup(t, scenarios.EraModern)
}

func testCMStartup(t *testing.T, era scenarios.Era) {
	sc := builtin(t, "cm-startup")
	sc.Spec.Era = era
	if era == scenarios.EraModern {
		sc.Spec.APIServer = nil // CronJob is GA today
	}
	var pods []corev1.Pod
	var scratchErr error
	var sas []string
	sum, spans := runScenario(t, sc, func(_ scenarios.Era, c *cluster.Cluster) {
		ctx := context.Background()
		list, err := c.Client.CoreV1().Pods("default").List(ctx, metav1.ListOptions{LabelSelector: "app=web"})
		if err != nil {
			t.Error(err)
			return
		}
		pods = list.Items
		_, scratchErr = c.Client.CoreV1().Namespaces().Get(ctx, "scratch", metav1.GetOptions{})
		all, _ := c.Client.CoreV1().ServiceAccounts("").List(ctx, metav1.ListOptions{})
		for _, sa := range all.Items {
			sas = append(sas, sa.Namespace+"/"+sa.Name)
		}
	})
	if len(sum.Instances) != 2 || sum.Instances[1].ID != "cm-0" || sum.Instances[1].Exit != "" {
		t.Errorf("instances = %+v, want the scenario driver and cm-0, running to the end", sum.Instances)
	}

	// The 21 controllers start in the article's order, as the era names them.
	var order []string
	started := map[string]bool{}
	for _, s := range startSpans(spans) {
		name := s.Attributes.String(controllermanager.AttrControllerName)
		order = append(order, name)
		ok, _ := s.Attributes[controllermanager.AttrControllerStarted].(bool)
		started[s.Attributes.String(controllermanager.AttrControllerID)] = ok
		if !ok && len(s.Events) == 0 {
			t.Errorf("%s did not start and says not why", name)
		}
	}
	if want := articleOrder(string(era)); !slices.Equal(order, want) {
		t.Errorf("controller start order\n got %v\nwant %v", order, want)
	}
	for id, want := range map[string]bool{"service": false, "route": false, "cronjob": true, "certificatesigningrequests": true, "garbagecollector": true} {
		if started[id] != want {
			t.Errorf("controller %s started = %v, want %v", id, started[id], want)
		}
	}

	// Every goroutine the catalog gives the process, the informer machinery
	// and the started controllers is there.
	have := map[string]bool{}
	for _, n := range goroutineNames(spans) {
		have[n] = true
	}
	var missing []string
	for _, e := range catalog.All() {
		id, ok := controllerOf(e.Name)
		switch {
		case e.Name == "controller/endpoint/check-leftover", e.Name == "controller/podgc/delete-pod":
			continue // one-shot after 5m / only with terminated pods over the threshold; tested beside
		case era == scenarios.EraModern && (e.Name == "cm/glog-flush-daemon" || e.Name == "cm/leader-poll-ticker" || e.Name == "controller/garbagecollector/monitor-sync-poller"):
			continue // glog's init and v1.5's wait.Poll pollers: klog and today's waits start none
		case strings.HasPrefix(e.Name, "cm/"), e.Component == "informer":
		case ok && started[id]:
		default:
			continue
		}
		if !have[e.Name] {
			missing = append(missing, e.Name)
		}
	}
	if len(missing) > 0 {
		t.Errorf("goroutines missing from the recording: %v", missing)
	}

	// What the controllers did, in the fake apiserver.
	active := 0
	for _, p := range pods {
		if p.DeletionTimestamp == nil {
			active++
		}
	}
	if active != 3 {
		t.Errorf("the Deployment's pods = %d, want 3", active)
	}
	if !apierrors.IsNotFound(scratchErr) {
		t.Errorf("namespace scratch after its deletion: %v, want it gone", scratchErr)
	}
	for _, want := range []string{"default/default", "kube-system/default", "kube-public/default"} {
		if !slices.Contains(sas, want) {
			t.Errorf("service account %s is missing (have %v)", want, sas)
		}
	}
}

// byStart returns the first span of each name, the names ordered by when
// those spans started (the process's own steps: the controller-manager
// pipeline's NewBroadcaster and StartRecordingToSink).
func byStart(spans []traces.Span, names []string) []string {
	first := map[string]traces.Span{}
	for _, s := range spans {
		if !slices.Contains(names, s.Name) || s.Resource.String(catalog.AttrServiceInstanceID) != "cm-0" {
			continue
		}
		if c := s.Attributes.String("event.component"); c != "" && c != "controller-manager" {
			continue
		}
		if f, ok := first[s.Name]; !ok || s.Start.Before(f.Start) {
			first[s.Name] = s
		}
	}
	var out []string
	for n := range first {
		out = append(out, n)
	}
	sort.SliceStable(out, func(i, j int) bool { return first[out[i]].Start.Before(first[out[j]].Start) })
	return out
}

// controllerOf returns the --controllers ID of a controller/<id>/… name.
func controllerOf(name string) (string, bool) {
	rest, ok := strings.CutPrefix(name, "controller/")
	if !ok {
		return "", false
	}
	id, _, _ := strings.Cut(rest, "/")
	return id, true
}

// leadership is when each replica led, from the "became leader" events and
// the end of its leader-renew lane.
type term struct {
	replica    string
	start, end time.Time
}

func leaderTerms(spans []traces.Span, prefix string) []term {
	var terms []term
	renewEnd := map[string]time.Time{}
	for _, s := range spans {
		id := s.Resource.String(catalog.AttrServiceInstanceID)
		if !strings.HasPrefix(id, prefix) {
			continue
		}
		if s.Name == "cm/leader-renew" {
			renewEnd[id] = s.End
		}
	}
	for _, s := range spans {
		id := s.Resource.String(catalog.AttrServiceInstanceID)
		if !strings.HasPrefix(id, prefix) || s.Name != "RunOrDie" {
			continue
		}
		for _, e := range s.Events {
			if e.Name == "became leader" {
				terms = append(terms, term{replica: id, start: e.Time, end: renewEnd[id]})
			}
		}
	}
	sort.Slice(terms, func(i, j int) bool { return terms[i].start.Before(terms[j].start) })
	return terms
}

func TestCMLeaderFailover(t *testing.T) {
	sc := builtin(t, "cm-leader-failover")
	sum, spans := runScenario(t, sc, nil)
	kill := sc.Spec.Actions[0].At
	var origin time.Time
	for _, s := range spans {
		if strings.HasPrefix(s.Name, "scenario ") && (origin.IsZero() || s.Start.Before(origin)) {
			origin = s.Start
		}
	}
	for _, era := range sc.Spec.RunEras() {
		t.Run(string(era), func(t *testing.T) {
			terms := leaderTerms(spans, string(era)+"/cm-")
			if len(terms) != 3 {
				t.Fatalf("leadership terms = %+v, want 3 (the first leader, its successor, and the last standby once blockLeaderLock cost the successor its lease)", terms)
			}
			first, second, third := terms[0], terms[1], terms[2]
			// The successor lost its lease to blockLeaderLock: within
			// RenewDeadline (10s) and one RetryPeriod of the block, and the
			// last replica took over once the lease expired.
			blockedAt := origin.Add(sc.Spec.Actions[1].At)
			if d := second.end.Sub(blockedAt); d < 0 || d > 12*time.Second {
				t.Errorf("%s's renewals ended %s after the block, want within RenewDeadline + RetryPeriod", second.replica, d)
			}
			if third.replica == first.replica || third.replica == second.replica || third.start.Before(second.end) {
				t.Errorf("after the block, %s led from %s; want the third replica, after %s stopped at %s", third.replica, third.start, second.replica, second.end)
			}
			for _, is := range sum.Instances {
				if is.ID == second.replica && is.Exit != "leaderelection lost" {
					t.Errorf("%s exit = %q, want leaderelection lost", second.replica, is.Exit)
				}
			}
			if first.replica == second.replica {
				t.Errorf("the same replica led twice: %+v", terms)
			}
			// Exactly one leader at any moment: the terms do not overlap.
			if second.start.Before(first.end) {
				t.Errorf("%s led from %s while %s led until %s", second.replica, second.start, first.replica, first.end)
			}
			// The old leader stopped at the kill; the new one took over after
			// the lease expired, within LeaseDuration + a few RetryPeriods.
			killedAt := origin.Add(kill)
			if d := first.end.Sub(killedAt); d < 0 || d > time.Second {
				t.Errorf("the old leader's renewals ended %s after the kill, want at the kill", d)
			}
			takeover := second.start.Sub(killedAt)
			if takeover < 5*time.Second || takeover > 15*time.Second+3*2200*time.Millisecond {
				t.Errorf("takeover %s after the kill, want within LeaseDuration (15s) + 3 × RetryPeriod × 1.1", takeover)
			}
			// The killed replica's controllers stopped; the new leader's started.
			for _, is := range sum.Instances {
				if is.ID == first.replica && !strings.Contains(is.Exit, "killed") {
					t.Errorf("%s exit = %q, want killed", first.replica, is.Exit)
				}
			}
			starts := map[string]int{}
			for _, s := range startSpans(spans) {
				if id := s.Resource.String(catalog.AttrServiceInstanceID); strings.HasPrefix(id, string(era)+"/") {
					starts[id]++
				}
			}
			if starts[first.replica] != 21 || starts[second.replica] != 21 || starts[third.replica] != 21 || len(starts) != 3 {
				t.Errorf("controller start spans per replica = %v, want 21 for each leader", starts)
			}
			// Every replica has an identity of its own (modern: host name
			// and a uniquifier; classic: the host name).
			ids := map[string]string{}
			for _, s := range spans {
				if id := s.Resource.String(catalog.AttrServiceInstanceID); s.Name == "RunOrDie" && strings.HasPrefix(id, string(era)+"/") {
					who := s.Attributes.String("leaderelection.identity")
					suffix := who[strings.Index(who, "_")+1:]
					if other, dup := ids[suffix]; dup {
						t.Errorf("%s and %s share the identity suffix %q", other, id, suffix)
					}
					ids[suffix] = id
				}
			}
			if len(ids) != 3 {
				t.Errorf("identities = %v, want one per replica", ids)
			}
		})
	}
}

// TestCMInRealTime runs the controller-manager scenario in real time, with
// its HTTP server on a real loopback port, until it has asked it; in real time
// the startup steps also have distinct timestamps, so their order shows.
func TestCMInRealTime(t *testing.T) {
	sc := builtin(t, "cm-startup")
	ask := newAsker(1)
	// The servers answer as soon as Run starts them, long before leader
	// election lets StartControllers run (later still on a loaded
	// machine): ask /metrics until the shared informers run.
	ask.until = map[string]string{"/metrics": `kubeloom_goroutines{goroutine="informer/run"}`}
	spans := runAsking(t, sc, ask)
	got := ask.answers("cm-0 ")
	if got["/healthz"] != "200 ok" {
		t.Errorf("/healthz = %q, want 200 ok", got["/healthz"])
	}
	// The startup steps, in the article's order.
	wantSteps := []string{"main", "NewCMServer", "AddFlags", "InitFlags", "InitLogs", "Run", "configz.New", "BuildConfigFromFlags",
		"NewForConfig", "NewForConfigOrDie", "cm/http-server", "NewBroadcaster", "StartRecordingToSink", "RunOrDie", "StartControllers", "sharedInformers.Start"}
	if got := byStart(spans, wantSteps); !slices.Equal(got, wantSteps) {
		t.Errorf("startup steps\n got %v\nwant %v", got, wantSteps)
	}

	for path, want := range map[string]string{
		"/configz":      `"concurrentEndpointSyncs":5`,
		"/metrics":      `kubeloom_goroutines{goroutine="cm/log-flush"} 1`,
		"/debug/pprof/": "goroutine",
	} {
		if !strings.HasPrefix(got[path], "200 ") || !strings.Contains(got[path], want) {
			t.Errorf("%s = %.300q…, want 200 with %s", path, got[path], want)
		}
	}
	// v1.5's LeaderElectionConfiguration has no resourceLock: Endpoints was
	// the only lock (pkg/apis/componentconfig/types.go).
	if strings.Contains(got["/configz"], "resourceLock") {
		t.Errorf("/configz = %.300q…, has a resourceLock, a field v1.5 did not have", got["/configz"])
	}
}

// asker asks every server a run reports (Options.Serving) for each of its
// paths, as a user with curl would, on a goroutine of its own.
type asker struct {
	mu      sync.Mutex
	wg      sync.WaitGroup
	got     map[string]string // "instance path" → "status body" or "error: …"
	servers int               // how many servers to ask before done
	done    chan struct{}     // closed once they have all answered
	// until holds the paths asked again, every 10ms of real time, until
	// their answer contains the string, or the server is gone.
	until map[string]string
}

func newAsker(servers int) *asker {
	return &asker{got: map[string]string{}, servers: servers, done: make(chan struct{})}
}

// runAsking runs a scenario in real time until every one of the asker's
// servers has answered, however long the machine takes (a loaded CPU
// only makes it take more simulated time), then stops it.
func runAsking(t *testing.T, sc *scenarios.Scenario, ask *asker) []traces.Span {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-ask.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	var rec bytes.Buffer
	sum, err := Run(ctx, Options{Scenario: sc, Recording: &rec, Speed: 100, Duration: time.Hour, Serving: ask.serving})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-ask.done:
	default:
		t.Fatalf("the run ended (after %s) before its %d servers answered", sum.Duration, ask.servers)
	}
	if len(sum.Leftovers) > 0 {
		t.Errorf("stopped at %s, the run left goroutines running: %v", sum.Duration, sum.Leftovers)
	}
	spans, err := traces.Read(&rec, sc.Metadata.Name+".jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return spans
}

func (a *asker) serving(instance, addr string, paths []string) {
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		defer func() {
			a.mu.Lock()
			defer a.mu.Unlock()
			if a.servers--; a.servers == 0 {
				close(a.done)
			}
		}()
		for _, path := range paths {
			body := get("http://" + addr + path)
			if want, ok := a.until[path]; ok {
				poll := time.NewTicker(10 * time.Millisecond)
				for !strings.Contains(body, want) && !strings.HasPrefix(body, "error: ") {
					<-poll.C
					body = get("http://" + addr + path)
				}
				poll.Stop()
			}
			a.mu.Lock()
			a.got[instance+" "+path] = body
			a.mu.Unlock()
		}
	}()
}

// get returns "status body" of a GET of url, or "error: …".
func get(url string) string {
	resp, err := http.Get(url)
	if err != nil {
		return "error: " + err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return fmt.Sprintf("%d %s", resp.StatusCode, b)
}

// answers waits for every question and returns the answers whose key
// starts with prefix, keyed by the rest.
func (a *asker) answers(prefix string) map[string]string {
	a.wg.Wait()
	out := map[string]string{}
	for k, v := range a.got {
		if rest, ok := strings.CutPrefix(k, prefix); ok {
			out[rest] = v
		}
	}
	return out
}

// TestControllerStartPacing holds StartControllers' sleeps to v1.5's: one
// jittered --controller-start-interval ([d, 2d)) after a controller that
// starts, one after the ServiceController even though it fails, none
// after the RouteController that does not start, two after the CronJob
// controller, none after the GarbageCollector; and the discovery step
// between the ResourceQuota and Namespace controllers.
func TestControllerStartPacing(t *testing.T) {
	sc := builtin(t, "cm-startup")
	sc.Spec.Duration = 2 * time.Minute
	sc.Spec.ControllerManager.Flags["--controller-start-interval"] = "1s"
	_, spans := runScenario(t, sc, nil)
	starts := startSpans(spans)
	d := time.Second
	sleeps := map[string]int{"RouteController": 0, "ScheduledJobController": 2} // by controller; 1 for the others
	for i := 0; i+1 < len(starts); i++ {
		name := starts[i].Attributes.String(controllermanager.AttrControllerName)
		gap := starts[i+1].Start.Sub(starts[i].End)
		n, ok := sleeps[name]
		if !ok {
			n = 1
		}
		// Each sleep is wait.Jitter(d, 1.0): within [d, 2d).
		if lo, hi := time.Duration(n)*d, time.Duration(2*n)*d; n == 0 && gap != 0 || n > 0 && (gap < lo || gap >= hi) {
			t.Errorf("after %s: %s to the next start, want %d sleeps: within [%s, %s)", name, gap, n, lo, hi)
		}
	}
	last := starts[len(starts)-1]
	for _, s := range spans {
		if s.Name == "sharedInformers.Start" && s.Start.Sub(last.End) != 0 {
			t.Errorf("sharedInformers.Start %s after the GarbageCollector's start, want at once", s.Start.Sub(last.End))
		}
	}
	// ServerAPIVersions and ServerResources come after ResourceQuotaController, before NamespaceController.
	at := map[string]time.Time{}
	for _, s := range spans {
		if s.Name == "ServerAPIVersions" || s.Name == "ServerResources" {
			at[s.Name] = s.Start
		}
	}
	var rq, ns time.Time
	for _, s := range starts {
		switch s.Attributes.String(controllermanager.AttrControllerName) {
		case "ResourceQuotaController":
			rq = s.End
		case "NamespaceController":
			ns = s.Start
		}
	}
	for _, name := range []string{"ServerAPIVersions", "ServerResources"} {
		if a, ok := at[name]; !ok || a.Before(rq) || a.After(ns) {
			t.Errorf("%s at %v, want between the ResourceQuotaController's start (%v) and the NamespaceController's (%v)", name, a, rq, ns)
		}
	}
}
