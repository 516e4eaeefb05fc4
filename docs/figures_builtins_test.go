package docs

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// The figures of the built-in scenarios' texts (scenarios/builtin/*.yaml:
// metadata.description, watchFor, their zh versions and the header
// comments), from the docs' runs of those scenarios. The names are
// sc.<scenario>.<what>: cm (cm-startup), fo (cm-leader-failover), cb
// (cluster-basics), gl (goroutine-leak), ib (informer-basics), eras
// (informer-eras), lc (kubelet-pod-lifecycle), ks (kubelet-startup).
func init() {
	register(map[string]func(d *docRuns) (figure, error){
		// cm-startup
		"sc.cm.main-at": func(d *docRuns) (figure, error) {
			r := d.of("cm-startup")
			l, err := r.lane("cm-0", timeline.MainLane)
			if err != nil {
				return figure{}, err
			}
			return durationOf(r.at(l.Start), 10*time.Millisecond, 50*time.Millisecond), nil
		},
		"sc.cm.preloaded-by": func(d *docRuns) (figure, error) {
			// When the last of the controllers' first acts on the preloaded
			// objects happened: the ReplicaSet and its pods, the DaemonSet's
			// pod, db-0, the CSR approved, the ServiceAccounts. (Not the claim:
			// the PersistentVolumeController binds it at once or at its 15s
			// resync, depending on which of its informers synced first.)
			r := d.of("cm-startup")
			var last time.Duration
			for _, want := range []struct{ call, prefix string }{
				{"replicasets.Create", "default/web-"},
				{"pods.Create", "default/web-"},
				{"pods.Create", "kube-system/node-agent-"},
				{"pods.Create", "default/db-0"},
				{"certificatesigningrequests.UpdateApproval", "node-1-client"},
				{"serviceaccounts.Create", ""},
			} {
				at, err := scLastOfFirsts(r, "cm-0", want.call, want.prefix)
				if err != nil {
					return figure{}, err
				}
				last = max(last, at)
			}
			return durationOf(last, 10*time.Millisecond, 100*time.Millisecond), nil
		},
		"sc.cm.sa-namespaces": func(d *docRuns) (figure, error) {
			ns := map[string]bool{}
			for _, s := range d.of("cm-startup").spansNamed("cm-0", "serviceaccounts.Create") {
				if k := s.Attributes.String("k8s.object.key"); strings.HasSuffix(k, "/default") && s.Attributes.String("error") == "" {
					ns[strings.TrimSuffix(k, "/default")] = true
				}
			}
			return exactCount(len(ns)), nil
		},

		// cm-leader-failover
		"sc.fo.first-leader": func(d *docRuns) (figure, error) {
			first, _, err := scFirstLeaders(d.of("cm-leader-failover"))
			return exact(first), err
		},
		"sc.fo.first-starts": func(d *docRuns) (figure, error) {
			r := d.of("cm-leader-failover")
			first, eras, err := scFirstLeaders(r)
			if err != nil {
				return figure{}, err
			}
			n := -1
			for _, era := range eras {
				got := len(r.controllerStarts(era + "/" + first))
				if n >= 0 && got != n {
					return figure{}, fmt.Errorf("the first leaders start %d and %d controllers", n, got)
				}
				n = got
			}
			return exactCount(n), nil
		},

		// cluster-basics
		"sc.cb.replicaset": func(d *docRuns) (figure, error) {
			return scCreated(d.of("cluster-basics"), "cm-0", "replicasets.Create", "default/web-")
		},
		"sc.cb.binds": func(d *docRuns) (figure, error) {
			r := d.of("cluster-basics")
			return exactCount(len(scBindsPerNode(r, 0, 2*time.Minute)[""])), nil
		},
		"sc.cb.pods-per-node": func(d *docRuns) (figure, error) {
			binds := scBindsPerNode(d.of("cluster-basics"), 0, 2*time.Minute)
			n := -1
			for _, node := range []string{"node-1", "node-2"} {
				got := len(binds[node])
				if n >= 0 && got != n {
					return figure{}, fmt.Errorf("node-1 runs %d pods, node-2 %d", n, got)
				}
				n = got
			}
			return exactCount(n), nil
		},
		"sc.cb.running-by": func(d *docRuns) (figure, error) {
			// The status manager's last write of phase Running before the
			// kubelet stops: the Deployment's four pods.
			r := d.of("cluster-basics")
			var last time.Duration = -1
			for _, s := range r.spans {
				if s.Name == "syncPod" && s.Attributes.String("goroutine.name") == "kubelet/status-manager" &&
					s.Attributes.String("k8s.pod.phase") == "Running" && r.at(s.Start) < 2*time.Minute {
					last = max(last, r.at(s.Start))
				}
			}
			if last < 0 {
				return figure{}, fmt.Errorf("no pod ran before 2m")
			}
			return durationOf(last, 100*time.Millisecond, time.Second), nil
		},
		"sc.cb.evicted": func(d *docRuns) (figure, error) {
			r := d.of("cluster-basics")
			n := 0
			for _, l := range r.lanes("cm-0", "controller/node/pod-evictor") {
				n += len(marks(l.Calls, "pods.Delete"))
			}
			return exactCount(n), nil
		},
		"sc.cb.replacements": func(d *docRuns) (figure, error) {
			r := d.of("cluster-basics")
			return exactCount(len(scBindsPerNode(r, 2*time.Minute, r.sum.Duration)[""])), nil
		},

		// goroutine-leak
		"sc.gl.leftover": func(d *docRuns) (figure, error) {
			var names []string
			for _, l := range d.of("goroutine-leak").sum.Leftovers {
				names = append(names, l.Name)
			}
			slices.Sort(names)
			return exact(andList(slices.Compact(names))), nil
		},
		"sc.gl.leak-iterations": func(d *docRuns) (figure, error) {
			l, err := d.of("goroutine-leak").lane("informers", "informer/listener-run pods handler-2")
			if err != nil {
				return figure{}, err
			}
			return exactCount(len(l.Iterations)), nil
		},

		// informer-basics
		"sc.ib.list-items":     func(d *docRuns) (figure, error) { return scListItems(d.of("informer-basics"), 0, "informers") },
		"sc.ib.relist-items":   func(d *docRuns) (figure, error) { return scListItems(d.of("informer-basics"), 1, "informers") },
		"sc.ib.initial-pops":   func(d *docRuns) (figure, error) { return scInitialPops(d.of("informer-basics"), "informers") },
		"sc.ib.initial-onadds": func(d *docRuns) (figure, error) { return scInitialOnAdds(d.of("informer-basics"), "informers") },
		"sc.ib.listeners": func(d *docRuns) (figure, error) {
			return scListeners(d.of("informer-basics"), "informers", 0, time.Hour)
		},

		// informer-eras
		"sc.eras.list-items": func(d *docRuns) (figure, error) {
			return scSameInEras(d.of("informer-eras"), func(r *docRun, in string) (figure, error) { return scListItems(r, 0, in) })
		},
		"sc.eras.initial-pops": func(d *docRuns) (figure, error) {
			return scSameInEras(d.of("informer-eras"), scInitialPops)
		},
		"sc.eras.initial-onadds": func(d *docRuns) (figure, error) {
			return scSameInEras(d.of("informer-eras"), scInitialOnAdds)
		},
		"sc.eras.max-deltas": func(d *docRuns) (figure, error) {
			n := int64(-1)
			for _, s := range d.of("informer-eras").spansNamed("", "Pop") {
				if k, ok := s.Attributes.Int("deltas"); ok {
					n = max(n, k)
				}
			}
			if n < 0 {
				return figure{}, fmt.Errorf("no Pop has deltas")
			}
			return exactCount(int(n)), nil
		},
		"sc.eras.relist-classic": func(d *docRuns) (figure, error) { return d.of("informer-eras").relistAt("classic/informers") },
		"sc.eras.relist-modern":  func(d *docRuns) (figure, error) { return d.of("informer-eras").relistAt("modern/informers") },
		"sc.eras.relist-updates": func(d *docRuns) (figure, error) {
			return d.of("informer-eras").relistUpdates("classic/informers")
		},
		"sc.eras.modern-relist-listeners": func(d *docRuns) (figure, error) {
			r := d.of("informer-eras")
			e, err := r.watchEvent("modern/informers", "ERROR")
			if err != nil {
				return figure{}, err
			}
			return scListeners(r, "modern/informers", r.at(e.Start), time.Hour)
		},

		// kubelet-pod-lifecycle
		"sc.lc.first-start-at": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-pod-lifecycle")
			s := scByStart(r.spansNamed("node-1", "StartContainer"))
			if len(s) == 0 {
				return figure{}, fmt.Errorf("no container started")
			}
			return durationOf(r.at(s[0].Start), 100*time.Millisecond, 500*time.Millisecond), nil
		},
		"sc.lc.web-ready-at": func(d *docRuns) (figure, error) {
			return scReadyAt(d.of("kubelet-pod-lifecycle"), "web")
		},
		"sc.lc.crash-first-death": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-pod-lifecycle")
			deaths := scCrashDeaths(r)
			if len(deaths) == 0 {
				return figure{}, fmt.Errorf("crasher never died")
			}
			return durationOf(deaths[0], time.Second, time.Second), nil
		},
		"sc.lc.backoffs": func(d *docRuns) (figure, error) {
			// From each death of crasher to the restart after it, for the
			// restarts that waited (all but the first).
			r := d.of("kubelet-pod-lifecycle")
			deaths := scCrashDeaths(r)
			var waits []string
			for _, s := range scByStart(r.spansNamed("node-1", "StartContainer")) {
				n, _ := s.Attributes.Int("container.attempt")
				if s.Attributes.String("container.name") != "crash" || n < 2 {
					continue
				}
				var death time.Duration = -1
				for _, t := range deaths {
					if t < r.at(s.Start) {
						death = t
					}
				}
				if death < 0 {
					return figure{}, fmt.Errorf("crasher's attempt %d follows no death", n)
				}
				waits = append(waits, (r.at(s.Start) - death).Round(time.Second).String())
			}
			return exact(andList(waits)), nil
		},
		"sc.lc.gc-keep-at": func(d *docRuns) (figure, error) {
			// The container GCs that removed containers before the one
			// that removed all of web's.
			r := d.of("kubelet-pod-lifecycle")
			web, err := scWebGCAt(r)
			if err != nil {
				return figure{}, err
			}
			l, err := r.lane("node-1", "kubelet/container-gc")
			if err != nil {
				return figure{}, err
			}
			var at []string
			for _, m := range l.Iterations {
				if n, _ := m.Attributes.Int("kubelet.containers_removed"); n > 0 && m.Start.Before(web) {
					at = append(at, r.at(m.Start).Round(time.Second).String())
				}
			}
			return exact(andList(at)), nil
		},

		// kubelet-startup
		"sc.ks.main-at": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-startup")
			l, err := r.lane("node-1", timeline.MainLane)
			if err != nil {
				return figure{}, err
			}
			return durationOf(r.at(l.Start), 10*time.Millisecond, 50*time.Millisecond), nil
		},
		"sc.ks.register-at": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-startup")
			s := scByStart(r.spansNamed("node-1", "nodes.Create"))
			if len(s) == 0 {
				return figure{}, fmt.Errorf("node-1 never registered")
			}
			return durationOf(r.at(s[0].Start), 10*time.Millisecond, 100*time.Millisecond), nil
		},
		"sc.ks.mirror-creates": func(d *docRuns) (figure, error) {
			pods := map[string]bool{}
			for _, s := range d.of("kubelet-startup").spansNamed("node-1", "pods.Create") {
				if p := s.Attributes.String("kubelet.mirror_pod"); p != "" {
					pods[p] = true
				}
			}
			return exactCount(len(pods)), nil
		},
		"sc.ks.ready-at": func(d *docRuns) (figure, error) {
			return scReadyAt(d.of("kubelet-startup"), "web")
		},
	})
}

