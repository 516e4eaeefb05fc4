package timeline

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kubeloom/kubeloom/sim/catalog"
)

// A label for each lane, unique within its instance: the goroutine name,
// then the qualifiers that tell apart goroutines of one name, then "#n" in
// start order if they still read alike. And, once the lanes are grouped
// (group.go), its short label inside its group.

// qualifiers are the attributes that tell apart goroutines of one instance
// that share a catalog name (two handlers' informer/listener-pop), in the
// order they appear in a label.
var qualifiers = []string{
	catalog.AttrInformer,
	catalog.AttrResource,
	catalog.AttrHandler,
	catalog.AttrNode,
	catalog.AttrObjectKey,
	catalog.AttrEventComponent,
	catalog.AttrWorker,
	catalog.AttrPodSource,
	catalog.AttrContainer,
	catalog.AttrProbeType,
}

// labelLanes gives each lane a label unique within its instance.
func labelLanes(lanes []*Lane) {
	byName := map[string][]*Lane{}
	for _, l := range lanes {
		byName[l.Goroutine] = append(byName[l.Goroutine], l)
	}
	for _, l := range lanes {
		l.Label = l.Goroutine
		if len(byName[l.Goroutine]) < 2 {
			continue
		}
		parts := []string{l.Goroutine}
		l.quals = nil
		for _, k := range qualifiers {
			v := fmt.Sprint(l.Attributes[k])
			if l.Attributes[k] == nil || v == "" {
				continue
			}
			if k == catalog.AttrResource && v == l.Attributes.String(catalog.AttrInformer) {
				continue
			}
			parts = append(parts, v)
			l.quals = append(l.quals, qual{k, v})
		}
		l.Label = strings.Join(parts, " ")
	}
	byLabel := map[string][]*Lane{}
	var labels []string
	for _, l := range lanes {
		if byLabel[l.Label] == nil {
			labels = append(labels, l.Label)
		}
		byLabel[l.Label] = append(byLabel[l.Label], l)
	}
	for _, label := range labels {
		same := byLabel[label]
		if len(same) < 2 {
			continue
		}
		slices.SortStableFunc(same, func(a, b *Lane) int {
			if c := a.Start.Compare(b.Start); c != 0 {
				return c
			}
			return bytes.Compare(a.SpanID[:], b.SpanID[:])
		})
		for n, l := range same {
			l.Label = fmt.Sprintf("%s #%d", label, n+1)
		}
	}
}

// shortLabels gives each lane of a component its label inside its
// innermost group: the label without what the group's title already says
// (the instance's "kubelet/", the controller's "controller/replicaset/",
// the family's informer or event source), numbered again within the group
// where two would read the same.
func shortLabels(c *Group) {
	byGroup := map[*Group][]*Lane{}
	var order []*Group
	for _, l := range c.Lanes {
		if byGroup[l.Group] == nil {
			order = append(order, l.Group)
		}
		byGroup[l.Group] = append(byGroup[l.Group], l)
	}
	for _, g := range order {
		lanes := byGroup[g]
		for _, l := range lanes {
			comp := c.Name
			if len(c.Lanes) == 1 {
				comp = "" // no heading says the component: keep it in the label
			}
			parts := []string{strings.TrimPrefix(l.Goroutine, processPrefix(l.Goroutine, comp))}
			fam := familyOf(l, c.Name)
			said := g.Parent != nil // the family's title says its informer or event source
			for _, q := range l.quals {
				if fam == "informer "+q.value || fam == "events "+q.value {
					if said {
						continue
					}
					said = true
				}
				parts = append(parts, q.value)
			}
			if v, ok := strings.CutPrefix(fam, "informer "); ok && !said {
				parts = append(parts, v)
			} else if v, ok := strings.CutPrefix(fam, "events "); ok && !said {
				parts = append(parts, v)
			}
			l.Short = strings.Join(parts, " ")
		}
		same := map[string][]*Lane{}
		for _, l := range lanes {
			same[l.Short] = append(same[l.Short], l)
		}
		for _, dup := range same {
			if len(dup) > 1 {
				for n, l := range dup {
					l.Short += " #" + strconv.Itoa(n+1)
				}
			}
		}
	}
}
