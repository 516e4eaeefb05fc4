package timeline

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/kubeloom/kubeloom/sim/catalog"
)

// Groups are how every view folds a big recording into a story: an
// instance holds components (the controller manager's own goroutines, the
// shared informers, each controller, each kubelet manager, the pod
// workers), a component holds families (the workers of a pool, the
// goroutines of one informer or one event pipeline), a family holds lanes.
// They come from the recording alone: who started a goroutine (the span
// its lifetime span hangs under), the "start <Name>" span of the
// controller it was started for (kubeloom.controller.id), and its catalog
// name.

// Group is a component of an instance (Parent nil) or a family of lanes
// inside a component.
type Group struct {
	// Key names the group uniquely in the recording, for --expand and the
	// HTML page's URL: "cm-0/controller/replicaset",
	// "cm-0/controller/replicaset/worker", "node-1/pod workers".
	Key string
	// Name is what views title the group: "controller/replicaset",
	// "informer pods", "worker".
	Name     string
	Instance *Instance
	Parent   *Group   // nil for a component
	Groups   []*Group // a component's families; only families of 2+ lanes are groups
	Lanes    []*Lane  // every lane under the group, in display order
}

// Groups returns the instance's components, in display order: by the
// start of their first goroutine.
func (in *Instance) Groups() []*Group { return in.groups }

// Display returns the instance's lanes in display order: component by
// component, family by family, each by start time.
func (in *Instance) Display() []*Lane { return in.display }

// Component returns the lane's component.
func (l *Lane) Component() *Group {
	g := l.Group
	for g != nil && g.Parent != nil {
		g = g.Parent
	}
	return g
}

// Process-level components: a goroutine of the informer machinery started
// from one of these belongs to the shared informers, not to them.
const (
	componentMain    = "main"
	componentCM      = "controller-manager"
	componentKubelet = "kubelet"
	componentEvents  = "events"
	componentInforms = "informers"
)

// kubeletParts are the kubelet's components by goroutine name (without
// "kubelet/"), after pkg/kubelet's managers: a name that starts with a key
// belongs to its component; the rest is the kubelet itself (its main loop,
// node status, log flush...).
var kubeletParts = []struct{ prefix, component string }{
	{"pod-worker", "pod workers"},
	{"kill-pod", "pod workers"},
	{"probe-", "probe manager"},
	{"volume-stat-", componentKubelet}, // the resource analyzer's calculators, beside kubelet/fs-volume-stats
	{"volume-", "volume manager"},
	{"source-", "pod sources"},
	{"config-mux", "pod sources"},
	{"container-gc", "image & container GC"},
	{"image-", "image & container GC"},
	{"pleg-", "PLEG"},
	{"status-manager", "status manager"},
	{"eviction", "eviction manager"},
	{"cm-", "container manager"},
	{"server", "servers"},
	{"readonly-server", "servers"},
	{"healthz-server", "servers"},
}

// informerMachinery reports whether a goroutine is part of an informer
// (its reflector, its watch, its processor): it belongs to whoever owns
// the informer.
func informerMachinery(name string) bool {
	return strings.HasPrefix(name, "informer/") || strings.HasPrefix(name, "reflector/") || strings.HasPrefix(name, "watch/")
}

// processPrefix returns the part of a goroutine name that only repeats its
// instance ("cm/", "kubelet/") or its controller
// ("controller/replicaset/"): views inside a group drop it.
func processPrefix(name, component string) string {
	if component != "" && strings.HasPrefix(name, component+"/") {
		return component + "/"
	}
	for _, p := range []string{"cm/", "kubelet/"} {
		if strings.HasPrefix(name, p) {
			return p
		}
	}
	return ""
}

// componentOf names a lane's component, and its spawner's first.
func componentOf(l *Lane) string {
	if l.component == "" {
		if l.spawner != nil {
			componentOf(l.spawner)
		}
		l.component = componentFor(l)
	}
	return l.component
}

func componentFor(l *Lane) string {
	name := l.Goroutine
	switch {
	case name == MainLane:
		return componentMain
	case l.owner != "":
		return "controller/" + l.owner
	case strings.HasPrefix(name, "controller/"):
		if id, _, ok := strings.Cut(strings.TrimPrefix(name, "controller/"), "/"); ok {
			return "controller/" + id
		}
	case strings.HasPrefix(name, "cm/event-"), strings.HasPrefix(name, "kubelet/event-"):
		return componentEvents
	case strings.HasPrefix(name, "cm/"):
		return componentCM
	case strings.HasPrefix(name, "scheduler/"):
		return "scheduler"
	case informerMachinery(name):
		if s := l.spawner; s != nil {
			switch c := s.component; c {
			case componentMain, componentCM, componentKubelet, componentEvents:
			default:
				return c
			}
		}
		return componentInforms
	case strings.HasPrefix(name, "kubelet/"):
		rest := strings.TrimPrefix(name, "kubelet/")
		for _, p := range kubeletParts {
			if strings.HasPrefix(rest, p.prefix) {
				return p.component
			}
		}
		return componentKubelet
	}
	if first, _, ok := strings.Cut(name, "/"); ok {
		return first
	}
	return name
}

