package docs

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/traces"
)

// The figures of docs/jaeger.md, docs/scenarios.md and their Chinese
// versions (docs/zh/).
func init() {
	figs := map[string]func(d *docRuns) (figure, error){
		// jaeger.md: what a push of cm-startup sends.
		"js.cm-services": func(d *docRuns) (figure, error) {
			return exact(andList(jsServices(d.of("cm-startup").spans))), nil
		},
		"js.cm-spans": func(d *docRuns) (figure, error) { return about(len(d.of("cm-startup").spans), 0.1), nil },
		"js.cm-traces": func(d *docRuns) (figure, error) {
			return exactCount(len(jsTraces(d.of("cm-startup").spans))), nil
		},
		"js.cm-range": func(d *docRuns) (figure, error) {
			r := d.of("cm-startup")
			first, last := jsStartRange(r.spans)
			return durationOf(last.Sub(first), time.Second, 5*time.Second), nil
		},

		// jaeger.md: the informers trace of informer-basics and its links.
		"js.ib-spans": func(d *docRuns) (figure, error) {
			t, err := jsTrace(d.of("informer-basics"), "informers")
			return countOf(t.spans, 0.05), err
		},
		"js.ib-links": func(d *docRuns) (figure, error) {
			t, err := jsTrace(d.of("informer-basics"), "informers")
			return countOf(t.links, 0.05), err
		},
		"js.ib-chain": func(d *docRuns) (figure, error) { return jsCauseChain(d.of("informer-basics"), "default/web-3") },

		// jaeger.md: the scenario's own trace, and how far the biggest
		// ones are past Jaeger UI's slow mark of 2,000 spans.
		"js.scenario-trace-min": func(d *docRuns) (figure, error) {
			lo, _, err := jsScenarioTraces(d)
			return exactCount(lo), err
		},
		"js.scenario-trace-max": func(d *docRuns) (figure, error) {
			_, hi, err := jsScenarioTraces(d)
			return exactCount(hi), err
		},
		"js.slow-cm-startup": func(d *docRuns) (figure, error) {
			t, err := jsTrace(d.of("cm-startup"), "cm-0")
			return decimal(float64(t.spans)/2000, 1, 0.3), err
		},
		"js.slow-cluster-basics": func(d *docRuns) (figure, error) {
			t, err := jsTrace(d.of("cluster-basics"), "cm-0")
			return decimal(float64(t.spans)/2000, 1, 0.3), err
		},
		"js.eras-modern-spans": func(d *docRuns) (figure, error) {
			t, err := jsTrace(d.of("informer-eras"), "modern/informers")
			return countOf(t.spans, 0.05), err
		},
		"js.cb-node-1-spans": func(d *docRuns) (figure, error) {
			t, err := jsTrace(d.of("cluster-basics"), "node-1")
			return about(t.spans, 0.1), err
		},
		"js.cb-node-2-spans": func(d *docRuns) (figure, error) {
			t, err := jsTrace(d.of("cluster-basics"), "node-2")
			return about(t.spans, 0.1), err
		},

		// jaeger.md: cm-startup cut to 30s.
		"js.cm-30s-spans": func(d *docRuns) (figure, error) {
			r, err := jsShortRun(d, "cm-startup", 30*time.Second)
			if err != nil {
				return figure{}, err
			}
			t, err := jsTrace(r, "cm-0")
			return countOf(t.spans, 0.1), err
		},
		"js.cm-30s-share": func(d *docRuns) (figure, error) {
			r, err := jsShortRun(d, "cm-startup", 30*time.Second)
			if err != nil {
				return figure{}, err
			}
			short, err := jsTrace(r, "cm-0")
			if err != nil {
				return figure{}, err
			}
			full, err := jsTrace(d.of("cm-startup"), "cm-0")
			if err != nil {
				return figure{}, err
			}
			return countOf(int(math.Round(100*float64(short.spans)/float64(full.spans))), 0.15), nil
		},

		// scenarios.md: the image filesystem before anything fills it.
		"js.images-percent": func(d *docRuns) (figure, error) {
			for _, s := range d.of("kubelet-startup").spansNamed("node-1", "Images/GarbageCollect") {
				if n, ok := s.Attributes.Int("kubelet.imagefs.usage_percent"); ok {
					return exactCount(int(n)), nil
				}
			}
			return figure{}, fmt.Errorf("no image GC says the usage")
		},

		// scenarios.md: the built-ins.
		"js.cm-controllers": func(d *docRuns) (figure, error) {
			return exactCount(len(d.of("cm-startup").controllerStarts("cm-0"))), nil
		},
		"js.cm-jobs": func(d *docRuns) (figure, error) {
			var names []string
			for _, s := range d.of("cm-startup").spansNamed("cm-0", "jobs.Create") {
				names = append(names, strings.TrimPrefix(s.Attributes.String("k8s.object.key"), "default/"))
			}
			slices.Sort(names)
			return exact(andList(names)), nil
		},
		"js.cm-unknown-at": func(d *docRuns) (figure, error) {
			at, err := d.of("cm-startup").nodeUnknownAt("node-1")
			return durationOf(at, time.Second, 5*time.Second), err
		},
		"js.ks-usage-after": func(d *docRuns) (figure, error) {
			return d.of("kubelet-startup").imageGCFigure("kubelet.imagefs.usage_percent_after")
		},
		"js.cb-evicted-after-status": func(d *docRuns) (figure, error) {
			r := d.of("cluster-basics")
			last, err := r.lastIterationBefore("node-2", "kubelet/node-status", 2*time.Minute)
			if err != nil {
				return figure{}, err
			}
			at, err := jsEvictedAt(r)
			return durationOf(at-last, 5*time.Second, 10*time.Second), err
		},
		"js.cb-replacements-on": func(d *docRuns) (figure, error) {
			r := d.of("cluster-basics")
			evicted, err := jsEvictedAt(r)
			if err != nil {
				return figure{}, err
			}
			var nodes []string
			for _, s := range r.spansNamed("scenario", "scheduleOne") {
				if n := s.Attributes.String("k8s.node.name"); r.at(s.Start) >= evicted && !slices.Contains(nodes, n) {
					nodes = append(nodes, n)
				}
			}
			if len(nodes) == 0 {
				return figure{}, fmt.Errorf("no pod was bound after the eviction")
			}
			slices.Sort(nodes)
			return exact(andList(nodes)), nil
		},
		"js.gl-leftovers": func(d *docRuns) (figure, error) {
			var names []string
			for _, l := range d.of("goroutine-leak").sum.Leftovers {
				names = append(names, fmt.Sprintf("%s %s ×%d", l.Instance, l.Name, l.N))
			}
			return exact(andList(names)), nil
		},
		"js.fo-first-leader": func(d *docRuns) (figure, error) {
			r := d.of("cm-leader-failover")
			return jsBothEras(func(era string) (figure, error) { return r.leaderAt(era, 30*time.Second) })
		},
		"js.fo-new-leader": func(d *docRuns) (figure, error) {
			r := d.of("cm-leader-failover")
			return jsBothEras(r.newLeader)
		},
		"js.fo-takeover-classic": func(d *docRuns) (figure, error) { return d.of("cm-leader-failover").takeover("classic") },
		"js.fo-takeover-modern":  func(d *docRuns) (figure, error) { return d.of("cm-leader-failover").takeover("modern") },
	}
	// jaeger.md's table: for each built-in, its traces, the largest and
	// that one's spans.
	for _, name := range []string{"goroutine-leak", "reflector-leak", "informer-basics", "informer-eras", "kubelet-pod-lifecycle", "kubelet-startup", "cm-leader-failover", "cm-startup", "cluster-basics"} {
		figs["js.traces."+name] = func(d *docRuns) (figure, error) {
			return exactCount(len(jsTraces(d.of(name).spans))), nil
		}
		figs["js.largest."+name] = func(d *docRuns) (figure, error) {
			t := jsLargest(d.of(name))
			id := t.instance
			if name == "cm-leader-failover" { // the replica that led longest, in either era
				_, id, _ = strings.Cut(id, "/")
			}
			return exact(id), nil
		}
		figs["js.spans."+name] = func(d *docRuns) (figure, error) {
			return countOf(jsLargest(d.of(name)).spans, 0.1), nil
		}
	}
	register(figs)
}

