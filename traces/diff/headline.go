package diff

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kubeloom/kubeloom/traces/timeline"
)

// Differs reports whether anything differs beyond the thresholds: what
// `kubeloom diff` exits 1 for, as diff does.
func (r Report) Differs() bool {
	for _, f := range r.Families {
		if len(f.Differs) > 0 {
			return true
		}
	}
	for _, s := range r.Steps {
		if len(s.Differs) > 0 {
			return true
		}
	}
	for _, c := range r.Chains {
		if len(c.Differs) > 0 {
			return true
		}
	}
	return false
}

// Headline says in one line what B does differently from A: "B: 12
// goroutines fewer, 3 loops slower, killLeader's first effect 1.2s later",
// or "no difference".
func (r Report) Headline() string {
	var parts []string
	lanesA, lanesB := 0, 0
	onlyA, onlyB, slower, faster, later, sooner, other := 0, 0, 0, 0, 0, 0, 0
	for _, f := range r.Families {
		if f.A != nil {
			lanesA += f.A.Lanes
		}
		if f.B != nil {
			lanesB += f.B.Lanes
		}
		switch {
		case len(f.Differs) == 0:
		case f.A == nil:
			onlyB++
		case f.B == nil:
			onlyA++
		case slices.Contains(f.Differs, "period") && f.B.Period > f.A.Period:
			slower++
		case slices.Contains(f.Differs, "period"):
			faster++
		case onlyTimes(f.Differs) && moved(*f.A, *f.B) > 0:
			later++
		case onlyTimes(f.Differs):
			sooner++
		default:
			other++
		}
	}
	switch d := lanesB - lanesA; {
	case d > 0:
		parts = append(parts, plural(d, "goroutine")+" more")
	case d < 0:
		parts = append(parts, plural(-d, "goroutine")+" fewer")
	}
	for _, c := range []struct {
		n    int
		what string
	}{
		{onlyA, "only in A"}, {onlyB, "only in B"}, {slower, "slower"}, {faster, "faster"},
		{later, "ran later"}, {sooner, "ran sooner"}, {other, "that ran differently"},
	} {
		if c.n == 0 {
			continue
		}
		noun := "family"
		if c.what == "slower" || c.what == "faster" {
			noun = "loop"
		}
		parts = append(parts, plural(c.n, noun)+" "+c.what)
	}
	steps := 0
	for _, s := range r.Steps {
		if len(s.Differs) > 0 {
			steps++
		}
	}
	if steps > 0 {
		parts = append(parts, plural(steps, "startup step")+" moved")
	}
	if c, d, ok := r.biggestLatencyChange(); ok {
		word := "later"
		if d < 0 {
			word, d = "sooner", -d
		}
		parts = append(parts, fmt.Sprintf("%s's first effect %s %s", strings.TrimPrefix(c.Action, "action/"), timeline.RoundDuration(d), word))
	}
	if len(parts) == 0 {
		return "no difference"
	}
	return "B: " + strings.Join(parts, ", ")
}

// onlyTimes: what differs is only when the family started or ended (it
// ran as it did, at another time or for another while).
func onlyTimes(differs []string) bool {
	for _, d := range differs {
		if d != "first start" && d != "end" {
			return false
		}
	}
	return len(differs) > 0
}

// moved is which way a family's start, else its end, moved from a to b.
func moved(a, b Stats) time.Duration {
	if d := b.FirstStart - a.FirstStart; d != 0 {
		return d
	}
	return b.LastEnd - a.LastEnd
}

// biggestLatencyChange is the action whose first effect moved most.
func (r Report) biggestLatencyChange() (Chain, time.Duration, bool) {
	var best Chain
	var bestD time.Duration
	found := false
	for _, c := range r.Chains {
		if !slices.Contains(c.Differs, "latency") || c.AfterA < 0 || c.AfterB < 0 {
			continue
		}
		d := c.AfterB - c.AfterA
		if !found || abs(d) > abs(bestD) {
			best, bestD, found = c, d, true
		}
	}
	return best, bestD, found
}

// abs is |d|, of a duration or a count.
func abs[T ~int64](d T) T {
	if d < 0 {
		return -d
	}
	return d
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(word, "y"))
	}
	return fmt.Sprintf("%d %ss", n, word)
}
