package docs

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"go.opentelemetry.io/otel/trace"

	corev1 "k8s.io/api/core/v1"

	"github.com/kubeloom/kubeloom/internal/memnet"
	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/engine"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// The figures of docs/kubelet.md, its English text and its 中文 section.
// ks: kubelet-startup, lc: kubelet-pod-lifecycle, cb: cluster-basics.
func init() {
	fs := map[string]func(d *docRuns) (figure, error){
		// The built-ins (the table at the top).
		"kdoc.ks.image-gc-freed-at": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-startup")
			for _, s := range kdocByStart(r.spansNamed("node-1", "Images/GarbageCollect")) {
				if _, ok := s.Attributes.Int("kubelet.imagefs.bytes_freed"); ok {
					return durationOf(r.at(s.Start), time.Second, time.Second), nil
				}
			}
			return figure{}, fmt.Errorf("no image GC freed anything")
		},
		"kdoc.lc.crash-kept": func(d *docRuns) (figure, error) { return d.of("kubelet-pod-lifecycle").kdocCrashKept() },
		"kdoc.cb.unknown-after-heartbeat": func(d *docRuns) (figure, error) {
			r := d.of("cluster-basics")
			last, err := r.kdocLastIteration("node-2", "kubelet/node-status")
			if err != nil {
				return figure{}, err
			}
			at, err := r.nodeUnknownAt("node-2")
			return durationOf(at-last, time.Second, 5*time.Second), err
		},
		"kdoc.cb.evicted-after-heartbeat": func(d *docRuns) (figure, error) {
			r := d.of("cluster-basics")
			last, err := r.kdocLastIteration("node-2", "kubelet/node-status")
			if err != nil {
				return figure{}, err
			}
			for _, l := range r.lanes("cm-0", "controller/node/pod-evictor") {
				for _, m := range l.Calls {
					if m.Name == "pods.Delete" {
						return durationOf(r.at(m.Start)-last, time.Second, 10*time.Second), nil
					}
				}
			}
			return figure{}, fmt.Errorf("the pod evictor deleted nothing")
		},
		"kdoc.cb.replacement-nodes": func(d *docRuns) (figure, error) {
			r := d.of("cluster-basics")
			var nodes []string
			for _, s := range r.spansNamed("scenario", "scheduleOne") {
				if n := s.Attributes.String("k8s.node.name"); r.at(s.Start) > 2*time.Minute && n != "" && !slices.Contains(nodes, n) {
					nodes = append(nodes, n)
				}
			}
			if len(nodes) == 0 {
				return figure{}, fmt.Errorf("nothing was bound after node-2's kubelet stopped")
			}
			slices.Sort(nodes)
			return exact(andList(nodes)), nil
		},

		// 1. Startup.
		"kdoc.ks.run-goroutines": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-startup")
			run, err := r.kdocRunSpan()
			if err != nil {
				return figure{}, err
			}
			return exactCount(len(r.kdocLifetimes(func(s traces.Span) bool { return s.ParentSpanID == run.SpanID }))), nil
		},
		"kdoc.ks.init-goroutines": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-startup")
			init := r.spansNamed("node-1", "initializeModules")
			if len(init) == 0 {
				return figure{}, fmt.Errorf("no initializeModules")
			}
			steps := map[trace.SpanID]bool{}
			for _, s := range r.spans {
				if s.ParentSpanID == init[0].SpanID {
					steps[s.SpanID] = true
				}
			}
			return exactCount(len(r.kdocLifetimes(func(s traces.Span) bool { return steps[s.ParentSpanID] }))), nil
		},
		"kdoc.ks.first-pass": func(d *docRuns) (figure, error) {
			l, err := d.of("kubelet-startup").lane("node-1", "kubelet/main-loop")
			if err != nil {
				return figure{}, err
			}
			for _, m := range kdocByIteration(l.Iterations) {
				if m.Name != "Run" {
					return exact(m.Name), nil
				}
			}
			return figure{}, fmt.Errorf("syncLoop never ran")
		},
		"kdoc.ks.first-container-at": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-startup")
			s := kdocByStart(r.spansNamed("node-1", "StartContainer"))
			if len(s) == 0 {
				return figure{}, fmt.Errorf("no container started")
			}
			return durationOf(r.at(s[0].Start), 100*time.Millisecond, time.Second), nil
		},

		// 2. The goroutines.
		"kdoc.ks.kubelet-goroutines": func(d *docRuns) (figure, error) {
			return exactCount(len(d.of("kubelet-startup").kdocKubeletGoroutines())), nil
		},
		"kdoc.catalog.kubelet-goroutines": func(d *docRuns) (figure, error) { return exactCount(len(kdocCatalogKubelet())), nil },
		"kdoc.ks.goroutines-not-run": func(d *docRuns) (figure, error) {
			ran := d.of("kubelet-startup").kdocKubeletGoroutines()
			var not []string
			for _, name := range kdocCatalogKubelet() {
				if !ran[name] {
					not = append(not, name)
				}
			}
			return exact(andList(not)), nil
		},
		"kdoc.ks.lanes": func(d *docRuns) (figure, error) {
			in, err := d.of("kubelet-startup").instance("node-1")
			if err != nil {
				return figure{}, err
			}
			n := 0
			for _, l := range in.Lanes {
				if l.Goroutine != timeline.MainLane {
					n++
				}
			}
			return exactCount(n), nil
		},
		"kdoc.ks.config-mux":              kdocLaneCount("kubelet-startup", "kubelet/config-mux"),
		"kdoc.ks.pod-workers":             kdocLaneCount("kubelet-startup", "kubelet/pod-worker"),
		"kdoc.ks.probe-workers":           kdocLaneCount("kubelet-startup", "kubelet/probe-worker"),
		"kdoc.ks.volume-stat-calculators": kdocLaneCount("kubelet-startup", "kubelet/volume-stat-calculator"),
		"kdoc.ks.calculator-first-at": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-startup")
			ls := r.lanes("node-1", "kubelet/volume-stat-calculator")
			if len(ls) == 0 {
				return figure{}, fmt.Errorf("no kubelet/volume-stat-calculator")
			}
			first := ls[0].Start
			for _, l := range ls {
				if l.Start.Before(first) {
					first = l.Start
				}
			}
			return durationOf(r.at(first), time.Second, 2*time.Second), nil
		},
		"kdoc.lc.web-calculator-stop-at": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-pod-lifecycle")
			for _, l := range r.lanes("node-1", "kubelet/volume-stat-calculator") {
				if l.Attributes.String(catalog.AttrObjectKey) == "default/web" && !l.Open {
					return durationOf(r.at(l.End), time.Second, 2*time.Second), nil
				}
			}
			return figure{}, fmt.Errorf("no stopped kubelet/volume-stat-calculator of default/web")
		},
		"kdoc.kill-pod": func(d *docRuns) (figure, error) {
			return kdocBuiltinsWith(d, func(r *docRun) bool { return len(r.lanes("", "kubelet/kill-pod")) > 0 })
		},

		// 3. syncLoop.
		"kdoc.ks.skipping-at": func(d *docRuns) (figure, error) {
			return d.of("kubelet-startup").iterationAt("node-1", "kubelet/main-loop", "skipping pod synchronization", 100*time.Millisecond)
		},
		"kdoc.ks.configch-at": func(d *docRuns) (figure, error) {
			return d.of("kubelet-startup").iterationAt("node-1", "kubelet/main-loop", "configCh", 100*time.Millisecond)
		},
		"kdoc.ks.syncch-at": func(d *docRuns) (figure, error) {
			return d.of("kubelet-startup").iterationAt("node-1", "kubelet/main-loop", "syncCh", 100*time.Millisecond)
		},
		"kdoc.ks.housekeeping-at": func(d *docRuns) (figure, error) {
			return d.of("kubelet-startup").iterationAt("node-1", "kubelet/main-loop", "housekeepingCh", 100*time.Millisecond)
		},
		"kdoc.ks.configch-n": func(d *docRuns) (figure, error) {
			first, err := d.of("kubelet-startup").kdocFirstAdds()
			return exactCount(len(first)), err
		},
		"kdoc.ks.source-pods": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-startup")
			first, err := r.kdocFirstAdds()
			if err != nil {
				return figure{}, err
			}
			var parts []string
			for _, m := range first {
				parts = append(parts, fmt.Sprintf("%s (%s)", m.Attributes.String("kubelet.pod_source"), strings.Join(r.kdocPodsOf(m, "HandlePodAdditions"), ", ")))
			}
			slices.Sort(parts)
			return exact(strings.Join(parts, ", ")), nil
		},
		"kdoc.ks.mirror-at": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-startup")
			later, err := r.kdocMirrorAdds()
			if err != nil {
				return figure{}, err
			}
			return durationOf(r.at(later[0].Start), 100*time.Millisecond, 500*time.Millisecond), nil
		},
		"kdoc.ks.mirror-pods": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-startup")
			later, err := r.kdocMirrorAdds()
			if err != nil {
				return figure{}, err
			}
			var pods []string
			for _, m := range later {
				pods = append(pods, r.kdocPodsOf(m, "HandlePodAdditions")...)
			}
			slices.Sort(pods)
			return exact(andList(slices.Compact(pods))), nil
		},
		"kdoc.ks.reconcile-at": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-startup")
			l, err := r.lane("node-1", "kubelet/main-loop")
			if err != nil {
				return figure{}, err
			}
			for _, m := range l.Iterations {
				if m.Name == "configCh" && m.Attributes.String("kubelet.pod_update.op") == "RECONCILE" {
					return durationOf(r.at(m.Start), 100*time.Millisecond, 500*time.Millisecond), nil
				}
			}
			return figure{}, fmt.Errorf("no RECONCILE")
		},
		"kdoc.ks.plegch-at": func(d *docRuns) (figure, error) {
			return d.of("kubelet-startup").iterationAt("node-1", "kubelet/main-loop", "plegCh", 100*time.Millisecond)
		},
		"kdoc.ks.plegch-n": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-startup")
			l, err := r.lane("node-1", "kubelet/main-loop")
			if err != nil {
				return figure{}, err
			}
			first, err := r.firstMark(l, l.Iterations, "plegCh")
			if err != nil {
				return figure{}, err
			}
			n := 0
			for _, m := range marks(l.Iterations, "plegCh") {
				if m.Start.Sub(first.Start) < 500*time.Millisecond && m.Attributes.String("kubelet.pleg.event") == "ContainerStarted" {
					n++
				}
			}
			return exactCount(n), nil
		},
		"kdoc.ks.skipped-at": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-startup")
			m, err := r.kdocFirstSkippedSync()
			return durationOf(r.at(m.Start), 100*time.Millisecond, time.Second), err
		},
		"kdoc.ks.skipped": func(d *docRuns) (figure, error) {
			m, err := d.of("kubelet-startup").kdocFirstSkippedSync()
			return exactCount(int(m.Skipped)), err
		},

		// 4. A pod's way: web in kubelet-pod-lifecycle.
		"kdoc.lc.web-create-at": kdocLcAt("scenario", "action/create", nil),
		"kdoc.lc.web-add-at": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-pod-lifecycle")
			l, err := r.lane("node-1", "kubelet/main-loop")
			if err != nil {
				return figure{}, err
			}
			for _, m := range marks(l.Iterations, "configCh") {
				if slices.Contains(r.kdocPodsOf(m, "HandlePodAdditions"), "web") {
					return durationOf(r.at(m.Start), 100*time.Millisecond, time.Second), nil
				}
			}
			return figure{}, fmt.Errorf("web was never added")
		},
		"kdoc.lc.web-volumes-at": kdocLcAt("node-1", "processPodVolumes", nil),
		"kdoc.lc.web-create-sync-at": kdocLcAt("node-1", "syncPod", func(s traces.Span) bool {
			return s.Attributes.String("goroutine.name") == "kubelet/pod-worker" && s.Attributes.String("kubelet.update_type") == "create"
		}),
		"kdoc.lc.web-pending-at": kdocLcAt("node-1", "syncPod", func(s traces.Span) bool {
			return s.Attributes.String("goroutine.name") == "kubelet/status-manager" && s.Attributes.String("k8s.pod.phase") == "Pending"
		}),
		"kdoc.lc.web-started-at": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-pod-lifecycle")
			es, err := r.kdocFirstStartedRelist()
			if err != nil {
				return figure{}, err
			}
			return durationOf(r.at(es[0].Time), 100*time.Millisecond, time.Second), nil
		},
		"kdoc.lc.web-started-n": func(d *docRuns) (figure, error) {
			es, err := d.of("kubelet-pod-lifecycle").kdocFirstStartedRelist()
			return exactCount(len(es)), err
		},
		"kdoc.lc.web-running-sync-at": kdocLcAt("node-1", "syncPod", func(s traces.Span) bool {
			return s.Attributes.String("goroutine.name") == "kubelet/pod-worker" && s.Attributes.String("kubelet.update_type") == "sync"
		}),
		"kdoc.lc.web-running-at": kdocLcAt("node-1", "syncPod", func(s traces.Span) bool {
			return s.Attributes.String("goroutine.name") == "kubelet/status-manager" && s.Attributes.String("k8s.pod.phase") == "Running"
		}),
		"kdoc.lc.web-reconcile-at": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-pod-lifecycle")
			l, err := r.lane("node-1", "kubelet/main-loop")
			if err != nil {
				return figure{}, err
			}
			for _, m := range marks(l.Iterations, "configCh") {
				if m.Attributes.String("kubelet.pod_update.op") == "RECONCILE" && slices.Contains(r.kdocPodsOf(m, "HandlePodReconcile"), "web") {
					return durationOf(r.at(m.Start), 100*time.Millisecond, time.Second), nil
				}
			}
			return figure{}, fmt.Errorf("web's status never came back")
		},
		"kdoc.lc.oom-restart-after": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-pod-lifecycle")
			oom, restart, err := r.kdocOOMRestart()
			return durationOf(restart.Start.Sub(oom), 100*time.Millisecond, time.Second), err
		},
		"kdoc.lc.oom-attempt": func(d *docRuns) (figure, error) {
			_, restart, err := d.of("kubelet-pod-lifecycle").kdocOOMRestart()
			n, _ := restart.Attributes.Int("container.attempt")
			return exactCount(int(n)), err
		},
		"kdoc.lc.oom-exit": func(d *docRuns) (figure, error) {
			st, err := kdocWebAfterOOM(d)
			if err != nil {
				return figure{}, err
			}
			return exactCount(int(st.LastTerminationState.Terminated.ExitCode)), nil
		},
		"kdoc.lc.oom-reason": func(d *docRuns) (figure, error) {
			st, err := kdocWebAfterOOM(d)
			if err != nil {
				return figure{}, err
			}
			return exact(st.LastTerminationState.Terminated.Reason), nil
		},
		"kdoc.lc.oom-restart-count": func(d *docRuns) (figure, error) {
			st, err := kdocWebAfterOOM(d)
			if err != nil {
				return figure{}, err
			}
			return exactCount(int(st.RestartCount)), nil
		},
		"kdoc.lc.ip-before": func(d *docRuns) (figure, error) { return kdocWebIP(d, 0) },
		"kdoc.lc.ip-after":  func(d *docRuns) (figure, error) { return kdocWebIP(d, 1) },
		"kdoc.lc.delete-grace": func(d *docRuns) (figure, error) {
			s, err := d.of("kubelet-pod-lifecycle").kdocKubeletDelete()
			n, _ := s.Attributes.Int("k8s.delete.grace_period_s")
			return exactCount(int(n)), err
		},
		"kdoc.lc.delete-after": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-pod-lifecycle")
			s, err := r.kdocKubeletDelete()
			if err != nil {
				return figure{}, err
			}
			del := r.spansNamed("scenario", "action/delete")
			if len(del) == 0 {
				return figure{}, fmt.Errorf("no delete action")
			}
			return durationOf(s.Start.Sub(del[0].Start), 100*time.Millisecond, time.Second), nil
		},
		"kdoc.lc.web-gc-at": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-pod-lifecycle")
			m, _, err := r.kdocWebGC()
			return durationOf(r.at(m.Start), time.Second, time.Second), err
		},
		"kdoc.lc.web-gc-removed": func(d *docRuns) (figure, error) {
			_, names, err := d.of("kubelet-pod-lifecycle").kdocWebGC()
			return exact(andList(names)), err
		},
		"kdoc.lc.backoff-message": func(d *docRuns) (figure, error) {
			msgs := d.of("kubelet-pod-lifecycle").kdocBackoffs()
			if len(msgs) < 2 {
				return figure{}, fmt.Errorf("crasher backed off %d times", len(msgs))
			}
			return exact(msgs[1]), nil
		},
		"kdoc.lc.next-backoff": func(d *docRuns) (figure, error) {
			msgs := d.of("kubelet-pod-lifecycle").kdocBackoffs()
			if len(msgs) == 0 {
				return figure{}, fmt.Errorf("crasher never backed off")
			}
			period, _, _ := strings.Cut(strings.TrimPrefix(msgs[len(msgs)-1], "Back-off "), " ")
			return exact(period), nil
		},
		"kdoc.lc.crash-restarts": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-pod-lifecycle")
			var at []string
			for _, s := range kdocByStart(r.spansNamed("node-1", "StartContainer")) {
				if n, _ := s.Attributes.Int("container.attempt"); s.Attributes.String("container.name") == "crash" && n > 0 {
					at = append(at, r.at(s.Start).Round(time.Second).String())
				}
			}
			return exact(andList(at)), nil
		},
		"kdoc.evictions": func(d *docRuns) (figure, error) {
			return kdocBuiltinsWith(d, func(r *docRun) bool { return len(r.spansNamed("", "evictPod")) > 0 })
		},

		// 6. The runtime.
		"kdoc.ks.images": func(d *docRuns) (figure, error) {
			s := kdocByStart(d.of("kubelet-startup").spansNamed("node-1", "detectImages"))
			if len(s) == 0 {
				return figure{}, fmt.Errorf("no detectImages")
			}
			n, ok := s[0].Attributes.Int("container.images")
			if !ok {
				return figure{}, fmt.Errorf("detectImages has no container.images")
			}
			return exactCount(int(n)), nil
		},
		"kdoc.ks.pause-kib": func(d *docRuns) (figure, error) {
			for _, s := range d.of("kubelet-startup").spansNamed("node-1", "StartContainer") {
				if n, ok := s.Attributes.Int("container.image.size"); ok && s.Attributes.String("container.name") == "POD" {
					return exactCount(int(math.Round(float64(n) / 1024))), nil
				}
			}
			return figure{}, fmt.Errorf("no sandbox was started")
		},
		"kdoc.ks.imagefs-gb": func(d *docRuns) (figure, error) {
			n, err := d.of("kubelet-startup").kdocFirstImageGC("kubelet.imagefs.usage_bytes")
			return decimal(float64(n)/1e9, 1, 0.05), err
		},
		"kdoc.ks.imagefs-percent": func(d *docRuns) (figure, error) {
			n, err := d.of("kubelet-startup").kdocFirstImageGC("kubelet.imagefs.usage_percent")
			return exactCount(int(n)), err
		},

		// 12. The span budget.
		"kdoc.ks.housekeeping": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-startup")
			l, err := r.lane("node-1", "kubelet/main-loop")
			if err != nil {
				return figure{}, err
			}
			return countOf(len(r.during(marks(l.Iterations, "housekeepingCh"))), 0.05), nil
		},
		"kdoc.ks.spans":     func(d *docRuns) (figure, error) { return kdocAbout(len(d.of("kubelet-startup").spans)), nil },
		"kdoc.lc.spans":     func(d *docRuns) (figure, error) { return kdocAbout(len(d.of("kubelet-pod-lifecycle").spans)), nil },
		"kdoc.cb.spans":     func(d *docRuns) (figure, error) { return kdocAbout(len(d.of("cluster-basics").spans)), nil },
		"kdoc.ks.spans-all": kdocAllIterationSpans("kubelet-startup"),
		"kdoc.lc.spans-all": kdocAllIterationSpans("kubelet-pod-lifecycle"),
		"kdoc.cb.spans-all": kdocAllIterationSpans("cluster-basics"),

		// 13. Try it.
		"kdoc.ks.podlist": func(d *docRuns) (figure, error) {
			res, err := kdocProbe(d, "kubelet-startup", false, []kdocGet{{time.Minute, "node-1 server", "/pods"}})
			if err != nil {
				return figure{}, err
			}
			var list corev1.PodList
			if err := json.Unmarshal(res.bodies[0], &list); err != nil {
				return figure{}, fmt.Errorf("/pods: %v", err)
			}
			var names []string
			for _, p := range list.Items {
				names = append(names, p.Name)
			}
			slices.Sort(names)
			return exact(andList(names)), nil
		},
	}
	register(fs)
}