// jsTraceSize is one trace of a run: the instance it records, its spans
// and the links they carry (Jaeger's FOLLOWS_FROM references).
type jsTraceSize struct {
	instance     string
	spans, links int
}

// jsTraces are a run's traces, in order of their first span.
func jsTraces(spans []traces.Span) []jsTraceSize {
	var out []jsTraceSize
	at := map[trace.TraceID]int{}
	for _, s := range spans {
		i, ok := at[s.TraceID]
		if !ok {
			i = len(out)
			at[s.TraceID] = i
			out = append(out, jsTraceSize{instance: s.Resource.String("service.instance.id")})
		}
		out[i].spans++
		out[i].links += len(s.Links)
	}
	return out
}

// jsTrace is the trace of one instance, which ran as one process: the
// page says each process is a trace of its own, so a process whose spans
// fall in two traces (as glog.init's did, a root beside main, until
// tracing.Process) fails here instead of giving a figure of half of it.
func jsTrace(r *docRun, instance string) (jsTraceSize, error) {
	var found []jsTraceSize
	for _, t := range jsTraces(r.spans) {
		if t.instance == instance {
			found = append(found, t)
		}
	}
	switch len(found) {
	case 0:
		return jsTraceSize{}, fmt.Errorf("%s has no trace of %s", r.name, instance)
	case 1:
		return found[0], nil
	}
	return jsTraceSize{}, fmt.Errorf("%s: %s's spans are in %d traces, want one (one process, one trace)", r.name, instance, len(found))
}

