package docs

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// The figures of docs/controller-manager.md: what cm-startup and
// cm-leader-failover show, from the docs' runs of the built-ins (and, for
// the span budget and the modern ReplicaSet name, from runs of cm-startup
// in the modern era and with every iteration recorded).
func init() {
	figs := map[string]func(d *docRuns) (figure, error){
		// 1. What runs
		"cmdoc.controllers": func(d *docRuns) (figure, error) {
			return exactCount(len(d.of("cm-startup").controllerStarts("cm-0"))), nil
		},
		"cmdoc.started": func(d *docRuns) (figure, error) {
			n := 0
			for _, s := range d.of("cm-startup").controllerStarts("cm-0") {
				if s.Attributes["kubeloom.controller.started"] == true {
					n++
				}
			}
			return exactCount(n), nil
		},
		"cmdoc.last-start-at": func(d *docRuns) (figure, error) {
			r := d.of("cm-startup")
			starts := r.controllerStarts("cm-0")
			if len(starts) == 0 {
				return figure{}, fmt.Errorf("no start spans")
			}
			return durationOf(r.at(starts[len(starts)-1].Start), 100*time.Millisecond, 200*time.Millisecond), nil
		},
		"cmdoc.runordie-at": func(d *docRuns) (figure, error) {
			r := d.of("cm-startup")
			for _, s := range r.spansNamed("cm-0", "RunOrDie") {
				return durationOf(r.at(s.Start), 100*time.Millisecond, 200*time.Millisecond), nil
			}
			return figure{}, fmt.Errorf("no RunOrDie")
		},
		"cmdoc.flags-classic": func(d *docRuns) (figure, error) { return cmDocFlags(d.of("cm-startup"), "cm-0") },
		"cmdoc.flags-modern":  func(d *docRuns) (figure, error) { return cmDocFlags(d.of("cm-leader-failover"), "modern/cm-0") },
		"cmdoc.informers-started": func(d *docRuns) (figure, error) {
			for _, e := range d.of("cm-startup").events("cm-0", "informers started") {
				n, _ := e.Attributes.Int("informers")
				return exactCount(int(n)), nil
			}
			return figure{}, fmt.Errorf("no informers started event")
		},
		"cmdoc.not-started": func(d *docRuns) (figure, error) {
			var names []string
			for _, s := range d.of("cm-startup").controllerStarts("cm-0") {
				if _, ok := cmDocNotStarted(s); ok {
					names = append(names, strings.TrimPrefix(s.Name, "start "))
				}
			}
			return exact(andList(names)), nil
		},
		"cmdoc.reason.service": func(d *docRuns) (figure, error) { return cmDocReason(d.of("cm-startup"), "ServiceController") },
		"cmdoc.reason.route":   func(d *docRuns) (figure, error) { return cmDocReason(d.of("cm-startup"), "RouteController") },

		// 2. Process-level goroutines: the event pipelines
		"cmdoc.pipelines.broadcast": func(d *docRuns) (figure, error) {
			return exactCount(len(d.of("cm-startup").lanes("cm-0", "cm/event-broadcast-loop"))), nil
		},
		"cmdoc.pipelines.sink": func(d *docRuns) (figure, error) {
			return exactCount(len(d.of("cm-startup").lanes("cm-0", "cm/event-sink-watcher"))), nil
		},
		"cmdoc.pipelines.log": func(d *docRuns) (figure, error) {
			return exactCount(len(d.of("cm-startup").lanes("cm-0", "cm/event-log-watcher"))), nil
		},
		"cmdoc.attachdetach-pipelines": func(d *docRuns) (figure, error) {
			// v1.5 hands the AttachDetachController Run's recorder.
			if _, ok := cmDocPipelines(d.of("cm-startup"), "cm-0")["AttachDetachController"]; ok {
				return exact("its own"), nil
			}
			return exact("none"), nil
		},
		"cmdoc.failover-pipelines": func(d *docRuns) (figure, error) {
			r := d.of("cm-leader-failover")
			n := -1
			for _, id := range cmDocLeaders(r, "classic") {
				got := len(r.lanes(id, "cm/event-broadcast-loop"))
				if n >= 0 && got != n {
					return figure{}, fmt.Errorf("the classic leaders have %d and %d pipelines", n, got)
				}
				n = got
			}
			return exactCount(n), nil
		},

		// 3. The HTTP server: /metrics of the leader at 30s, of a standby
		"cmdoc.metrics-lines": func(d *docRuns) (figure, error) {
			// HELP and TYPE, one line per goroutine name, then the three
			// lines of leader_election_master_status.
			return exactCount(2 + len(cmDocAlive(d.of("cm-startup"), "cm-0", cmDocMetricsAt)) + 3), nil
		},
		"cmdoc.metrics.master": func(d *docRuns) (figure, error) {
			return cmDocMaster(d.of("cm-startup"), "cm-0", cmDocMetricsAt), nil
		},
		"cmdoc.standby.replica": func(d *docRuns) (figure, error) {
			id, err := cmDocStandby(d.of("cm-leader-failover"))
			return exact(strings.TrimPrefix(id, "classic/")), err
		},
		"cmdoc.standby.leader": func(d *docRuns) (figure, error) {
			return d.of("cm-leader-failover").leaderAt("classic", cmDocMetricsAt)
		},
		"cmdoc.standby.count": func(d *docRuns) (figure, error) {
			r := d.of("cm-leader-failover")
			id, err := cmDocStandby(r)
			return exactCount(len(cmDocAlive(r, id, cmDocMetricsAt))), err
		},
		"cmdoc.standby.master": func(d *docRuns) (figure, error) {
			r := d.of("cm-leader-failover")
			id, err := cmDocStandby(r)
			return cmDocMaster(r, id, cmDocMetricsAt), err
		},
		"cmdoc.pprof-list-watch": func(d *docRuns) (figure, error) {
			return exactCount(cmDocAlive(d.of("cm-startup"), "cm-0", cmDocMetricsAt)["reflector/list-watch"]), nil
		},

		// 4. Leader election
		"cmdoc.modern-identity": func(d *docRuns) (figure, error) {
			runs := d.of("cm-leader-failover").spansNamed("modern/cm-0", "RunOrDie")
			if len(runs) == 0 {
				return figure{}, fmt.Errorf("modern/cm-0 has no RunOrDie")
			}
			id := runs[0].Attributes.String("leaderelection.identity")
			if host, uuid, ok := strings.Cut(id, "_"); ok && len(uuid) > 8 {
				return exact(host + "_" + uuid[:8]), nil
			}
			return figure{}, fmt.Errorf("modern/cm-0's identity %q has no uuid", id)
		},
		"cmdoc.annotation.holder": func(d *docRuns) (figure, error) {
			last, _, err := cmDocLastTerm(d.of("cm-leader-failover"), "classic")
			return exact(last.holder), err
		},
		"cmdoc.annotation.acquire": func(d *docRuns) (figure, error) {
			last, _, err := cmDocLastTerm(d.of("cm-leader-failover"), "classic")
			return exact(cmDocRFC3339(last.acquired)), err
		},
		"cmdoc.annotation.renew": func(d *docRuns) (figure, error) {
			last, _, err := cmDocLastTerm(d.of("cm-leader-failover"), "classic")
			return exact(cmDocRFC3339(last.renewed)), err
		},
		"cmdoc.annotation.previous": func(d *docRuns) (figure, error) {
			_, prev, err := cmDocLastTerm(d.of("cm-leader-failover"), "classic")
			return exact(prev), err
		},
		"cmdoc.lease-transitions": func(d *docRuns) (figure, error) {
			// A Lease counts each change of holder.
			return exactCount(len(cmDocLeaders(d.of("cm-leader-failover"), "modern")) - 1), nil
		},
		"cmdoc.killed": func(d *docRuns) (figure, error) {
			in, err := cmDocKilled(d.of("cm-leader-failover"), "classic")
			return exact(in.ID), err
		},
		"cmdoc.killed-exit": func(d *docRuns) (figure, error) {
			in, err := cmDocKilled(d.of("cm-leader-failover"), "classic")
			return exact(in.Exit), err
		},
		"cmdoc.new-leader-starts": func(d *docRuns) (figure, error) {
			r := d.of("cm-leader-failover")
			who, _, err := r.afterKill("classic")
			if err != nil {
				return figure{}, err
			}
			return exactCount(len(r.controllerStarts("classic/" + who))), nil
		},
		"cmdoc.replica-gap": func(d *docRuns) (figure, error) {
			r := d.of("cm-leader-failover")
			var starts []time.Duration
			for _, id := range []string{"classic/cm-0", "classic/cm-1", "classic/cm-2"} {
				l, err := r.lane(id, "main")
				if err != nil {
					return figure{}, err
				}
				// Timers of the scaled clock fire up to a few simulated nanoseconds late.
				starts = append(starts, r.at(l.Start).Round(time.Millisecond))
			}
			if starts[1]-starts[0] != starts[2]-starts[1] {
				return figure{}, fmt.Errorf("the replicas start at %v, not evenly", starts)
			}
			return durationOf(starts[1]-starts[0], 100*time.Millisecond, 0), nil
		},
		"cmdoc.first-leader": func(d *docRuns) (figure, error) {
			// The first leader of every seed of the table.
			first := ""
			for seed := int64(1); seed <= cmDocSeeds; seed++ {
				r := cmDocSeeded(d, seed)
				for _, era := range []string{"classic", "modern"} {
					f, err := cmDocFirstLeader(r, era)
					if err != nil {
						return figure{}, err
					}
					if first != "" && f != first {
						return figure{}, fmt.Errorf("seed %d, %s: %s leads first, not %s", seed, era, f, first)
					}
					first = f
				}
			}
			return exact(first), nil
		},

		// 5. Informers
		"cmdoc.shared-informers": func(d *docRuns) (figure, error) {
			var names []string
			for _, l := range d.of("cm-startup").lanes("cm-0", "informer/run") {
				names = append(names, l.Attributes.String("informer.name"))
			}
			// The lanes all start at 0s, so the run does not say in which
			// order; the factory starts them in request order, which is
			// cmDocInformerOrder when the run has those informers.
			if !cmDocSameSet(names, cmDocInformerOrder) {
				slices.Sort(names)
				return exact(strings.Join(names, ", ")), nil
			}
			return exact(strings.Join(cmDocInformerOrder, ", ")), nil
		},
		"cmdoc.handler-pairs": func(d *docRuns) (figure, error) {
			r := d.of("cm-startup")
			pop, run := len(r.lanes("cm-0", "informer/listener-pop")), len(r.lanes("cm-0", "informer/listener-run"))
			if pop != run {
				return figure{}, fmt.Errorf("%d listener-pop lanes but %d listener-run lanes", pop, run)
			}
			return exactCount(pop), nil
		},
		"cmdoc.dummy-runs": func(d *docRuns) (figure, error) {
			return exactCount(len(d.of("cm-startup").lanes("cm-0", "informer/dummy-controller-run"))), nil
		},
		"cmdoc.private": func(d *docRuns) (figure, error) {
			return exactCount(len(d.of("cm-startup").lanes("cm-0", "informer/private"))), nil
		},
		"cmdoc.gc-monitors": func(d *docRuns) (figure, error) {
			return exactCount(cmDocOwned(d.of("cm-startup"), "cm-0", "informer/private")["GarbageCollector"]), nil
		},
		"cmdoc.total.informer-run": func(d *docRuns) (figure, error) {
			return exactCount(len(d.of("cm-startup").lanes("cm-0", "informer/run"))), nil
		},
		"cmdoc.total.bare": func(d *docRuns) (figure, error) {
			r := d.of("cm-startup")
			return exactCount(len(r.lanes("cm-0", "reflector/list-watch")) - len(r.lanes("cm-0", "informer/run")) - len(r.lanes("cm-0", "informer/private"))), nil
		},
		"cmdoc.total.list-watch": func(d *docRuns) (figure, error) {
			return exactCount(len(d.of("cm-startup").lanes("cm-0", "reflector/list-watch"))), nil
		},
		"cmdoc.total.stream-receive": func(d *docRuns) (figure, error) {
			return exactCount(len(d.of("cm-startup").lanes("cm-0", "watch/stream-receive"))), nil
		},
		"cmdoc.total.resync-timers": func(d *docRuns) (figure, error) {
			return exactCount(len(d.of("cm-startup").lanes("cm-0", "reflector/resync-timer"))), nil
		},
		"cmdoc.resync-timers.periodic": func(d *docRuns) (figure, error) {
			n := 0
			for _, l := range d.of("cm-startup").lanes("cm-0", "reflector/resync-timer") {
				if l.Period > 0 {
					n++
				}
			}
			return exactCount(n), nil
		},
		"cmdoc.resync-timers.never": func(d *docRuns) (figure, error) {
			n := 0
			for _, l := range d.of("cm-startup").lanes("cm-0", "reflector/resync-timer") {
				if l.Period == 0 {
					if len(l.Iterations) > 0 {
						return figure{}, fmt.Errorf("%s has no resync period but %d iterations", l.Label, len(l.Iterations))
					}
					n++
				}
			}
			return exactCount(n), nil
		},

		// 6. The 21 controllers, in cm-startup
		"cmdoc.endpoints-not-ready-at": func(d *docRuns) (figure, error) {
			r := d.of("cm-startup")
			for _, s := range r.spansNamed("cm-0", "endpoints.Update") {
				if s.Attributes.String("k8s.object.key") == "default/cache" {
					return durationOf(r.at(s.Start), time.Second, 5*time.Second), nil
				}
			}
			return figure{}, fmt.Errorf("default/cache is never updated")
		},
		"cmdoc.podgc-passes": func(d *docRuns) (figure, error) {
			r := d.of("cm-startup")
			l, err := r.lane("cm-0", "controller/podgc/gc")
			if err != nil {
				return figure{}, err
			}
			if n := len(r.lanes("cm-0", "controller/podgc/delete-pod")); n > 0 {
				return figure{}, fmt.Errorf("PodGC deleted %d pods", n)
			}
			return exactCount(len(r.during(l.Iterations))), nil
		},
		"cmdoc.node-unknown-at": func(d *docRuns) (figure, error) {
			at, err := d.of("cm-startup").nodeUnknownAt("node-1")
			return durationOf(at, time.Second, 5*time.Second), err
		},
		"cmdoc.ns-deleted-at": func(d *docRuns) (figure, error) {
			r := d.of("cm-startup")
			var first time.Duration = -1
			for _, s := range r.spans {
				if strings.HasSuffix(s.Name, ".DeleteCollection") && s.Resource.String("service.instance.id") == "cm-0" {
					if at := r.at(s.Start); first < 0 || at < first {
						first = at
					}
				}
			}
			if first < 0 {
				return figure{}, fmt.Errorf("no DeleteCollection")
			}
			return durationOf(first, time.Second, 2*time.Second), nil
		},
		"cmdoc.ns-deletecollections": func(d *docRuns) (figure, error) {
			n := 0
			for _, s := range d.of("cm-startup").spans {
				if strings.HasSuffix(s.Name, ".DeleteCollection") && s.Resource.String("service.instance.id") == "cm-0" {
					n++
				}
			}
			return exactCount(n), nil
		},
		"cmdoc.daemonset-pod": func(d *docRuns) (figure, error) {
			return cmDocPodsOf(d.of("cm-startup"), "kube-system/node-agent-")
		},
		"cmdoc.replicaset": func(d *docRuns) (figure, error) {
			return cmDocCreated(d.of("cm-startup"), "replicasets.Create", "default/web-")
		},
		"cmdoc.replicaset-modern": func(d *docRuns) (figure, error) {
			r, err := cmDocVariant(d, "cm-startup", "modern", false)
			if err != nil {
				return figure{}, err
			}
			return cmDocCreated(r, "replicasets.Create", "default/web-")
		},
		"cmdoc.rs-pods": func(d *docRuns) (figure, error) {
			r := d.of("cm-startup")
			rs, err := cmDocCreated(r, "replicasets.Create", "default/web-")
			if err != nil {
				return figure{}, err
			}
			return cmDocPodsOf(r, "default/"+rs.text+"-")
		},
		"cmdoc.rs-pod-count": func(d *docRuns) (figure, error) {
			r := d.of("cm-startup")
			rs, err := cmDocCreated(r, "replicasets.Create", "default/web-")
			if err != nil {
				return figure{}, err
			}
			return exactCount(len(cmDocObjects(r, "default/"+rs.text+"-"))), nil
		},
		"cmdoc.statefulset-pods": func(d *docRuns) (figure, error) {
			var names []string
			for _, s := range d.of("cm-startup").spansNamed("cm-0", "pods.Create") {
				if k := s.Attributes.String("k8s.object.key"); strings.HasPrefix(k, "default/db-") {
					names = append(names, strings.TrimPrefix(k, "default/"))
				}
			}
			// A create that raced the informer's cache may be tried twice.
			slices.Sort(names)
			return exact(andList(slices.Compact(names))), nil
		},
		"cmdoc.cron-job": func(d *docRuns) (figure, error) {
			return cmDocCreated(d.of("cm-startup"), "jobs.Create", "default/report-")
		},
		"cmdoc.cron-job-pod": func(d *docRuns) (figure, error) {
			r := d.of("cm-startup")
			job, err := cmDocCreated(r, "jobs.Create", "default/report-")
			if err != nil {
				return figure{}, err
			}
			return cmDocPodsOf(r, "default/"+job.text+"-")
		},
		"cmdoc.cron-job-at": func(d *docRuns) (figure, error) {
			r := d.of("cm-startup")
			for _, s := range r.spansNamed("cm-0", "jobs.Create") {
				return durationOf(r.at(s.Start), time.Second, 0), nil
			}
			return figure{}, fmt.Errorf("no jobs.Create")
		},
		"cmdoc.cron-forbid-from": func(d *docRuns) (figure, error) {
			r := d.of("cm-startup")
			es := r.events("cm-0", "Not starting job because prior execution is still running and concurrency policy is Forbid")
			if len(es) == 0 {
				return figure{}, fmt.Errorf("the CronJob controller never skips a run")
			}
			return durationOf(r.at(es[0].Time), time.Second, 0), nil
		},
		"cmdoc.sa-namespaces": func(d *docRuns) (figure, error) {
			var ns []string
			for _, s := range d.of("cm-startup").spansNamed("cm-0", "serviceaccounts.Create") {
				if k := s.Attributes.String("k8s.object.key"); strings.HasSuffix(k, "/default") {
					ns = append(ns, strings.TrimSuffix(k, "/default"))
				}
			}
			slices.Sort(ns)
			return exact(andList(slices.Compact(ns))), nil
		},
		"cmdoc.gc-workers": func(d *docRuns) (figure, error) {
			return exactCount(len(d.of("cm-startup").lanes("cm-0", "controller/garbagecollector/worker"))), nil
		},
		"cmdoc.gc-finalizers": func(d *docRuns) (figure, error) {
			return exactCount(len(d.of("cm-startup").lanes("cm-0", "controller/garbagecollector/orphan-finalizer"))), nil
		},
		"cmdoc.gc-synced-at": func(d *docRuns) (figure, error) {
			r := d.of("cm-startup")
			es := r.events("cm-0", "Garbage Collector: All monitored resources synced. Proceeding to collect garbage")
			if len(es) == 0 {
				return figure{}, fmt.Errorf("the garbage collector's monitors never synced")
			}
			return durationOf(r.at(es[0].Time), time.Second, 0), nil
		},

		// 9. The span budget
		"cmdoc.spans": func(d *docRuns) (figure, error) { return countOf(d.of("cm-startup").tl.Spans, 0.05), nil },
		"cmdoc.spans-modern": func(d *docRuns) (figure, error) {
			r, err := cmDocVariant(d, "cm-startup", "modern", false)
			if err != nil {
				return figure{}, err
			}
			return countOf(r.tl.Spans, 0.05), nil
		},
		"cmdoc.spans-all-iterations": func(d *docRuns) (figure, error) {
			r, err := cmDocVariant(d, "cm-startup", "", true)
			if err != nil {
				return figure{}, err
			}
			return countOf(r.tl.Spans, 0.05), nil
		},
		"cmdoc.renewals": func(d *docRuns) (figure, error) {
			r := d.of("cm-startup")
			l, err := r.lane("cm-0", "cm/leader-renew")
			if err != nil {
				return figure{}, err
			}
			return countOf(len(r.during(l.Iterations)), 0.02), nil
		},
		"cmdoc.renewal-spans": func(d *docRuns) (figure, error) {
			// The renew iterations, and the spans each renewal causes in the
			// GarbageCollector's monitor of the lock.
			r := d.of("cm-startup")
			n := 0
			for _, s := range r.spans {
				if s.Resource.String("service.instance.id") != "cm-0" {
					continue
				}
				switch {
				case s.Name == "renew":
					n++
				case s.Attributes.String("k8s.object.key") == "kube-system/kube-controller-manager" && cmDocDownstream[s.Name]:
					n++
				}
			}
			return countOf(n, 0.05), nil
		},
		"cmdoc.pv-informers": func(d *docRuns) (figure, error) {
			return exactCount(cmDocOwned(d.of("cm-startup"), "cm-0", "reflector/resync-timer")["PersistentVolumeController"]), nil
		},
		"cmdoc.disruption-informers": func(d *docRuns) (figure, error) {
			return exactCount(cmDocOwned(d.of("cm-startup"), "cm-0", "informer/private")["DisruptionController"]), nil
		},
	}

	// The workers each controller runs in cm-startup: its worker lanes, per
	// queue ("5 + 5" for the quota controller's two).
	for id, queues := range map[string][]string{
		"endpoint": {"worker"}, "replicationcontroller": {"worker"}, "resourcequota": {"worker", "priority-worker"},
		"namespace": {"worker"}, "daemonset": {"worker"}, "job": {"worker"}, "deployment": {"worker"}, "replicaset": {"worker"},
		"disruption": {"worker", "recheck-worker"}, "statefulset": {"worker"}, "certificatesigningrequests": {"worker"},
		"serviceaccount": {"worker"},
	} {
		figs["cmdoc.workers."+id] = func(d *docRuns) (figure, error) {
			var counts []string
			for _, q := range queues {
				n := len(d.of("cm-startup").lanes("cm-0", "controller/"+id+"/"+q))
				if n == 0 {
					return figure{}, fmt.Errorf("no controller/%s/%s lane", id, q)
				}
				counts = append(counts, strconv.Itoa(n))
			}
			return exact(strings.Join(counts, " + ")), nil
		}
	}
	// Which pipelines have a log watcher, by the controller that built them.
	for key, owners := range map[string][]string{
		"run": {"Run"}, "replicationmanager": {"ReplicationManager"}, "nodecontroller": {"NodeController"},
		"servicecontroller": {"ServiceController"}, "horizontalcontroller": {"HorizontalController"},
		"workloads":            {"DaemonSetsController", "JobController", "DeploymentController", "ReplicaSetController"},
		"disruptioncontroller": {"DisruptionController"}, "petsetcontroller": {"PetSetController"},
		"scheduledjobcontroller": {"ScheduledJobController"}, "persistentvolumecontroller": {"PersistentVolumeController"},
		"certificatecontroller": {"CertificateController"},
	} {
		figs["cmdoc.log-watcher."+key] = func(d *docRuns) (figure, error) {
			ps := cmDocPipelines(d.of("cm-startup"), "cm-0")
			answer := ""
			for _, o := range owners {
				p, ok := ps[o]
				if !ok {
					return figure{}, fmt.Errorf("%s builds no event pipeline", o)
				}
				a := "no"
				if p.logging {
					a = "yes"
				}
				if answer != "" && a != answer {
					return figure{}, fmt.Errorf("%v: some have a log watcher, some not", owners)
				}
				answer = a
			}
			return exact(answer), nil
		}
	}
	// /metrics: the goroutines alive at 30s.
	for _, g := range cmDocMetricsShown {
		figs["cmdoc.metrics."+g] = func(d *docRuns) (figure, error) {
			return cmDocAliveCount(d.of("cm-startup"), "cm-0", g)
		}
	}
	for _, g := range cmDocStandbyShown {
		figs["cmdoc.standby."+g] = func(d *docRuns) (figure, error) {
			r := d.of("cm-leader-failover")
			id, err := cmDocStandby(r)
			if err != nil {
				return figure{}, err
			}
			return cmDocAliveCount(r, id, g)
		}
	}
	// The shared informers' handlers.
	for _, inf := range cmDocInformerOrder {
		figs["cmdoc.handlers."+inf] = func(d *docRuns) (figure, error) {
			var names []string
			for _, l := range d.of("cm-startup").lanes("cm-0", "informer/listener-pop") {
				if l.Attributes.String("informer.name") == inf {
					names = append(names, l.Attributes.String("informer.handler"))
				}
			}
			slices.Sort(names)
			return exact(strings.Join(names, ", ")), nil
		}
		figs["cmdoc.handler-count."+inf] = func(d *docRuns) (figure, error) {
			n := 0
			for _, l := range d.of("cm-startup").lanes("cm-0", "informer/listener-pop") {
				if l.Attributes.String("informer.name") == inf {
					n++
				}
			}
			return exactCount(n), nil
		}
	}
	// The takeover of each seed of cm-leader-failover.
	for seed := int64(1); seed <= cmDocSeeds; seed++ {
		for _, era := range []string{"classic", "modern"} {
			name := fmt.Sprintf("cmdoc.seed%d.%s", seed, era)
			figs[name+".takeover"] = func(d *docRuns) (figure, error) {
				_, after, err := cmDocSeeded(d, seed).afterKill(era)
				return durationOf(after, 100*time.Millisecond, time.Second), err
			}
			figs[name+".holders"] = func(d *docRuns) (figure, error) {
				r := cmDocSeeded(d, seed)
				first, err := cmDocFirstLeader(r, era)
				if err != nil {
					return figure{}, err
				}
				next, _, err := r.afterKill(era)
				return exact(first + " → " + next), err
			}
		}
	}
	for name, pick := range map[string]func(a, b time.Duration) bool{
		"cmdoc.takeover-min": func(a, b time.Duration) bool { return a < b },
		"cmdoc.takeover-max": func(a, b time.Duration) bool { return a > b },
	} {
		figs[name] = func(d *docRuns) (figure, error) {
			var best time.Duration = -1
			for seed := int64(1); seed <= cmDocSeeds; seed++ {
				for _, era := range []string{"classic", "modern"} {
					_, after, err := cmDocSeeded(d, seed).afterKill(era)
					if err != nil {
						return figure{}, err
					}
					if best < 0 || pick(after, best) {
						best = after
					}
				}
			}
			return durationOf(best, 100*time.Millisecond, time.Second), nil
		}
	}
	delete(figs, "cmdoc.handlers.persistentvolumes") // none: the table says so in words
	register(figs)
}