// scLastOfFirsts is when the first of an instance's calls on an object
// (key prefix; "" for any) happened, or for several objects under the
// prefix, the latest of their first calls.
func scLastOfFirsts(r *docRun, instance, call, prefix string) (time.Duration, error) {
	first := map[string]time.Duration{}
	for _, s := range r.spansNamed(instance, call) {
		k := s.Attributes.String("k8s.object.key")
		if !strings.HasPrefix(k, prefix) || s.Attributes.String("error") != "" {
			continue
		}
		if at, ok := first[k]; !ok || r.at(s.Start) < at {
			first[k] = r.at(s.Start)
		}
	}
	if len(first) == 0 {
		return 0, fmt.Errorf("%s: no %s of %s…", r.name, call, prefix)
	}
	var last time.Duration
	for _, at := range first {
		last = max(last, at)
	}
	return last, nil
}

// scCreated is the name of the first object an instance's create call
// made under a key prefix.
func scCreated(r *docRun, instance, call, prefix string) (figure, error) {
	for _, s := range scByStart(r.spansNamed(instance, call)) {
		if k := s.Attributes.String("k8s.object.key"); strings.HasPrefix(k, prefix) && s.Attributes.String("error") == "" {
			return exact(k[strings.Index(k, "/")+1:]), nil
		}
	}
	return figure{}, fmt.Errorf("%s: no %s of %s…", r.name, call, prefix)
}

