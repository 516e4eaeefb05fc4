package podstartup

import (
	"cmp"
	"slices"
	"time"
)

// generatedSuffix is how many characters the apiserver adds to a
// generateName (names.SimpleNameGenerator: five random ones).
const generatedSuffix = 5

// matchGenerated gives each pod with no create of its own the create of
// its generateName prefix: the n-th create of a prefix, in time, to the
// n-th pod of that prefix the scheduler bound (else the n-th written
// Running). The apiserver names pods as it creates them and the scheduler
// takes them from its watch in that order, so where the creates' times
// differ this pairs them as they happened; creates at the same instant
// give the same figures whichever way they pair. It returns how many
// creates no pod took: pods never bound nor written Running.
func matchGenerated(pods []*Pod, gen map[string][]time.Time) int {
	if len(gen) == 0 {
		return 0
	}
	byPrefix := map[string][]*Pod{}
	for _, p := range pods {
		if !p.Created.IsZero() || len(p.Key) <= generatedSuffix {
			continue
		}
		prefix := p.Key[:len(p.Key)-generatedSuffix]
		if _, ok := gen[prefix]; ok {
			byPrefix[prefix] = append(byPrefix[prefix], p)
		}
	}
	left := 0
	for prefix, creates := range gen {
		ps := byPrefix[prefix]
		slices.SortStableFunc(ps, func(a, b *Pod) int { return cmp.Compare(seen(a).UnixNano(), seen(b).UnixNano()) })
		i := 0
		for _, at := range creates {
			// A pod seen before its create is an older one of the same
			// prefix (loaded before the run): it is not this create's.
			for i < len(ps) && seen(ps[i]).Before(at) {
				i++
			}
			if i == len(ps) {
				left++
				continue
			}
			ps[i].Created = at
			i++
		}
	}
	return left
}

// seen is when a pod was bound, else written Running.
func seen(p *Pod) time.Time {
	if !p.Scheduled.IsZero() {
		return p.Scheduled
	}
	return p.Running
}