// kdocByStart sorts spans by their start (stable: equal starts keep the
// recording's order).
func kdocByStart(spans []traces.Span) []traces.Span {
	out := slices.Clone(spans)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start.Before(out[j].Start) })
	return out
}

// kdocByIteration sorts a lane's iterations by their number.
func kdocByIteration(ms []timeline.Mark) []timeline.Mark {
	out := slices.Clone(ms)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Iteration < out[j].Iteration })
	return out
}

// kdocAbout is a span count as the span budget writes it: rounded to
// tens (hundreds from 10,000 on), within 5% of a run's.
func kdocAbout(n int) figure {
	unit := 10.0
	if n >= 10000 {
		unit = 100
	}
	return countOf(int(math.Round(float64(n)/unit)*unit), 0.05)
}

// kdocLaneCount is the number of node-1 lanes of a goroutine in a built-in.
func kdocLaneCount(scenario, goroutine string) func(d *docRuns) (figure, error) {
	return func(d *docRuns) (figure, error) {
		return exactCount(len(d.of(scenario).lanes("node-1", goroutine))), nil
	}
}

// kdocBuiltinsWith names the built-ins with kubelets whose run has
// something, or "none".
func kdocBuiltinsWith(d *docRuns, has func(r *docRun) bool) (figure, error) {
	var names []string
	for _, b := range scenarios.Builtins() {
		sc, err := scenarios.Builtin(b.Name)
		if err != nil {
			return figure{}, err
		}
		if sc.Spec.Kubelets != nil && !slices.Contains(largeBuiltins, b.Name) && has(d.of(b.Name)) {
			names = append(names, b.Name)
		}
	}
	return exact(andList(names)), nil
}