// scFirstLeaders is the replica that led first in every era of
// cm-leader-failover (an error if the eras differ), and the eras.
func scFirstLeaders(r *docRun) (string, []string, error) {
	eras := []string{"classic", "modern"}
	first := ""
	for _, era := range eras {
		who, when := "", time.Duration(-1)
		for _, s := range r.spansNamed("", "RunOrDie") {
			id := s.Resource.String("service.instance.id")
			if !strings.HasPrefix(id, era+"/") {
				continue
			}
			for _, e := range s.Events {
				if t := r.at(e.Time); e.Name == "became leader" && (when < 0 || t < when) {
					who, when = strings.TrimPrefix(id, era+"/"), t
				}
			}
		}
		if who == "" {
			return "", nil, fmt.Errorf("%s: nobody led in %s", r.name, era)
		}
		if first != "" && who != first {
			return "", nil, fmt.Errorf("%s: %s led first in one era, %s in the other", r.name, first, who)
		}
		first = who
	}
	return first, eras, nil
}

// scBindsPerNode are the pods scheduler/bind bound in [from, to), by node
// ("" for all).
func scBindsPerNode(r *docRun, from, to time.Duration) map[string][]string {
	out := map[string][]string{}
	for _, s := range r.spansNamed("scenario", "scheduleOne") {
		node := s.Attributes.String("k8s.node.name")
		if at := r.at(s.Start); at < from || at >= to || node == "" {
			continue
		}
		pod := s.Attributes.String("k8s.object.key")
		out[node] = append(out[node], pod)
		out[""] = append(out[""], pod)
	}
	return out
}

