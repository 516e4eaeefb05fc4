package podstartup

import (
	"cmp"
	"slices"
	"time"

	"github.com/kubeloom/kubeloom/traces"
)

// Interval is one of the three spans of a pod's start.
type Interval int

const (
	CreateToScheduled  Interval = iota // created → scheduled
	ScheduledToRunning                 // scheduled → the first Running status write
	CreateToRunning                    // created → the first Running status write: end to end
)

// Intervals are the three, in the order the views show them.
var Intervals = []Interval{CreateToScheduled, ScheduledToRunning, CreateToRunning}

// Pod is one pod's start: the moments the recording shows (zero when it
// shows none) and the instance it ran on.
type Pod struct {
	Key string // namespace/name
	// Instance is the kubelet's service.instance.id: the node the
	// scheduler bound the pod to, else the kubelet that wrote it Running;
	// "" for a pod that got neither.
	Instance                    string
	Created, Scheduled, Running time.Time
	// Static is set for a static pod (a manifest file or URL): it has no
	// create and no scheduling, and is in no figure.
	Static bool
}

// Span returns how long the interval took for p, and whether p has both
// of its moments.
func (p *Pod) Span(i Interval) (time.Duration, bool) {
	var from, to time.Time
	switch i {
	case CreateToScheduled:
		from, to = p.Created, p.Scheduled
	case ScheduledToRunning:
		from, to = p.Scheduled, p.Running
	default:
		from, to = p.Created, p.Running
	}
	if p.Static || from.IsZero() || to.IsZero() {
		return 0, false
	}
	return to.Sub(from), true
}

// Stats are nearest-rank percentiles of one interval over N pods; all
// zero when N is 0.
type Stats struct {
	N                  int
	P50, P90, P99, Max time.Duration
}

// Row is the figures of the pods of one instance, or of all of them.
type Row struct {
	Instance string // "" for the overall row
	Pods     int    // pods in the row, static ones included
	Stats    [3]Stats
}

// Report is a recording's pod startup figures.
type Report struct {
	Pods      []Pod // by first moment, then key
	Overall   Row
	Instances []Row // one per kubelet that ran or was given a pod, node-2 before node-10
	// Static counts static pods; NoCreate the other pods whose create is
	// not in the recording (objects loaded before the run began).
	Static, NoCreate int
	// BoundAtCreate counts pods created with their node set (a
	// DaemonSet's, or a scenario's pod naming its node): the scheduler never
	// binds them, so of their start only create → Running is known.
	// NotScheduled counts the other pods created and never bound;
	// NotRunning pods (static ones aside) that no status write said
	// Running before the recording ended. Both count the creates of a
	// generateName that no pod of the recording took.
	BoundAtCreate, NotScheduled, NotRunning int
}

// Report reckons the figures of what the Collector observed.
func (c *Collector) Report() *Report {
	obs := slices.Clone(c.obs)
	slices.SortFunc(obs, func(a, b observation) int { return cmp.Or(a.at.Compare(b.at), cmp.Compare(a.seq, b.seq)) })

	var pods []*Pod
	current := map[string]*Pod{} // the pod now named key: a name can be used again (a StatefulSet's)
	statics := map[string]bool{}
	byRun := map[string]time.Time{} // the scenario's creates, of pods or not
	gen := map[string][]time.Time{} // creates by generateName prefix, in order
	open := func(key string) *Pod {
		p := &Pod{Key: key}
		pods = append(pods, p)
		current[key] = p
		return p
	}
	for _, o := range obs {
		p := current[o.key]
		switch o.what {
		case createdByRun:
			byRun[o.key] = o.at
		case created:
			if p == nil || !p.Created.IsZero() || !p.Scheduled.IsZero() || !p.Running.IsZero() {
				p = open(o.key)
			}
			p.Created = o.at
		case createdGen:
			gen[o.key] = append(gen[o.key], o.at)
		case scheduled:
			if p == nil || !p.Scheduled.IsZero() || !p.Running.IsZero() {
				p = open(o.key)
			}
			p.Scheduled, p.Instance = o.at, o.node
		case running:
			if p == nil {
				p = open(o.key)
			}
			if p.Running.IsZero() {
				p.Running = o.at
				if p.Instance == "" {
					p.Instance = o.node
				}
			}
		case static:
			statics[o.key] = true
		}
	}
	// The scenario's own creates: a pod it created by name.
	for _, p := range pods {
		if at, ok := byRun[p.Key]; ok && p.Created.IsZero() && !at.After(first(p)) {
			p.Created = at
		}
	}
	// Creates no pod took named pods never bound nor written Running.
	left := matchGenerated(pods, gen)
	r := &Report{NotScheduled: left, NotRunning: left}
	for _, p := range pods {
		p.Static = statics[p.Key]
		switch {
		case p.Static:
			r.Static++
			continue
		case p.Created.IsZero():
			r.NoCreate++
		}
		switch {
		case !p.Scheduled.IsZero() || p.Created.IsZero():
		case !p.Running.IsZero():
			r.BoundAtCreate++ // Running without the scheduler: its node was set at create
		default:
			r.NotScheduled++
		}
		if p.Running.IsZero() {
			r.NotRunning++
		}
	}
	slices.SortStableFunc(pods, func(a, b *Pod) int { return cmp.Or(first(a).Compare(first(b)), cmp.Compare(a.Key, b.Key)) })
	r.Pods = make([]Pod, len(pods))
	for i, p := range pods {
		r.Pods[i] = *p
	}
	r.rows()
	return r
}

// first is a pod's earliest moment.
func first(p *Pod) time.Time {
	t := p.Running
	for _, m := range []time.Time{p.Scheduled, p.Created} {
		if !m.IsZero() && (t.IsZero() || m.Before(t)) {
			t = m
		}
	}
	return t
}

// rows fills the overall row and one per instance.
func (r *Report) rows() {
	byInst := map[string][]*Pod{}
	all := make([]*Pod, len(r.Pods))
	for i := range r.Pods {
		p := &r.Pods[i]
		all[i] = p
		if p.Instance != "" {
			byInst[p.Instance] = append(byInst[p.Instance], p)
		}
	}
	r.Overall = row("", all)
	names := make([]string, 0, len(byInst))
	for in := range byInst {
		names = append(names, in)
	}
	slices.SortFunc(names, traces.NaturalCompare)
	for _, in := range names {
		r.Instances = append(r.Instances, row(in, byInst[in]))
	}
}

func row(instance string, pods []*Pod) Row {
	r := Row{Instance: instance, Pods: len(pods)}
	for _, i := range Intervals {
		var ds []time.Duration
		for _, p := range pods {
			if d, ok := p.Span(i); ok {
				ds = append(ds, d)
			}
		}
		r.Stats[i] = StatsOf(ds)
	}
	return r
}

// StatsOf returns the nearest-rank percentiles of ds, which it sorts.
func StatsOf(ds []time.Duration) Stats {
	slices.Sort(ds)
	return Stats{N: len(ds), P50: Percentile(ds, 50), P90: Percentile(ds, 90), P99: Percentile(ds, 99), Max: Percentile(ds, 100)}
}

// Percentile returns the p-th percentile (0 < p ≤ 100) of sorted by the
// nearest-rank method: the ⌈p·n/100⌉-th smallest of its n values, always
// one of them (never an interpolation); 0 when sorted is empty.
func Percentile(sorted []time.Duration, p int) time.Duration {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	rank := (p*n + 99) / 100 // ⌈p·n/100⌉ in integers: no rounding error at 99 % of 100
	return sorted[min(max(rank, 1), n)-1]
}