// kdocLastIteration is when a goroutine's last iteration started.
func (r *docRun) kdocLastIteration(instance, label string) (time.Duration, error) {
	l, err := r.lane(instance, label)
	if err != nil {
		return 0, err
	}
	if len(l.Iterations) == 0 {
		return 0, fmt.Errorf("%s %s never ran", instance, label)
	}
	return r.at(l.Iterations[len(l.Iterations)-1].Start), nil
}

// kdocRunSpan is node-1's Kubelet.Run (the main loop's first iteration).
func (r *docRun) kdocRunSpan() (traces.Span, error) {
	for _, s := range r.spansNamed("node-1", "Run") {
		if s.Attributes.String("goroutine.name") == "kubelet/main-loop" {
			return s, nil
		}
	}
	return traces.Span{}, fmt.Errorf("%s: no Run on kubelet/main-loop", r.name)
}

// kdocLifetimes are node-1's goroutine lifetime spans that match.
func (r *docRun) kdocLifetimes(match func(traces.Span) bool) []traces.Span {
	var out []traces.Span
	for _, s := range r.spans {
		if s.Resource.String("service.instance.id") == "node-1" && s.Attributes.String("goroutine.kind") != "" && match(s) {
			out = append(out, s)
		}
	}
	return out
}

// kdocKubeletGoroutines are the kubelet/… goroutines node-1 ran.
func (r *docRun) kdocKubeletGoroutines() map[string]bool {
	ran := map[string]bool{}
	in, err := r.instance("node-1")
	if err != nil {
		return ran
	}
	for _, l := range in.Lanes {
		if strings.HasPrefix(l.Goroutine, "kubelet/") {
			ran[l.Goroutine] = true
		}
	}
	return ran
}

