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

// The figures of docs/classroom.md and docs/zh/classroom.md: the lesson's
// "point at" notes, the answers and the exercises.
func init() {
	register(map[string]func(d *docRuns) (figure, error){
		// (a) informer-basics
		"ib.lanes": func(d *docRuns) (figure, error) { return exactCount(d.of("informer-basics").tl.LaneCount()), nil },
		"ib.listener-iterations": func(d *docRuns) (figure, error) {
			l, err := d.of("informer-basics").lane("informers", "informer/listener-run pods handler-1")
			if err != nil {
				return figure{}, err
			}
			return exactCount(len(l.Iterations)), nil
		},
		"ib.error-at": func(d *docRuns) (figure, error) {
			r := d.of("informer-basics")
			e, err := r.watchEvent("informers", "ERROR")
			return durationOf(r.at(e.Start), 100*time.Millisecond, 200*time.Millisecond), err
		},
		"ib.relist-at":      func(d *docRuns) (figure, error) { return d.of("informer-basics").relistAt("informers") },
		"ib.relist-updates": func(d *docRuns) (figure, error) { return d.of("informer-basics").relistUpdates("informers") },
		"ib.listener-lanes": func(d *docRuns) (figure, error) {
			r := d.of("informer-basics")
			return exactCount(len(r.lanes("informers", "informer/listener-pop")) + len(r.lanes("informers", "informer/listener-run"))), nil
		},

		// (b) cm-startup
		"cm.steps": func(d *docRuns) (figure, error) { return countOf(len(d.of("cm-startup").steps), 0.1), nil },
		"cm.lanes": func(d *docRuns) (figure, error) { return exactCount(d.of("cm-startup").tl.LaneCount()), nil },
		"cm.starts": func(d *docRuns) (figure, error) {
			return exactCount(len(d.of("cm-startup").controllerStarts("cm-0"))), nil
		},
		"cm.not-started": func(d *docRuns) (figure, error) {
			var names []string
			for _, s := range d.of("cm-startup").controllerStarts("cm-0") {
				for _, e := range s.Events {
					if e.Name == "not started" {
						names = append(names, strings.TrimPrefix(s.Name, "start "))
					}
				}
			}
			return exact(andList(names)), nil
		},
		"cm.renews": func(d *docRuns) (figure, error) {
			l, err := d.of("cm-startup").lane("cm-0", "cm/leader-renew")
			if err != nil {
				return figure{}, err
			}
			return countOf(len(l.Iterations), 0.05), nil
		},
		"cm.node-unknown-at": func(d *docRuns) (figure, error) {
			r := d.of("cm-startup")
			es := r.events("cm-0", "node status unknown")
			if len(es) == 0 {
				return figure{}, fmt.Errorf("no node status unknown event")
			}
			return durationOf(r.at(es[0].Time), time.Second, 5*time.Second), nil
		},

		// (c) kubelet-startup
		"ks.skipping-at": func(d *docRuns) (figure, error) {
			return d.of("kubelet-startup").iterationAt("node-1", "kubelet/main-loop", "skipping pod synchronization", 100*time.Millisecond)
		},
		"ks.configch-at": func(d *docRuns) (figure, error) {
			return d.of("kubelet-startup").iterationAt("node-1", "kubelet/main-loop", "configCh", 100*time.Millisecond)
		},
		"ks.configch-arms": func(d *docRuns) (figure, error) {
			// The configCh arms at the first one's instant that ADD a
			// source's first pods (then come the mirror pods of the static
			// pods, which the api source sends too, at the same instant in
			// virtual time).
			r := d.of("kubelet-startup")
			l, err := r.lane("node-1", "kubelet/main-loop")
			if err != nil {
				return figure{}, err
			}
			first, err := r.firstMark(l, l.Iterations, "configCh")
			if err != nil {
				return figure{}, err
			}
			sources := map[string]bool{}
			for _, m := range marks(l.Iterations, "configCh") {
				if m.Start.Equal(first.Start) && m.Attributes.String("kubelet.pod_update.op") == "ADD" {
					sources[m.Attributes.String("kubelet.pod_source")] = true
				}
			}
			return exactCount(len(sources)), nil
		},
		"ks.pod-workers": func(d *docRuns) (figure, error) {
			return exactCount(len(d.of("kubelet-startup").lanes("node-1", "kubelet/pod-worker"))), nil
		},
		"ks.probe-workers": func(d *docRuns) (figure, error) {
			return exactCount(len(d.of("kubelet-startup").lanes("node-1", "kubelet/probe-worker"))), nil
		},
		"ks.container-started-at": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-startup")
			es := r.events("node-1", "ContainerStarted")
			if len(es) == 0 {
				return figure{}, fmt.Errorf("no ContainerStarted event")
			}
			return durationOf(r.at(es[0].Time), 100*time.Millisecond, 200*time.Millisecond), nil
		},
		"ks.container-started": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-startup")
			es := r.events("node-1", "ContainerStarted")
			n := 0
			for _, e := range es {
				if e.Time.Sub(es[0].Time) < 10*time.Second {
					n++
				}
			}
			return exactCount(n), nil
		},
		"ks.pleg-iterations": func(d *docRuns) (figure, error) {
			l, err := d.of("kubelet-startup").lane("node-1", "kubelet/pleg-relist")
			if err != nil {
				return figure{}, err
			}
			n := 0
			for _, m := range l.Iterations {
				n += 1 + int(m.Skipped)
			}
			return countOf(n, 0.05), nil
		},
		"ks.pleg-recorded": func(d *docRuns) (figure, error) {
			l, err := d.of("kubelet-startup").lane("node-1", "kubelet/pleg-relist")
			if err != nil {
				return figure{}, err
			}
			return countOf(len(l.Iterations), 0.15), nil
		},
		"ks.container-gcs": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-startup")
			l, err := r.lane("node-1", "kubelet/container-gc")
			if err != nil {
				return figure{}, err
			}
			return exactCount(len(r.during(l.Iterations))), nil
		},
		"ks.image-gcs": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-startup")
			l, err := r.lane("node-1", "kubelet/image-gc")
			if err != nil {
				return figure{}, err
			}
			return exactCount(len(r.during(l.Iterations))), nil
		},
		"ks.image-gc-times": func(d *docRuns) (figure, error) {
			r := d.of("kubelet-startup")
			l, err := r.lane("node-1", "kubelet/image-gc")
			if err != nil {
				return figure{}, err
			}
			var at []string
			for _, m := range r.during(l.Iterations) {
				at = append(at, r.at(m.Start).Round(100*time.Millisecond).String())
			}
			return exact(andList(at)), nil
		},
		"ks.removed-images": func(d *docRuns) (figure, error) {
			return exactCount(len(d.of("kubelet-startup").spansNamed("node-1", "RemoveImage"))), nil
		},
		"ks.removed-image-names": func(d *docRuns) (figure, error) {
			var names []string
			for _, s := range d.of("kubelet-startup").spansNamed("node-1", "RemoveImage") {
				name := s.Attributes.String("container.image.name")
				names = append(names, name[strings.LastIndex(name, "/")+1:])
			}
			return exact(strings.Join(names, ", ")), nil
		},
		"ks.bytes-freed": func(d *docRuns) (figure, error) {
			return d.of("kubelet-startup").imageGCFigure("kubelet.imagefs.bytes_freed")
		},
		"ks.bytes-to-free": func(d *docRuns) (figure, error) {
			return d.of("kubelet-startup").imageGCFigure("kubelet.imagefs.bytes_to_free")
		},
		"ks.usage-after": func(d *docRuns) (figure, error) {
			return d.of("kubelet-startup").imageGCFigure("kubelet.imagefs.usage_percent_after")
		},
		"ks.usage-before": func(d *docRuns) (figure, error) {
			return d.of("kubelet-startup").imageGCFigure("kubelet.imagefs.usage_percent")
		},
		"fo.first-leader": func(d *docRuns) (figure, error) {
			return d.of("cm-leader-failover").leaderAt("classic", 30*time.Second)
		},
		"fo.leader-classic": func(d *docRuns) (figure, error) {
			return d.of("cm-leader-failover").newLeader("classic")
		},
		"fo.leader-modern": func(d *docRuns) (figure, error) {
			return d.of("cm-leader-failover").newLeader("modern")
		},
		"fo.restarts": func(d *docRuns) (figure, error) {
			r := d.of("cm-leader-failover")
			who, _, err := r.afterKill("classic")
			if err != nil {
				return figure{}, err
			}
			return exactCount(len(r.controllerStarts("classic/" + who))), nil
		},
		"fo.takeover-classic": func(d *docRuns) (figure, error) {
			return d.of("cm-leader-failover").takeover("classic")
		},
		"fo.takeover-modern": func(d *docRuns) (figure, error) {
			return d.of("cm-leader-failover").takeover("modern")
		},
		"fo.blocked": func(d *docRuns) (figure, error) {
			b, err := d.of("cm-leader-failover").lostRenewal("classic")
			return exact(b.who), err
		},
		"fo.lost-tries": func(d *docRuns) (figure, error) {
			b, err := d.of("cm-leader-failover").lostRenewal("classic")
			return exactCount(b.tries), err
		},
		"fo.lost-ticks": func(d *docRuns) (figure, error) {
			b, err := d.of("cm-leader-failover").lostRenewal("classic")
			return exactCount(b.ticks), err
		},
		"fo.lost-after-block": func(d *docRuns) (figure, error) {
			b, err := d.of("cm-leader-failover").lostRenewal("classic")
			return durationOf(b.lost-b.block, 100*time.Millisecond, 2*time.Second), err
		},
		"fo.lost-after-block-modern": func(d *docRuns) (figure, error) {
			b, err := d.of("cm-leader-failover").lostRenewal("modern")
			return durationOf(b.lost-b.block, 100*time.Millisecond, 2*time.Second), err
		},
		"fo.second-leader": func(d *docRuns) (figure, error) {
			b, err := d.of("cm-leader-failover").lostRenewal("classic")
			return exact(b.next), err
		},
		"fo.second-takeover": func(d *docRuns) (figure, error) {
			b, err := d.of("cm-leader-failover").lostRenewal("classic")
			return durationOf(b.took-b.lost, 100*time.Millisecond, 2*time.Second), err
		},
		"fo.classic-renew-takes": func(d *docRuns) (figure, error) {
			l, err := d.of("cm-leader-failover").lane("classic/cm-0", "cm/leader-renew")
			if err != nil || len(l.Iterations) == 0 {
				return figure{}, fmt.Errorf("no classic renew iterations: %v", err)
			}
			m := l.Iterations[0]
			return durationOf(m.End.Sub(m.Start), 100*time.Millisecond, 200*time.Millisecond), nil
		},

		// (e) goroutine-leak
		"gl.duration": func(d *docRuns) (figure, error) {
			return durationOf(d.of("goroutine-leak").tl.Duration(), time.Second, 0), nil
		},
		"gl.buffered-at": func(d *docRuns) (figure, error) {
			r := d.of("goroutine-leak")
			l, err := r.lane("informers", "informer/listener-pop pods handler-2")
			if err != nil {
				return figure{}, err
			}
			var at []string
			for _, m := range marks(l.Events, "buffered") {
				at = append(at, fmt.Sprintf("%s (pending %d)", r.at(m.Start).Round(100*time.Millisecond), pendingOf(m)))
			}
			return exact(andList(at)), nil
		},
		"gl.leftovers": func(d *docRuns) (figure, error) {
			var names []string
			for _, l := range d.of("goroutine-leak").sum.Leftovers {
				names = append(names, fmt.Sprintf("%s %s ×%d", l.Instance, l.Name, l.N))
			}
			return exact(strings.Join(names, ", ")), nil
		},

		// exercise 1: cluster-basics
		"cb.unknown-at": func(d *docRuns) (figure, error) {
			r := d.of("cluster-basics")
			at, err := r.nodeUnknownAt("node-2")
			return durationOf(at, time.Second, 5*time.Second), err
		},
		"cb.unknown-after-stop": func(d *docRuns) (figure, error) {
			at, err := d.of("cluster-basics").nodeUnknownAt("node-2")
			return durationOf(at-2*time.Minute, time.Second, 5*time.Second), err
		},
		"cb.last-status": func(d *docRuns) (figure, error) {
			r := d.of("cluster-basics")
			at, err := r.lastIterationBefore("node-2", "kubelet/node-status", 2*time.Minute)
			return durationOf(at, 100*time.Millisecond, time.Second), err
		},
		"cb.unknown-after-status": func(d *docRuns) (figure, error) {
			r := d.of("cluster-basics")
			last, err := r.lastIterationBefore("node-2", "kubelet/node-status", 2*time.Minute)
			if err != nil {
				return figure{}, err
			}
			at, err := r.nodeUnknownAt("node-2")
			return durationOf(at-last, time.Second, 5*time.Second), err
		},
		"cb.evicted-at": func(d *docRuns) (figure, error) {
			r := d.of("cluster-basics")
			l := r.lanes("cm-0", "controller/node/pod-evictor")
			for _, lane := range l {
				for _, m := range lane.Calls {
					if m.Name == "pods.Delete" {
						return durationOf(r.at(m.Start), time.Second, time.Second), nil
					}
				}
			}
			return figure{}, fmt.Errorf("the pod evictor deleted nothing")
		},

		// exercise 2: informer-eras
		"eras.relist-gap-classic": func(d *docRuns) (figure, error) { return d.of("informer-eras").relistGap("classic/informers") },
		"eras.relist-gap-modern":  func(d *docRuns) (figure, error) { return d.of("informer-eras").relistGap("modern/informers") },
		"eras.listener-iterations-classic": func(d *docRuns) (figure, error) {
			l, err := d.of("informer-eras").lane("classic/informers", "informer/listener-run pods handler-1")
			if err != nil {
				return figure{}, err
			}
			return exactCount(len(l.Iterations)), nil
		},
		"eras.listener-iterations-modern": func(d *docRuns) (figure, error) {
			l, err := d.of("informer-eras").lane("modern/informers", "informer/listener-run pods handler-1")
			if err != nil {
				return figure{}, err
			}
			return exactCount(len(l.Iterations)), nil
		},
	})
}