// scListItems is how many items an informer's n-th pods.List returned.
func scListItems(r *docRun, n int, instance string) (figure, error) {
	lists := scByStart(r.spansNamed(instance, "pods.List"))
	if len(lists) <= n {
		return figure{}, fmt.Errorf("%s %s: %d pods.List", r.name, instance, len(lists))
	}
	items, ok := lists[n].Attributes.Int("k8s.list.items")
	if !ok {
		return figure{}, fmt.Errorf("%s %s: pods.List has no k8s.list.items", r.name, instance)
	}
	return exactCount(int(items)), nil
}

// scInitialPops are the objects the process loop popped from the first
// list, in order.
func scInitialPops(r *docRun, instance string) (figure, error) {
	var names []string
	for _, s := range scByStart(r.spansNamed(instance, "Pop")) {
		if s.Attributes["isInInitialList"] == true {
			names = append(names, strings.TrimPrefix(s.Attributes.String("k8s.object.key"), "default/"))
		}
	}
	if len(names) == 0 {
		return figure{}, fmt.Errorf("%s %s: nothing popped from the first list", r.name, instance)
	}
	return exact(andList(names)), nil
}

// scInitialOnAdds is how many OnAdd calls of the first list each handler
// got (the same for all).
func scInitialOnAdds(r *docRun, instance string) (figure, error) {
	per := map[string]int{}
	for _, s := range r.spansNamed(instance, "OnAdd") {
		if s.Attributes["isInInitialList"] == true {
			per[s.Attributes.String("informer.handler")]++
		}
	}
	n := -1
	for h, got := range per {
		if n >= 0 && got != n {
			return figure{}, fmt.Errorf("%s %s: handlers got %d and %d OnAdd (%s)", r.name, instance, n, got, h)
		}
		n = got
	}
	if n < 0 {
		return figure{}, fmt.Errorf("%s %s: no OnAdd", r.name, instance)
	}
	return exactCount(n), nil
}

