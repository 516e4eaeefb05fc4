package docs

import (
	"testing"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/traces/termview"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// checkGroupLabels feeds every built-in's recording to the grouping model
// (traces/timeline/group.go) and fits each set of sibling rows the way
// `replay --width 80 --expand all` lays them out — the rows under an
// instance, under a component, under a family — to the label column an
// 80-column terminal gives at that depth: no two may read the same.
func checkGroupLabels(t *testing.T, d *docRuns) {
	width := termview.LabelColumn(80)
	for _, b := range scenarios.Builtins() {
		r := d.of(b.Name)
		for _, in := range r.tl.Instances {
			headed := len(in.Groups()) > 1
			var top []string
			for _, c := range in.Groups() {
				switch {
				case !headed:
					for _, l := range c.Lanes {
						top = append(top, l.Label)
					}
					continue
				case len(c.Lanes) == 1:
					top = append(top, c.Lanes[0].Short)
					continue
				}
				top = append(top, c.Name)
				var inner []string
				seen := map[*timeline.Group]bool{}
				for _, l := range c.Lanes {
					if l.Group == c {
						inner = append(inner, l.Short)
						continue
					}
					if !seen[l.Group] {
						seen[l.Group] = true
						inner = append(inner, l.Group.Name)
						var fam []string
						for _, fl := range l.Group.Lanes {
							fam = append(fam, fl.Short)
						}
						distinct(t, b.Name+" "+l.Group.Key, fam, width-4)
					}
				}
				distinct(t, b.Name+" "+c.Key, inner, width-2)
			}
			distinct(t, b.Name+" "+in.Name(), top, width)
		}
	}
}

func distinct(t *testing.T, where string, labels []string, width int) {
	t.Helper()
	seen := map[string]string{}
	for i, f := range timeline.FitAll(labels, width, "…") {
		if o, dup := seen[f]; dup {
			t.Errorf("%s: %q and %q both read %q in %d columns", where, o, labels[i], f, width)
		}
		seen[f] = labels[i]
	}
}