// familyOf names a lane's family within its component: the informer or
// the event pipeline it is part of, else its goroutine name.
func familyOf(l *Lane, component string) string {
	if informerMachinery(l.Goroutine) {
		if v := l.Attributes.String(catalog.AttrInformer); v != "" {
			return "informer " + v
		}
		if v := l.Attributes.String(catalog.AttrResource); v != "" {
			return "informer " + v
		}
	}
	rest := strings.TrimPrefix(l.Goroutine, processPrefix(l.Goroutine, component))
	if strings.HasPrefix(rest, "event-") {
		if v := l.Attributes.String(catalog.AttrEventComponent); v != "" {
			return "events " + v
		}
		return "events"
	}
	return rest
}

// group arranges an instance's lanes into components and families and
// gives each lane its short label. Lanes must be labelled and in start
// order.
func (in *Instance) group() {
	type family struct {
		name  string
		lanes []*Lane
	}
	type component struct {
		name     string
		families []*family
		byName   map[string]*family
	}
	var comps []*component
	byName := map[string]*component{}
	for _, l := range in.Lanes {
		c := byName[componentOf(l)]
		if c == nil {
			c = &component{name: l.component, byName: map[string]*family{}}
			byName[l.component] = c
			comps = append(comps, c)
		}
		fname := familyOf(l, c.name)
		f := c.byName[fname]
		if f == nil {
			f = &family{name: fname}
			c.byName[fname] = f
			c.families = append(c.families, f)
		}
		f.lanes = append(f.lanes, l)
	}
	// The main lane (the instance's own spans: its startup, the scenario's
	// actions) comes first, where its story starts.
	slices.SortStableFunc(comps, func(a, b *component) int {
		return cmp.Compare(b2i(a.name != componentMain), b2i(b.name != componentMain))
	})
	in.groups, in.display = nil, nil
	prefix := in.ID
	if prefix == "" {
		prefix = in.Service
	}
	for _, c := range comps {
		g := &Group{Key: prefix + "/" + c.name, Name: c.name, Instance: in}
		in.groups = append(in.groups, g)
		for _, f := range c.families {
			inner := g
			if len(f.lanes) > 1 && len(c.families) > 1 {
				inner = &Group{Key: g.Key + "/" + f.name, Name: f.name, Instance: in, Parent: g}
				g.Groups = append(g.Groups, inner)
			}
			for _, l := range f.lanes {
				l.Group = inner
				inner.Lanes = append(inner.Lanes, l)
				if inner != g {
					g.Lanes = append(g.Lanes, l)
				}
			}
			in.display = append(in.display, f.lanes...)
		}
		shortLabels(g)
	}
}

// Match reports whether a --expand pattern names the group. A pattern
// with *, ? or [ is a glob (a * also crosses a '/') matched against the
// group's Key and Name; any other pattern is the group's Key or Name, or
// the end of its Name after a '/' or a space ("replicaset" names
// "controller/replicaset", "pods" names "informer pods").
func (g *Group) Match(pattern string) bool {
	if strings.ContainsAny(pattern, "*?[") {
		return glob(pattern, g.Key) || glob(pattern, g.Name)
	}
	return pattern == g.Key || pattern == g.Name ||
		strings.HasSuffix(g.Name, "/"+pattern) || strings.HasSuffix(g.Name, " "+pattern)
}

// ValidPattern reports a --expand pattern that is no glob.
func ValidPattern(pattern string) error {
	if _, err := path.Match(strings.ReplaceAll(pattern, "/", "_"), ""); err != nil {
		return fmt.Errorf("--expand %q: %w: see `go doc path.Match` for the syntax (*, ?, [a-z], \\ to escape)", pattern, err)
	}
	return nil
}

// glob matches name against a path.Match pattern in which '*' also
// matches '/'.
func glob(pattern, name string) bool {
	ok, _ := path.Match(strings.ReplaceAll(pattern, "/", "\x00"), strings.ReplaceAll(name, "/", "\x00"))
	return ok
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