// kdocCatalogKubelet are the catalog's kubelet/… goroutines, sorted.
func kdocCatalogKubelet() []string {
	var names []string
	for _, e := range catalog.All() {
		if strings.HasPrefix(e.Name, "kubelet/") {
			names = append(names, e.Name)
		}
	}
	slices.Sort(names)
	return names
}

// kdocPodsOf are the pods (without "default/") of an iteration's child span
// named child (HandlePodAdditions, HandlePodReconcile), sorted.
func (r *docRun) kdocPodsOf(m timeline.Mark, child string) []string {
	var pods []string
	for _, s := range r.spans {
		if s.ParentSpanID != m.SpanID || s.Name != child {
			continue
		}
		if ps, ok := s.Attributes["kubelet.pods"].([]string); ok {
			for _, p := range ps {
				pods = append(pods, strings.TrimPrefix(p, "default/"))
			}
		}
	}
	slices.Sort(pods)
	return pods
}

// kdocFirstAdds are node-1's first configCh ADD of each pod source (api,
// file, http): the pods the sources deliver at once.
func (r *docRun) kdocFirstAdds() ([]timeline.Mark, error) {
	l, err := r.lane("node-1", "kubelet/main-loop")
	if err != nil {
		return nil, err
	}
	var out []timeline.Mark
	seen := map[string]bool{}
	for _, m := range marks(l.Iterations, "configCh") {
		src := m.Attributes.String("kubelet.pod_source")
		if m.Attributes.String("kubelet.pod_update.op") != "ADD" || seen[src] {
			continue
		}
		seen[src] = true
		out = append(out, m)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no configCh ADD")
	}
	return out, nil
}

