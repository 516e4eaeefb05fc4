package timeline

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
)

// shapeKeys are the attributes whose values name things a run creates or
// acts on: objects (namespace/name), pods by UID, nodes. They are part of a
// recording's shape; other attribute values (durations, counts, error
// texts, resource versions) are not.
var shapeKeys = []string{catalog.AttrObjectKey, "k8s.pod.uid", catalog.AttrNode}

// Shape reduces a recording to what every run of a scenario with the same
// seed repeats, whatever the speed of the machine: per instance, its
// goroutines (lane label and kind, and how many lanes share them), and
// every object (namespace/name), pod UID and node its spans name. Sorted,
// one fact per line.
//
// It leaves out what the Go scheduler and the CPU decide, in kubeloom as in
// Kubernetes: times and counts of iterations and of the goroutines started
// once per iteration (catalog.Entry.PerCall) (a run that falls behind
// records fewer idle ones), span and trace IDs, and which goroutine did
// which piece of work — which worker of a workqueue took a key, whether an
// object created while a reflector lists arrives in its LIST or as a watch
// event, whether a notification found its listener busy, whether a loop's
// pass came before or after another component's, so which calls and events
// a lane has. Two recordings with equal shapes ran the same goroutines on
// the same objects, under the same names and UIDs.
func Shape(tl *Timeline) []string {
	var out []string
	for _, in := range tl.Instances {
		name := in.Name()
		lanes := map[string]int{}
		var named []string
		for _, l := range in.Lanes {
			key := fmt.Sprintf("%s | lane %s | %s", name, sameLabel(l), l.Kind)
			if e, ok := catalog.Lookup(l.Goroutine); ok && e.PerCall {
				lanes[key] = -1 // one per call: counted as iterations are not
			} else {
				lanes[key]++
			}
			for _, marks := range [][]Mark{l.Iterations, l.Calls, l.Events} {
				for _, m := range marks {
					named = append(named, names(m.Attributes)...)
				}
			}
			named = append(named, names(l.Attributes)...)
		}
		for key, n := range lanes {
			if n < 0 {
				out = append(out, key+" × one per call")
				continue
			}
			out = append(out, fmt.Sprintf("%s ×%d", key, n))
		}
		for _, n := range distinct(named) {
			out = append(out, name+" | names "+n)
		}
	}
	slices.Sort(out)
	return out
}

// ambiguous is the "#n" a label gets when goroutines share every qualifier:
// the order in which they started.
var ambiguous = regexp.MustCompile(` #\d+$`)

// Family is the lane's label without what tells apart goroutines that do
// the same work (a workqueue's worker number, a "#n"): the lanes of two
// runs that did the same work have the same family.
func (l *Lane) Family() string { return sameLabel(l) }

// sameLabel is a lane's label without what tells apart goroutines that do
// the same work: a workqueue's worker number and a "#n".
func sameLabel(l *Lane) string {
	label := ambiguous.ReplaceAllString(l.Label, "")
	if _, ok := l.Attributes[catalog.AttrWorker]; !ok {
		return label
	}
	parts := []string{l.Goroutine}
	for _, k := range qualifiers {
		if v, ok := l.Attributes[k]; ok && k != catalog.AttrWorker {
			parts = append(parts, fmt.Sprint(v))
		}
	}
	return strings.Join(parts, " ")
}

func names(a traces.Attributes) []string {
	var out []string
	for _, k := range shapeKeys {
		if v := a.String(k); v != "" {
			out = append(out, k+"="+v)
		}
	}
	return out
}

func distinct(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}
