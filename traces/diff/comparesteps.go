package diff

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"go.opentelemetry.io/otel/trace"
)

// stepKey pairs a step across sides: its role, name and occurrence.
type stepKey struct {
	role, name string
	n          int
}

func (s step) key() stepKey { return stepKey{s.role, s.name, s.n} }

func compareSteps(a, b []step, o Options) []Step {
	byKey := map[stepKey]*Step{}
	var all []*Step
	get := func(s step) *Step {
		st := byKey[s.key()]
		if st == nil {
			st = &Step{Role: s.role, Step: s.label(), AtA: -1, AtB: -1}
			byKey[s.key()] = st
			all = append(all, st)
		}
		return st
	}
	for _, s := range a {
		st := get(s)
		st.AtA, st.OrderA = s.at, s.order
	}
	for _, s := range b {
		st := get(s)
		st.AtB, st.OrderB = s.at, s.order
	}
	// Order is relative: a step that only one side has moves every later
	// one, so a step's place is its rank among the steps both sides have.
	rankA, rankB := ranks(a, byKey), ranks(b, byKey)
	out := make([]Step, 0, len(all))
	for _, st := range all {
		switch {
		case st.AtB < 0:
			st.Differs = []string{"only in A"}
		case st.AtA < 0:
			st.Differs = []string{"only in B"}
		default:
			if rankA[st] != rankB[st] {
				st.Differs = append(st.Differs, "order")
			}
			if durationDiffers(st.AtA, st.AtB, o) {
				st.Differs = append(st.Differs, "time")
			}
		}
		out = append(out, *st)
	}
	slices.SortStableFunc(out, func(x, y Step) int {
		return cmp.Or(strings.Compare(x.Role, y.Role), cmp.Compare(when(x.AtA, x.AtB), when(y.AtA, y.AtB)))
	})
	return out
}

// ranks places each step both sides have among those of its role on this
// side: 1, 2, 3 ….
func ranks(ss []step, byKey map[stepKey]*Step) map[*Step]int {
	rank := map[*Step]int{}
	next := map[string]int{}
	for _, s := range ss {
		st := byKey[s.key()]
		if st.AtA < 0 || st.AtB < 0 {
			continue
		}
		next[s.role]++
		rank[st] = next[s.role]
	}
	return rank
}

// when is a row's place in time: A's, or B's for a row only B has.
func when(a, b time.Duration) time.Duration {
	if a >= 0 {
		return a
	}
	return b
}

func compareChains(a, b []step, effA, effB map[trace.SpanID][]span, o Options) []Chain {
	return chainRows(a, b, func(s step) time.Duration { return firstEffect(s.at, effA[s.span.SpanID]) },
		func(s step) time.Duration { return firstEffect(s.at, effB[s.span.SpanID]) }, o)
}

// compareWatchChains pairs the watch events of two sides and the time from
// each to its first handler call.
func compareWatchChains(a, b []step, handlersA, handlersB map[stepKey]time.Duration, o Options) []Chain {
	return chainRows(a, b, func(s step) time.Duration { return handlersA[s.key()] },
		func(s step) time.Duration { return handlersB[s.key()] }, o)
}

// chainRows pairs the causes of two sides (actions, watch events) by role,
// name and occurrence, with how long after each its effect came.
func chainRows(a, b []step, afterA, afterB func(step) time.Duration, o Options) []Chain {
	byKey := map[stepKey]*Chain{}
	var all []*Chain
	get := func(s step) *Chain {
		c := byKey[s.key()]
		if c == nil {
			c = &Chain{Role: s.role, Action: s.label(), AtA: -1, AtB: -1, AfterA: -1, AfterB: -1}
			byKey[s.key()] = c
			all = append(all, c)
		}
		return c
	}
	for _, s := range a {
		c := get(s)
		c.AtA, c.AfterA = s.at, afterA(s)
	}
	for _, s := range b {
		c := get(s)
		c.AtB, c.AfterB = s.at, afterB(s)
	}
	out := make([]Chain, 0, len(all))
	for _, c := range all {
		switch {
		case c.AtB < 0:
			c.Differs = []string{"only in A"}
		case c.AtA < 0:
			c.Differs = []string{"only in B"}
		default:
			if durationDiffers(c.AtA, c.AtB, o) {
				c.Differs = append(c.Differs, "time")
			}
			if (c.AfterA < 0) != (c.AfterB < 0) || durationDiffers(c.AfterA, c.AfterB, o) {
				c.Differs = append(c.Differs, "latency")
			}
		}
		out = append(out, *c)
	}
	slices.SortStableFunc(out, func(x, y Chain) int {
		return cmp.Or(strings.Compare(x.Role, y.Role), cmp.Compare(when(x.AtA, x.AtB), when(y.AtA, y.AtB)))
	})
	return out
}