// during keeps the marks that start before the scenario's end: a loop
// whose period divides the duration also runs at the very end in virtual
// time, while a live run is stopping.
func (r *docRun) during(ms []timeline.Mark) []timeline.Mark {
	var out []timeline.Mark
	for _, m := range ms {
		if r.at(m.Start) < r.sum.Duration {
			out = append(out, m)
		}
	}
	return out
}

// andList writes "a, b and c".
func andList(s []string) string {
	switch len(s) {
	case 0:
		return "none"
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

func pendingOf(m timeline.Mark) int64 {
	n, _ := m.Attributes.Int("pending")
	return n
}

// watchEvent is the first watch event of a type on an instance's
// reflector lane.
func (r *docRun) watchEvent(instance, typ string) (timeline.Mark, error) {
	l, err := r.lane(instance, "reflector/list-watch")
	if err != nil {
		return timeline.Mark{}, err
	}
	for _, m := range marks(l.Events, "watch event") {
		if m.Attributes.String("k8s.event.type") == typ {
			return m, nil
		}
	}
	return timeline.Mark{}, fmt.Errorf("%s %s: no %s watch event", r.name, instance, typ)
}

// relistUpdates are the pods handler-1 gets an OnUpdate for after the
// broken watch's ERROR: the re-list's.
func (r *docRun) relistUpdates(instance string) (figure, error) {
	l, err := r.lane(instance, "informer/listener-run pods handler-1")
	if err != nil {
		return figure{}, err
	}
	e, err := r.watchEvent(instance, "ERROR")
	if err != nil {
		return figure{}, err
	}
	var names []string
	for _, m := range l.Iterations {
		if m.Start.After(e.Start) && m.Name == "OnUpdate" {
			names = append(names, strings.TrimPrefix(m.Attributes.String("k8s.object.key"), "default/"))
		}
	}
	slices.Sort(names) // the re-list replaces the FIFO's contents in map order
	return exact(andList(names)), nil
}

// relistAt is when the reflector's second ListAndWatch started.
func (r *docRun) relistAt(instance string) (figure, error) {
	l, err := r.lane(instance, "reflector/list-watch")
	if err != nil {
		return figure{}, err
	}
	if len(l.Iterations) < 2 {
		return figure{}, fmt.Errorf("%s %s: the reflector listed once", r.name, instance)
	}
	return durationOf(r.at(l.Iterations[1].Start), 100*time.Millisecond, 300*time.Millisecond), nil
}

// relistGap is the time from the ERROR watch event to the second
// ListAndWatch, in seconds.
func (r *docRun) relistGap(instance string) (figure, error) {
	l, err := r.lane(instance, "reflector/list-watch")
	if err != nil {
		return figure{}, err
	}
	e, err := r.watchEvent(instance, "ERROR")
	if err != nil || len(l.Iterations) < 2 {
		return figure{}, fmt.Errorf("%s %s: no re-list after an ERROR (%v)", r.name, instance, err)
	}
	return decimal(l.Iterations[1].Start.Sub(e.Start).Seconds(), 2, 0.05), nil
}

// iterationAt is when a lane's first iteration of a name started.
func (r *docRun) iterationAt(instance, label, name string, prec time.Duration) (figure, error) {
	l, err := r.lane(instance, label)
	if err != nil {
		return figure{}, err
	}
	m, err := r.firstMark(l, l.Iterations, name)
	return durationOf(r.at(m.Start), prec, 2*prec), err
}

// lastIterationBefore is when a goroutine's last iteration before a time started.
func (r *docRun) lastIterationBefore(instance, label string, before time.Duration) (time.Duration, error) {
	l, err := r.lane(instance, label)
	if err != nil {
		return 0, err
	}
	var last time.Duration = -1
	for _, m := range l.Iterations {
		if at := r.at(m.Start); at < before {
			last = at
		}
	}
	if last < 0 {
		return 0, fmt.Errorf("%s: no %s iteration before %s", r.name, label, before)
	}
	return last, nil
}

// nodeUnknownAt is when the node controller marked a node Unknown.
func (r *docRun) nodeUnknownAt(node string) (time.Duration, error) {
	for _, e := range r.events("cm-0", "node status unknown") {
		if e.Attributes.String("k8s.node.name") == node {
			return r.at(e.Time), nil
		}
	}
	return 0, fmt.Errorf("%s: %s is never marked Unknown", r.name, node)
}

// controllerStarts are the "start <Name>" spans of an instance's first
// StartControllers, in order.
func (r *docRun) controllerStarts(instance string) []traces.Span {
	var out []traces.Span
	for _, s := range r.spans {
		if strings.HasPrefix(s.Name, "start ") && s.Attributes.String("kubeloom.controller.id") != "" && s.Resource.String("service.instance.id") == instance {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start.Before(out[j].Start) })
	return out
}

// imageGCFigure is an attribute of the image GC's iteration at 5m.
func (r *docRun) imageGCFigure(key string) (figure, error) {
	for _, s := range r.spansNamed("node-1", "Images/GarbageCollect") {
		if _, ok := s.Attributes.Int("kubelet.imagefs.bytes_freed"); !ok {
			continue
		}
		n, ok := s.Attributes.Int(key)
		if !ok {
			return figure{}, fmt.Errorf("the image GC that freed space has no %s", key)
		}
		return exactCount(int(n)), nil
	}
	return figure{}, fmt.Errorf("%s: no image GC freed anything", r.name)
}

// leaderAt is the replica that led an era at a time (its "became leader").
func (r *docRun) leaderAt(era string, at time.Duration) (figure, error) {
	leader := ""
	var when time.Duration = -1
	for _, s := range r.spans {
		id := s.Resource.String("service.instance.id")
		if !strings.HasPrefix(id, era+"/") || s.Name != "RunOrDie" {
			continue
		}
		for _, e := range s.Events {
			if t := r.at(e.Time); e.Name == "became leader" && t <= at && t > when {
				leader, when = strings.TrimPrefix(id, era+"/"), t
			}
		}
	}
	if leader == "" {
		return figure{}, fmt.Errorf("no leader of %s at %s", era, at)
	}
	return exact(leader), nil
}

// takeover is the time from the killLeader action to the next "became
// leader" in an era.
func (r *docRun) takeover(era string) (figure, error) {
	_, d, err := r.afterKill(era)
	return durationOf(d, 100*time.Millisecond, 2*time.Second), err
}

// newLeader is the replica that took over after the killLeader action.
func (r *docRun) newLeader(era string) (figure, error) {
	who, _, err := r.afterKill(era)
	return exact(who), err
}

// afterKill finds the first "became leader" of an era after the
// killLeader action: who, and how long after the kill.
func (r *docRun) afterKill(era string) (string, time.Duration, error) {
	var kill time.Duration = -1
	for _, s := range r.spansNamed("", "action/killLeader") {
		kill = r.at(s.Start)
	}
	if kill < 0 {
		return "", 0, fmt.Errorf("%s: no killLeader", r.name)
	}
	who, at := r.becameLeaderAfter(era, kill)
	if who == "" {
		return "", 0, fmt.Errorf("%s: nobody took over in %s", r.name, era)
	}
	return who, at - kill, nil
}

// becameLeaderAfter is the replica of an era whose "became leader" comes
// first after the time after, and when ("" if none).
func (r *docRun) becameLeaderAfter(era string, after time.Duration) (string, time.Duration) {
	for _, t := range cmDocLeaderTerms(r, era) {
		if at := r.at(t.at); at > after {
			return strings.TrimPrefix(t.id, era+"/"), at
		}
	}
	return "", -1
}

// lostRenewal is what blockLeaderLock did in an era: whom it blocked, when,
// the tries and poller ticks of the renewal that was lost, when the
// replica stopped leading, and who took over when.
type lostRenewal struct {
	who, next         string
	block, lost, took time.Duration
	tries, ticks      int
}

func (r *docRun) lostRenewal(era string) (lostRenewal, error) {
	var b lostRenewal
	var inst string
	for _, s := range r.spansNamed("", "action/blockLeaderLock") {
		if id := s.Attributes.String("kubeloom.blocked"); strings.HasPrefix(id, era+"/") {
			inst, b.who, b.block = id, strings.TrimPrefix(id, era+"/"), r.at(s.Start)
		}
	}
	if inst == "" {
		return b, fmt.Errorf("%s: no blockLeaderLock in %s", r.name, era)
	}
	var renew traces.Span
	for _, s := range r.spansNamed(inst, "renew") {
		if s.Start.After(renew.Start) {
			renew = s
		}
	}
	b.lost = -1
	for _, e := range renew.Events {
		switch e.Name {
		case "tryAcquireOrRenew":
			b.tries++
		case "stopped leading":
			b.lost = r.at(e.Time)
		}
	}
	if b.lost < 0 {
		return b, fmt.Errorf("%s: %s did not stop leading after the block", r.name, inst)
	}
	for _, p := range r.spansNamed(inst, "cm/leader-poll-ticker") {
		if p.ParentSpanID != renew.SpanID {
			continue
		}
		for _, s := range r.spans {
			if s.ParentSpanID == p.SpanID && s.Name == "tick" {
				b.ticks++
			}
		}
	}
	if b.next, b.took = r.becameLeaderAfter(era, b.lost); b.next == "" {
		return b, fmt.Errorf("%s: nobody took over in %s after %s lost its lease", r.name, era, b.who)
	}
	return b, nil
}