// cmDocMetricsAt is when the docs' /metrics samples were taken.
const cmDocMetricsAt = 30 * time.Second

// cmDocSeeds is how many seeds of cm-leader-failover the takeover table shows.
const cmDocSeeds = 6

// cmDocMetricsShown are the lines of the leader's /metrics the docs show
// (the others are trimmed); cmDocStandbyShown those of a standby (all).
var (
	cmDocMetricsShown = []string{
		"cm/controllers-main", "cm/event-broadcast-loop", "cm/event-log-watcher", "cm/event-sink-watcher",
		"cm/glog-flush-daemon", "cm/http-server", "cm/leader-poll-ticker", "cm/leader-renew", "cm/log-flush", "controller/attachdetach/dswp",
		"controller/garbagecollector/orphan-finalizer", "controller/garbagecollector/propagator",
		"controller/garbagecollector/run", "controller/garbagecollector/worker",
		"informer/cache-sync-poller", "informer/listener-pop", "informer/listener-run", "informer/private", "informer/run",
		"reflector/list-watch", "reflector/resync-timer", "watch/stream-receive",
	}
	cmDocStandbyShown = []string{
		"cm/event-broadcast-loop", "cm/event-log-watcher", "cm/event-sink-watcher",
		"cm/glog-flush-daemon", "cm/http-server", "cm/leader-acquire", "cm/log-flush",
	}
)