// scListeners is the listeners= of an informer's distribute events in
// [from, to) (an error when they differ).
func scListeners(r *docRun, instance string, from, to time.Duration) (figure, error) {
	seen := map[int64]bool{}
	for _, s := range r.spans {
		if s.Resource.String("service.instance.id") != instance {
			continue
		}
		for _, e := range s.Events {
			if at := r.at(e.Time); e.Name == "distribute" && at >= from && at < to {
				if n, ok := e.Attributes.Int("listeners"); ok {
					seen[n] = true
				}
			}
		}
	}
	if len(seen) != 1 {
		return figure{}, fmt.Errorf("%s %s: distribute events with %d different listeners= values", r.name, instance, len(seen))
	}
	for n := range seen {
		return exactCount(int(n)), nil
	}
	panic("unreachable")
}

// scSameInEras is a figure of the informer of each era, which must be the
// same in both.
func scSameInEras(r *docRun, f func(r *docRun, instance string) (figure, error)) (figure, error) {
	var out figure
	for i, in := range []string{"classic/informers", "modern/informers"} {
		fig, err := f(r, in)
		if err != nil {
			return figure{}, err
		}
		if i > 0 && fig.text != out.text {
			return figure{}, fmt.Errorf("%s: classic gives %q, modern %q", r.name, out.text, fig.text)
		}
		out = fig
	}
	return out, nil
}

// scCrashDeaths are when crasher's container died (PLEG's ContainerDied).
func scCrashDeaths(r *docRun) []time.Duration {
	var out []time.Duration
	for _, e := range r.events("node-1", "ContainerDied") {
		if e.Attributes.String("container.name") == "crash" {
			out = append(out, r.at(e.Time))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return slices.Compact(out)
}

// scReadyAt is when the readiness prober first found a container ready.
func scReadyAt(r *docRun, container string) (figure, error) {
	for _, s := range scByStart(r.spansNamed("node-1", "updateReadiness")) {
		if s.Attributes.String("container.name") == container && s.Attributes["kubelet.ready"] == true {
			return durationOf(r.at(s.Start), time.Second, time.Second), nil
		}
	}
	return figure{}, fmt.Errorf("%s: %s never became ready", r.name, container)
}

// scByStart sorts spans by their start (stable).
func scByStart(spans []traces.Span) []traces.Span {
	out := slices.Clone(spans)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start.Before(out[j].Start) })
	return out
}

// scWebGCAt is when the first container GC after the kubelet deleted web
// removed web's containers.
func scWebGCAt(r *docRun) (time.Time, error) {
	m, _, err := r.kdocWebGC()
	return m.Start, err
}
