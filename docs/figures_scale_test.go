package docs

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
)

// The figures of docs/scale.md (and docs/zh/scale.md): the re-list storm
// of the built-in cluster-scale, read off its run. The names are
// scale.<what>.
//
// cluster-scale is the one large built-in: its run in virtual time costs
// about a minute of CPU and 7 GB, and ten times both under the race
// detector. So its figures are checked without -race only (.ci/run runs
// `make docs-check-large`, `make docs` rewrites them), and the checks that
// walk every built-in (group labels, the Jaeger trace sizes, the kubelet
// doc's lists of built-ins) leave it out: it has the shape of
// cluster-basics, a hundred times over.
var largeBuiltins = []string{"cluster-scale"}

// largeFigure says whether a figure reads the run of a large built-in.
func largeFigure(name string) bool { return strings.HasPrefix(name, "scale.") }

func init() {
	register(map[string]func(d *docRuns) (figure, error){
		"scale.pods": func(d *docRuns) (figure, error) {
			s, err := scaleStorm(d)
			if err != nil {
				return figure{}, err
			}
			return exactCount(int(s.items["cm-0 pods"] / 2)), nil // the pod informer's and the garbage collector's
		},
		"scale.watches-broken": func(d *docRuns) (figure, error) {
			s, err := scaleStorm(d)
			return countOf(s.broken, 0.02), err
		},
		"scale.resources": func(d *docRuns) (figure, error) {
			s, err := scaleStorm(d)
			return exactCount(s.resources), err
		},
		"scale.lists": func(d *docRuns) (figure, error) {
			s, err := scaleStorm(d)
			return countOf(len(s.lists), 0.02), err
		},
		"scale.lists-cm": func(d *docRuns) (figure, error) {
			s, err := scaleStorm(d)
			return countOf(s.byInstance["cm-0"], 0.02), err
		},
		"scale.lists-kubelets": func(d *docRuns) (figure, error) {
			s, err := scaleStorm(d)
			n := 0
			for in, c := range s.byInstance {
				if strings.HasPrefix(in, "node-") {
					n += c
				}
			}
			return exactCount(n), err
		},
		"scale.first-list-after": func(d *docRuns) (figure, error) {
			s, err := scaleStorm(d)
			return durationOf(s.first.Sub(s.at), 10*time.Millisecond, 50*time.Millisecond), err
		},
		"scale.items": func(d *docRuns) (figure, error) {
			s, err := scaleStorm(d)
			var n int64
			for _, c := range s.items {
				n += c
			}
			return countOf(int(n), 0.02), err
		},
		"scale.pod-items": func(d *docRuns) (figure, error) {
			s, err := scaleStorm(d)
			var n int64
			for k, c := range s.items {
				if strings.HasSuffix(k, " pods") {
					n += c
				}
			}
			return countOf(int(n), 0.02), err
		},
		"scale.onupdates": func(d *docRuns) (figure, error) {
			s, err := scaleStorm(d)
			return countOf(s.onUpdates, 0.05), err
		},
		"scale.onupdates-before": func(d *docRuns) (figure, error) {
			s, err := scaleStorm(d)
			return countOf(s.onUpdatesBefore/30, 0.2), err
		},
		"scale.spread": func(d *docRuns) (figure, error) {
			s, err := scaleStorm(d)
			return durationOf(s.last.Sub(s.first), 10*time.Millisecond, 50*time.Millisecond), err
		},
		"scale.pod-handlers": func(d *docRuns) (figure, error) {
			s, err := scaleStorm(d)
			return exactCount(len(s.podHandlers)), err
		},
	})
}

// storm is what the restart at 5m set off in cluster-scale.
type storm struct {
	at          time.Time // the restartAPIServer action
	broken      int       // watches.broken
	resources   int       // how many resources had watches
	lists       []traces.Span
	first, last time.Time        // of the LISTs
	byInstance  map[string]int   // LISTs per instance
	items       map[string]int64 // objects listed, by "instance resource"
	// onUpdates are the controller-manager's handler calls OnUpdate in
	// the second after the LISTs began: a classic re-list hands every
	// object to every handler of its informer again.
	onUpdates int
	// onUpdatesBefore are its OnUpdate calls in the 30s before the restart.
	onUpdatesBefore int
	podHandlers     map[string]bool // the handlers of cm-0's pods informer that got them
}

// scaleStorm reads the storm off the run: the reflectors' LISTs (spans
// with an informer.name) after the restart.
func scaleStorm(d *docRuns) (*storm, error) {
	r := d.of("cluster-scale")
	acts := r.spansNamed("scenario", "action/restartAPIServer")
	if len(acts) != 1 {
		return nil, fmt.Errorf("cluster-scale has %d action/restartAPIServer spans, want 1", len(acts))
	}
	s := &storm{at: acts[0].Start, byInstance: map[string]int{}, items: map[string]int64{}}
	n, _ := acts[0].Attributes.Int("watches.broken")
	s.broken = int(n)
	res, _ := acts[0].Attributes["k8s.resources"].([]string)
	s.resources = len(res)
	for _, sp := range r.spans {
		if !strings.HasSuffix(sp.Name, ".List") || sp.Start.Before(s.at) || sp.Attributes.String(catalog.AttrInformer) == "" {
			continue
		}
		if len(s.lists) == 0 || sp.Start.Before(s.first) {
			s.first = sp.Start
		}
		if sp.End.After(s.last) {
			s.last = sp.End
		}
		s.lists = append(s.lists, sp)
		in := sp.Resource.String(catalog.AttrServiceInstanceID)
		s.byInstance[in]++
		items, _ := sp.Attributes.Int("k8s.list.items")
		s.items[in+" "+strings.TrimSuffix(sp.Name, ".List")] += items
	}
	if len(s.lists) == 0 {
		return nil, fmt.Errorf("cluster-scale: no reflector LIST after the restart at %v", r.at(s.at))
	}
	sort.Slice(s.lists, func(i, j int) bool { return s.lists[i].Start.Before(s.lists[j].Start) })
	s.podHandlers = map[string]bool{}
	for _, sp := range r.spansNamed("cm-0", "OnUpdate") {
		if sp.Start.Before(s.at) && !sp.Start.Before(s.at.Add(-30*time.Second)) {
			s.onUpdatesBefore++
		}
		if sp.Start.Before(s.first) || !sp.Start.Before(s.first.Add(time.Second)) {
			continue
		}
		s.onUpdates++
		if sp.Attributes.String(catalog.AttrInformer) == "pods" {
			s.podHandlers[sp.Attributes.String(catalog.AttrHandler)] = true
		}
	}
	return s, nil
}