// cmDocInformerOrder is the order in which the controllers first ask the
// factory for each shared informer (sim/informer/factory.go starts them
// in that order).
var cmDocInformerOrder = []string{"pods", "nodes", "daemonsets", "persistentvolumeclaims", "jobs",
	"deployments", "replicasets", "persistentvolumes", "serviceaccounts", "namespaces"}

// cmDocDownstream are the spans a lock renewal causes in the
// GarbageCollector's monitor of the lock object (and its processEvent).
var cmDocDownstream = map[string]bool{"receive": true, "DeltaFIFO.Update": true, "RealFIFO.Update": true,
	"Pop": true, "HandleDeltas": true, "OnUpdate": true, "processEvent": true}

func cmDocSameSet(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

func cmDocFlags(r *docRun, instance string) (figure, error) {
	for _, s := range r.spansNamed(instance, "AddFlags") {
		if n, ok := s.Attributes.Int("flags.registered"); ok {
			return exactCount(int(n)), nil
		}
	}
	return figure{}, fmt.Errorf("%s %s: no AddFlags with flags.registered", r.name, instance)
}

// cmDocNotStarted is the reason of a start span's "not started" event.
func cmDocNotStarted(s traces.Span) (string, bool) {
	for _, e := range s.Events {
		if e.Name == "not started" {
			return e.Attributes.String("reason"), true
		}
	}
	return "", false
}

func cmDocReason(r *docRun, controller string) (figure, error) {
	for _, s := range r.controllerStarts("cm-0") {
		if s.Name == "start "+controller {
			if reason, ok := cmDocNotStarted(s); ok {
				return quoted(reason), nil
			}
			return figure{}, fmt.Errorf("%s started", controller)
		}
	}
	return figure{}, fmt.Errorf("no start %s", controller)
}

// cmDocIndex maps span IDs to spans, per run.
var (
	cmDocIndexMu sync.Mutex
	cmDocIndexes = map[*docRun]map[trace.SpanID]*traces.Span{}
)

func cmDocSpan(r *docRun, id trace.SpanID) *traces.Span {
	cmDocIndexMu.Lock()
	defer cmDocIndexMu.Unlock()
	idx, ok := cmDocIndexes[r]
	if !ok {
		idx = make(map[trace.SpanID]*traces.Span, len(r.spans))
		for i := range r.spans {
			idx[r.spans[i].SpanID] = &r.spans[i]
		}
		cmDocIndexes[r] = idx
	}
	return idx[id]
}

// cmDocOwner is the controller whose start span a span hangs under
// ("start NodeController" → NodeController), or "Run" for the process's
// own, or "".
func cmDocOwner(r *docRun, s traces.Span) string {
	for p := cmDocSpan(r, s.ParentSpanID); p != nil; p = cmDocSpan(r, p.ParentSpanID) {
		if name, ok := strings.CutPrefix(p.Name, "start "); ok && p.Attributes.String("kubeloom.controller.id") != "" {
			return name
		}
		if p.Name == "Run" {
			return "Run"
		}
	}
	return ""
}

// cmDocOwned counts an instance's goroutines of a name by owner.
func cmDocOwned(r *docRun, instance, goroutine string) map[string]int {
	out := map[string]int{}
	for _, s := range r.spansNamed(instance, goroutine) {
		if s.Attributes.String("goroutine.name") == goroutine {
			out[cmDocOwner(r, s)]++
		}
	}
	return out
}

type cmDocPipeline struct {
	goroutines int
	logging    bool
}

// cmDocPipelines are an instance's event pipelines by the controller that
// built them (one each).
func cmDocPipelines(r *docRun, instance string) map[string]cmDocPipeline {
	out := map[string]cmDocPipeline{}
	for _, name := range []string{"cm/event-broadcast-loop", "cm/event-log-watcher", "cm/event-sink-watcher"} {
		for owner, n := range cmDocOwned(r, instance, name) {
			p := out[owner]
			p.goroutines += n
			if name == "cm/event-log-watcher" {
				p.logging = true
			}
			out[owner] = p
		}
	}
	return out
}

// cmDocAlive counts an instance's goroutines alive at a time, by name, as
// /metrics does (the main goroutine is not one of them).
func cmDocAlive(r *docRun, instance string, at time.Duration) map[string]int {
	out := map[string]int{}
	in, err := r.instance(instance)
	if err != nil {
		return out
	}
	for _, l := range in.Lanes {
		if l.Goroutine == timeline.MainLane {
			continue
		}
		if r.at(l.Start) <= at && (l.Open || r.at(l.End) > at) {
			out[l.Goroutine]++
		}
	}
	return out
}

func cmDocAliveCount(r *docRun, instance, goroutine string) (figure, error) {
	n := cmDocAlive(r, instance, cmDocMetricsAt)[goroutine]
	if n == 0 {
		return figure{}, fmt.Errorf("%s %s: no %s alive at %s", r.name, instance, goroutine, cmDocMetricsAt)
	}
	return exactCount(n), nil
}

// cmDocMaster is leader_election_master_status of an instance at a time.
func cmDocMaster(r *docRun, instance string, at time.Duration) figure {
	for _, l := range r.lanes(instance, "cm/leader-renew") {
		if r.at(l.Start) <= at && (l.Open || r.at(l.End) > at) {
			return exactCount(1)
		}
	}
	return exactCount(0)
}

// cmDocLeaderTerm is a "became leader": who, and when.
type cmDocLeaderTerm struct {
	id string // the instance, era/cm-N
	at time.Time
}

// cmDocLeaderTerms are an era's "became leader" events, in time order.
func cmDocLeaderTerms(r *docRun, era string) []cmDocLeaderTerm {
	var terms []cmDocLeaderTerm
	for _, s := range r.spans {
		id := s.Resource.String("service.instance.id")
		if s.Name != "RunOrDie" || !strings.HasPrefix(id, era+"/") {
			continue
		}
		for _, e := range s.Events {
			if e.Name == "became leader" {
				terms = append(terms, cmDocLeaderTerm{id, e.Time})
			}
		}
	}
	sort.Slice(terms, func(i, j int) bool { return terms[i].at.Before(terms[j].at) })
	return terms
}

// cmDocLeaders are an era's replicas that led, in order.
func cmDocLeaders(r *docRun, era string) []string {
	var ids []string
	for _, t := range cmDocLeaderTerms(r, era) {
		ids = append(ids, t.id)
	}
	return ids
}

// cmDocFirstLeader is the replica (cm-0) that led an era first.
func cmDocFirstLeader(r *docRun, era string) (string, error) {
	leaders := cmDocLeaders(r, era)
	if len(leaders) == 0 {
		return "", fmt.Errorf("%s: nobody led in %s", r.name, era)
	}
	return strings.TrimPrefix(leaders[0], era+"/"), nil
}

// cmDocStandby is the first classic replica of cm-leader-failover that
// does not lead at first (each leads in turn later: the kill, the block).
func cmDocStandby(r *docRun) (string, error) {
	first, err := cmDocFirstLeader(r, "classic")
	if first == "cm-0" {
		return "classic/cm-1", err
	}
	return "classic/cm-0", err
}

type cmDocTerm struct {
	holder            string
	acquired, renewed time.Time
}

// cmDocLastTerm is the lock record the last leader of an era wrote: who,
// when it took the lock, its last renewal; and who held it before.
func cmDocLastTerm(r *docRun, era string) (cmDocTerm, string, error) {
	leaders := cmDocLeaders(r, era)
	if len(leaders) < 2 {
		return cmDocTerm{}, "", fmt.Errorf("%s: %d leaders in %s", r.name, len(leaders), era)
	}
	id := leaders[len(leaders)-1]
	holder := strings.TrimPrefix(id, era+"/")
	var t cmDocTerm
	t.holder = holder
	for _, e := range r.events(id, "became leader") {
		t.acquired = e.Time
	}
	for _, verb := range []string{"endpoints.Create", "endpoints.Update", "leases.Create", "leases.Update"} {
		for _, e := range r.events(id, verb) {
			if e.Attributes.String("holder") == holder && e.Time.After(t.renewed) {
				t.renewed = e.Time
			}
		}
	}
	if t.acquired.IsZero() || t.renewed.IsZero() {
		return t, "", fmt.Errorf("%s: %s never took or renewed the lock", r.name, id)
	}
	return t, strings.TrimPrefix(leaders[len(leaders)-2], era+"/"), nil
}

// cmDocRFC3339 is a time as metav1.Time writes it in JSON.
func cmDocRFC3339(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// cmDocKilled is the instance of an era that killLeader killed.
func cmDocKilled(r *docRun, era string) (runInstance, error) {
	for _, in := range r.sum.Instances {
		if strings.HasPrefix(in.ID, era+"/") && strings.Contains(in.Exit, "killLeader") {
			return in, nil
		}
	}
	return runInstance{}, fmt.Errorf("%s: nothing was killed in %s", r.name, era)
}

// cmDocObjects are the generated names (keys are namespace/name) of the
// objects whose key starts with prefix, as cm-0's spans name them, sorted.
// The create call itself only knows the prefix (generateName).
func cmDocObjects(r *docRun, prefix string) []string {
	var names []string
	for _, s := range r.spans {
		if s.Resource.String("service.instance.id") != "cm-0" {
			continue
		}
		if k := s.Attributes.String("k8s.object.key"); strings.HasPrefix(k, prefix) && len(k) > len(prefix) {
			names = append(names, k[strings.Index(k, "/")+1:])
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

func cmDocPodsOf(r *docRun, prefix string) (figure, error) {
	names := cmDocObjects(r, prefix)
	if len(names) == 0 {
		return figure{}, fmt.Errorf("%s: no pod %s…", r.name, prefix)
	}
	return exact(andList(names)), nil
}

// cmDocCreated is the name of the first object a create call of cm-0 made
// under a key prefix.
func cmDocCreated(r *docRun, call, prefix string) (figure, error) {
	for _, s := range r.spansNamed("cm-0", call) {
		if k := s.Attributes.String("k8s.object.key"); strings.HasPrefix(k, prefix) {
			return exact(k[strings.Index(k, "/")+1:]), nil
		}
	}
	return figure{}, fmt.Errorf("%s: no %s of %s…", r.name, call, prefix)
}

// cmDocSeeded is a seed's run of cm-leader-failover (seed 1 is its own).
func cmDocSeeded(d *docRuns, seed int64) *docRun {
	if seed == 1 {
		return d.of("cm-leader-failover")
	}
	return d.seeded("cm-leader-failover", seed)
}

// cmDocVariant is a run of a built-in in another era or with every
// iteration recorded.
func cmDocVariant(d *docRuns, name, era string, allIterations bool) (*docRun, error) {
	var e scenarios.Era
	if era != "" {
		var err error
		if e, err = scenarios.ParseEra(era); err != nil {
			return nil, err
		}
	}
	var flags []string
	if e != "" {
		flags = append(flags, "--era", string(e))
	}
	if allIterations {
		flags = append(flags, "--all-iterations")
	}
	return d.variant(name, fmt.Sprintf("era-%s-all-%v", era, allIterations), flags...), nil
}