// jsLargest is a run's largest trace.
func jsLargest(r *docRun) jsTraceSize {
	var big jsTraceSize
	for _, t := range jsTraces(r.spans) {
		if t.spans > big.spans {
			big = t
		}
	}
	return big
}

// jsScenarioTraces are the smallest and largest of the built-ins' own
// traces (service kubeloom: the scenario, its actions, the binder).
func jsScenarioTraces(d *docRuns) (lo, hi int, err error) {
	lo = math.MaxInt
	for _, sc := range scenarios.Builtins() {
		if slices.Contains(largeBuiltins, sc.Name) {
			continue
		}
		r := d.of(sc.Name)
		bySvc := map[trace.TraceID]int{}
		for _, s := range r.spans {
			if s.Resource.String("service.name") == "kubeloom" {
				bySvc[s.TraceID]++
			}
		}
		if len(bySvc) == 0 {
			return 0, 0, fmt.Errorf("%s has no trace of service kubeloom", sc.Name)
		}
		for _, n := range bySvc {
			lo, hi = min(lo, n), max(hi, n)
		}
	}
	return lo, hi, nil
}

// jsServices are the service names of a run's spans, sorted.
func jsServices(spans []traces.Span) []string {
	var out []string
	for _, s := range spans {
		if n := s.Resource.String("service.name"); n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// jsStartRange is when the first and the last span of a run start, as
// push reports them.
func jsStartRange(spans []traces.Span) (first, last time.Time) {
	for _, s := range spans {
		if first.IsZero() || s.Start.Before(first) {
			first = s.Start
		}
		if s.Start.After(last) {
			last = s.Start
		}
	}
	return first, last
}

// jsCauseChain follows the first cause link back from an OnAdd of key to
// the span that started it: "pop (informer/listener-pop), Pop
// (informer/run), …", each span with its goroutine.
func jsCauseChain(r *docRun, key string) (figure, error) {
	byID := map[trace.SpanID]traces.Span{}
	var start *traces.Span
	for i, s := range r.spans {
		byID[s.SpanID] = s
		if s.Name == "OnAdd" && s.Attributes.String("k8s.object.key") == key && s.Resource.String("service.instance.id") == "informers" && start == nil {
			start = &r.spans[i]
		}
	}
	if start == nil {
		return figure{}, fmt.Errorf("%s: no OnAdd of %s", r.name, key)
	}
	// The goroutine a span ran on, or for a span on an instance's main
	// line (the scenario's action) the instance.
	goroutineOf := func(s traces.Span) string {
		for {
			if g := s.Attributes.String("goroutine.name"); g != "" {
				return g
			}
			if !s.ParentSpanID.IsValid() {
				return s.Resource.String("service.name") + " " + s.Resource.String("service.instance.id")
			}
			p, ok := byID[s.ParentSpanID]
			if !ok {
				return "?"
			}
			s = p
		}
	}
	var hops []string
	for s := *start; len(s.Links) > 0 && len(hops) < 20; {
		c, ok := byID[s.Links[0].SpanID]
		if !ok {
			return figure{}, fmt.Errorf("%s: %s links to a span that is not in the recording", r.name, s.Name)
		}
		hops = append(hops, fmt.Sprintf("%s (%s)", c.Name, goroutineOf(c)))
		s = c
	}
	return exact(strings.Join(hops, ", ")), nil
}

// jsEvictedAt is when the pod evictor of cluster-basics deleted a pod.
func jsEvictedAt(r *docRun) (time.Duration, error) {
	for _, l := range r.lanes("cm-0", "controller/node/pod-evictor") {
		for _, m := range l.Calls {
			if m.Name == "pods.Delete" {
				return r.at(m.Start), nil
			}
		}
	}
	return 0, fmt.Errorf("%s: the pod evictor deleted nothing", r.name)
}

// jsBothEras is a figure that must be the same in the classic and the
// modern era, or says both.
func jsBothEras(f func(era string) (figure, error)) (figure, error) {
	c, err := f("classic")
	if err != nil {
		return figure{}, err
	}
	m, err := f("modern")
	if err != nil {
		return figure{}, err
	}
	if c.text == m.text {
		return c, nil
	}
	return exact(c.text + " in classic, " + m.text + " in modern"), nil
}

// jsShortRun is a built-in run for less than its duration (`run
// --duration`).
func jsShortRun(d *docRuns, name string, duration time.Duration) (*docRun, error) {
	return d.variant(name, "duration-"+duration.String(), "--duration", duration.String()), nil
}
