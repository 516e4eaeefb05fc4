package timeline

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// FamilySpans is what two runs of one scenario and seed must agree on
// where Shape asks less: for every goroutine family ("instance | catalog
// name": the lanes of one goroutine name in one instance, as a run's
// summary counts them), how many lanes it has and the names of their spans
// and span events with how many of each ("lanes ×5, OnAdd ×3, worker ×5").
// Which lane of a family did a piece of work (which worker of a queue took
// a key) is left out; times, IDs and attribute values too.
func FamilySpans(tl *Timeline) map[string]string {
	counts := map[string]map[string]int{}
	for _, in := range tl.Instances {
		for _, l := range in.Lanes {
			key := in.Name() + " | " + l.Goroutine
			n := counts[key]
			if n == nil {
				n = map[string]int{}
				counts[key] = n
			}
			n["lanes"]++
			for _, marks := range [][]Mark{l.Iterations, l.Calls, l.Events} {
				for _, m := range marks {
					n[m.Name]++
				}
			}
		}
	}
	out := map[string]string{}
	for key, n := range counts {
		var parts []string
		for _, name := range slices.Sorted(maps.Keys(n)) {
			parts = append(parts, fmt.Sprintf("%s ×%d", name, n[name]))
		}
		out[key] = strings.Join(parts, ", ")
	}
	return out
}

// FamilyDiff is a family whose spans differ between two FamilySpans: A or
// B is "(none)" where the family is in one only.
type FamilyDiff struct{ Family, A, B string }

// DiffFamilySpans returns the families on which a and b differ, sorted.
func DiffFamilySpans(a, b map[string]string) []FamilyDiff {
	var out []FamilyDiff
	keys := slices.Sorted(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		va, oka := a[k]
		vb, okb := b[k]
		if oka && okb && va == vb {
			continue
		}
		if !oka {
			va = "(none)"
		}
		if !okb {
			vb = "(none)"
		}
		out = append(out, FamilyDiff{Family: k, A: va, B: vb})
	}
	return out
}
