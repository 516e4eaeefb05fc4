package docs

import (
	"slices"
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
	const glyph = 2 // "▾ " before an unfolded group's name, which termview takes from its width
	for _, b := range scenarios.Builtins() {
		if slices.Contains(largeBuiltins, b.Name) {
			continue // cluster-basics' groups, a hundred times over
		}
		r := d.of(b.Name)
		for _, in := range r.tl.Instances {
			headed := len(in.Groups()) > 1
			var top siblingRows
			for _, c := range in.Groups() {
				switch {
				case !headed:
					for _, l := range c.Lanes {
						top.add(l.Label, width)
					}
					continue
				case len(c.Lanes) == 1:
					top.add(c.Lanes[0].Short, width)
					continue
				}
				top.add(c.Name, width-glyph)
				var inner siblingRows
				seen := map[*timeline.Group]bool{}
				for _, l := range c.Lanes {
					if l.Group == c {
						inner.add(l.Short, width-2)
						continue
					}
					if !seen[l.Group] {
						seen[l.Group] = true
						inner.add(l.Group.Name, width-2-glyph)
						var fam siblingRows
						for _, fl := range l.Group.Lanes {
							fam.add(fl.Short, width-4)
						}
						fam.distinct(t, b.Name+" "+l.Group.Key)
					}
				}
				inner.distinct(t, b.Name+" "+c.Key)
			}
			top.distinct(t, b.Name+" "+in.Name())
		}
	}
}

// siblingRows are the labels of rows side by side, each with the width it gets.
type siblingRows struct {
	labels []string
	widths []int
}

func (s *siblingRows) add(label string, width int) {
	s.labels, s.widths = append(s.labels, label), append(s.widths, width)
}

// distinct fits the rows together, as termview does (timeline.FitEach): no
// two may read the same.
func (s *siblingRows) distinct(t *testing.T, where string) {
	t.Helper()
	seen := map[string]string{}
	for i, f := range timeline.FitEach(s.labels, s.widths, "…") {
		if o, dup := seen[f]; dup {
			t.Errorf("%s: %q and %q both read %q in %d columns", where, o, s.labels[i], f, s.widths[i])
		}
		seen[f] = s.labels[i]
	}
}