// kdocMirrorAdds are the api source's later configCh ADDs before the first
// plegCh: the mirror pods of the static pods coming back from the apiserver.
func (r *docRun) kdocMirrorAdds() ([]timeline.Mark, error) {
	l, err := r.lane("node-1", "kubelet/main-loop")
	if err != nil {
		return nil, err
	}
	pleg, err := r.firstMark(l, l.Iterations, "plegCh")
	if err != nil {
		return nil, err
	}
	var out []timeline.Mark
	firstAPI := true
	for _, m := range marks(l.Iterations, "configCh") {
		if m.Attributes.String("kubelet.pod_update.op") != "ADD" || m.Attributes.String("kubelet.pod_source") != "api" || !m.Start.Before(pleg.Start) {
			continue
		}
		if firstAPI {
			firstAPI = false
			continue
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no later configCh ADD from the api source before the first plegCh")
	}
	return out, nil
}

// kdocFirstSkippedSync is the first syncCh after which idle ticks were
// sampled out.
func (r *docRun) kdocFirstSkippedSync() (timeline.Mark, error) {
	l, err := r.lane("node-1", "kubelet/main-loop")
	if err != nil {
		return timeline.Mark{}, err
	}
	for _, m := range marks(l.Iterations, "syncCh") {
		if m.Skipped > 0 {
			return m, nil
		}
	}
	return timeline.Mark{}, fmt.Errorf("no syncCh skipped iterations")
}

// kdocLcAt is when the first span named name about web (k8s.object.key
// default/web) that matches started in kubelet-pod-lifecycle.
func kdocLcAt(instance, name string, match func(traces.Span) bool) func(d *docRuns) (figure, error) {
	return func(d *docRuns) (figure, error) {
		r := d.of("kubelet-pod-lifecycle")
		for _, s := range kdocByStart(r.spansNamed(instance, name)) {
			if s.Attributes.String("k8s.object.key") == "default/web" && (match == nil || match(s)) {
				return durationOf(r.at(s.Start), 100*time.Millisecond, time.Second), nil
			}
		}
		return figure{}, fmt.Errorf("no %s of web", name)
	}
}

// kdocFirstStartedRelist are the ContainerStarted events of the first
// relist that reported web's.
func (r *docRun) kdocFirstStartedRelist() ([]traces.Event, error) {
	for _, s := range kdocByStart(r.spansNamed("node-1", "relist")) {
		var es []traces.Event
		for _, e := range s.Events {
			if e.Name == "ContainerStarted" {
				es = append(es, e)
			}
		}
		if len(es) > 0 {
			return es, nil
		}
	}
	return nil, fmt.Errorf("no relist reported a started container")
}

// kdocOOMRestart is the injectOOM action's time and the StartContainer that
// started the killed container again.
func (r *docRun) kdocOOMRestart() (time.Time, traces.Span, error) {
	oom := r.spansNamed("scenario", "action/injectOOM")
	if len(oom) == 0 {
		return time.Time{}, traces.Span{}, fmt.Errorf("no injectOOM")
	}
	for _, s := range kdocByStart(r.spansNamed("node-1", "StartContainer")) {
		if s.Attributes.String("container.name") == "web" && s.Start.After(oom[0].Start) {
			return oom[0].Start, s, nil
		}
	}
	return time.Time{}, traces.Span{}, fmt.Errorf("web was not started again after the OOM kill")
}

// kdocKubeletDelete is the kubelet's pods.Delete of web.
func (r *docRun) kdocKubeletDelete() (traces.Span, error) {
	for _, s := range kdocByStart(r.spansNamed("node-1", "pods.Delete")) {
		return s, nil
	}
	return traces.Span{}, fmt.Errorf("the kubelet deleted no pod")
}

// kdocWebGC is the first container GC after the kubelet deleted web that
// removed web's containers, and the names of those containers.
func (r *docRun) kdocWebGC() (timeline.Mark, []string, error) {
	del, err := r.kdocKubeletDelete()
	if err != nil {
		return timeline.Mark{}, nil, err
	}
	l, err := r.lane("node-1", "kubelet/container-gc")
	if err != nil {
		return timeline.Mark{}, nil, err
	}
	for _, m := range l.Iterations {
		if !m.Start.After(del.Start) { // a pass at the instant of the delete may run before it
			continue
		}
		var names []string
		for _, e := range l.Events {
			if e.SpanID == m.SpanID && e.Name == "removed" && e.Attributes.String("k8s.pod.name") == "web" {
				names = append(names, e.Attributes.String("container.name"))
			}
		}
		if len(names) > 0 {
			slices.Sort(names)
			return m, slices.Compact(names), nil
		}
	}
	return timeline.Mark{}, nil, fmt.Errorf("no container GC removed web's containers")
}

// kdocCrashKept is how many dead crash containers the container GC keeps:
// after each GC iteration that removes some, the crash containers that
// had died (ContainerDied) and were not removed; the largest such number.
func (r *docRun) kdocCrashKept() (figure, error) {
	l, err := r.lane("node-1", "kubelet/container-gc")
	if err != nil {
		return figure{}, err
	}
	var died []time.Time
	for _, e := range r.events("node-1", "ContainerDied") {
		if e.Attributes.String("container.name") == "crash" {
			died = append(died, e.Time)
		}
	}
	kept, removed, gcs := 0, 0, 0
	for _, m := range r.during(l.Iterations) {
		n := 0
		for _, e := range l.Events {
			if e.SpanID == m.SpanID && e.Name == "removed" && e.Attributes.String("container.name") == "crash" {
				n++
			}
		}
		removed += n
		if n == 0 {
			continue
		}
		gcs++
		dead := 0
		for _, t := range died {
			if !t.After(m.Start) {
				dead++
			}
		}
		kept = max(kept, dead-removed)
	}
	if gcs == 0 {
		return figure{}, fmt.Errorf("the container GC removed no crash container")
	}
	return exactCount(kept), nil
}

// kdocBackoffs are the distinct crash-loop back-off errors of crasher's
// pod worker, in order.
func (r *docRun) kdocBackoffs() []string {
	var msgs []string
	for _, s := range kdocByStart(r.spansNamed("node-1", "syncPod")) {
		if s.StatusCode == "Error" && strings.HasPrefix(s.StatusDesc, "Back-off ") && !slices.Contains(msgs, s.StatusDesc) {
			msgs = append(msgs, s.StatusDesc)
		}
	}
	return msgs
}

// kdocFirstImageGC is an attribute of node-1's first image GC.
func (r *docRun) kdocFirstImageGC(key string) (int64, error) {
	s := kdocByStart(r.spansNamed("node-1", "Images/GarbageCollect"))
	if len(s) == 0 {
		return 0, fmt.Errorf("no image GC")
	}
	n, ok := s[0].Attributes.Int(key)
	if !ok {
		return 0, fmt.Errorf("the first image GC has no %s", key)
	}
	return n, nil
}

// kdocWebAfterOOM is web's container status in the kubelet's /pods after
// the OOM kill at 2m.
func kdocWebAfterOOM(d *docRuns) (corev1.ContainerStatus, error) {
	pods, err := kdocLifecyclePods(d)
	if err != nil {
		return corev1.ContainerStatus{}, err
	}
	for _, cs := range pods[1].Status.ContainerStatuses {
		if cs.Name == "web" {
			if cs.LastTerminationState.Terminated == nil {
				return cs, fmt.Errorf("web's status has no lastState.terminated after the OOM kill")
			}
			return cs, nil
		}
	}
	return corev1.ContainerStatus{}, fmt.Errorf("web's status has no container web")
}

// kdocWebIP is web's pod IP before (0) or after (1) the OOM kill.
func kdocWebIP(d *docRuns, i int) (figure, error) {
	pods, err := kdocLifecyclePods(d)
	if err != nil {
		return figure{}, err
	}
	if pods[i].Status.PodIP == "" {
		return figure{}, fmt.Errorf("web has no IP")
	}
	return exact(pods[i].Status.PodIP), nil
}

// kdocLifecyclePods is web as node-1's kubelet serves it on /pods at 1m30s
// and at 2m30s (before and after the OOM kill at 2m) of kubelet-pod-lifecycle.
func kdocLifecyclePods(d *docRuns) ([2]corev1.Pod, error) {
	var out [2]corev1.Pod
	res, err := kdocProbe(d, "kubelet-pod-lifecycle", false, []kdocGet{
		{90 * time.Second, "node-1 server", "/pods"},
		{150 * time.Second, "node-1 server", "/pods"},
	})
	if err != nil {
		return out, err
	}
	for i, body := range res.bodies {
		var list corev1.PodList
		if err := json.Unmarshal(body, &list); err != nil {
			return out, fmt.Errorf("/pods: %v", err)
		}
		found := false
		for _, p := range list.Items {
			if p.Name == "web" {
				out[i], found = p, true
			}
		}
		if !found {
			return out, fmt.Errorf("/pods has no web")
		}
	}
	return out, nil
}

// kdocAllIterationSpans is the span count of a built-in recorded with
// --all-iterations.
func kdocAllIterationSpans(scenario string) func(d *docRuns) (figure, error) {
	return func(d *docRuns) (figure, error) {
		return kdocAbout(len(d.variant(scenario, "all-iterations", "--all-iterations").spans)), nil
	}
}

// kdocGet is a GET of a kubelet's server (its instance as run prints it,
// "node-1 server") at a simulated time.
type kdocGet struct {
	at     time.Duration
	server string
	path   string
}

type kdocResult struct {
	spans  int64
	bodies [][]byte
}

var (
	kdocMu    sync.Mutex
	kdocCache = map[string]*kdocResult{}
)

// kdocProbe runs a built-in once more, in a synctest bubble of this test,
// and GETs the paths at their times: the one kind of figure that does not
// come from `bin/kubeloom run`, because in virtual time the servers answer
// on the run's own in-memory network, which only a test sharing its bubble
// reaches (a reader curls them in a live run). It is the same engine, with
// the turns `run` takes on one core.
func kdocProbe(d *docRuns, name string, all bool, gets []kdocGet) (*kdocResult, error) {
	d.t.Helper()
	key := fmt.Sprintf("%s all=%v %v", name, all, gets)
	kdocMu.Lock()
	defer kdocMu.Unlock()
	if r, ok := kdocCache[key]; ok {
		return r, nil
	}
	sc, err := scenarios.Builtin(name)
	if err != nil {
		return nil, err
	}
	res := &kdocResult{}
	var runErr error
	synctest.Test(d.t, func(t *testing.T) {
		n := memnet.New()
		var mu sync.Mutex
		addrs := map[string]string{}
		done := make(chan struct{})
		go func() {
			defer close(done)
			sum, err := engine.Run(context.Background(), engine.Options{
				Scenario: sc, Recording: io.Discard, AllIterations: all, Listen: n.Listen, Dial: n.Dial, Serial: true,
				Serving: func(instance, addr string, _ []string) {
					mu.Lock()
					defer mu.Unlock()
					addrs[instance] = addr
				},
			})
			if err != nil {
				runErr = fmt.Errorf("running %s: %v", name, err)
				return
			}
			res.spans = sum.Spans
		}()
		// In virtual time simulated time is the bubble's time since the start.
		start := time.Now()
		tr := &http.Transport{DialContext: n.Dial, DisableKeepAlives: true}
		client := &http.Client{Transport: tr, Timeout: time.Minute}
		for _, g := range gets {
			time.Sleep(time.Until(start.Add(g.at)))
			mu.Lock()
			addr := addrs[g.server]
			mu.Unlock()
			if addr == "" {
				runErr = fmt.Errorf("%s: no %s at %s", name, g.server, g.at)
				break
			}
			rsp, err := client.Get("http://" + addr + g.path)
			if err != nil {
				runErr = fmt.Errorf("%s: GET %s at %s: %v", name, g.path, g.at, err)
				break
			}
			body, err := io.ReadAll(rsp.Body)
			rsp.Body.Close()
			if err != nil || rsp.StatusCode != http.StatusOK {
				runErr = fmt.Errorf("%s: GET %s at %s: %s %v", name, g.path, g.at, rsp.Status, err)
				break
			}
			res.bodies = append(res.bodies, body)
		}
		tr.CloseIdleConnections()
		<-done
	})
	if runErr != nil {
		return nil, runErr
	}
	kdocCache[key] = res
	return res, nil
}
