package diff

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// Options say what counts as a difference.
type Options struct {
	// Threshold is the relative change below which two counts or two
	// periods are the same (0.05: 5%); 0 takes the default, 5%.
	Threshold float64
	// MinShift is the least change of a time (a first start, a step, an
	// effect's latency) that counts; 0 takes the default, 10ms.
	MinShift time.Duration
}

// DefaultThreshold and DefaultMinShift are Options' defaults.
const (
	DefaultThreshold = 0.05
	DefaultMinShift  = 10 * time.Millisecond
)

// Report is what differs between two sides.
type Report struct {
	Families []Family // every family of either side, by role then family
	Steps    []Step   // the startup steps of either side, by role then A's order
	// Chains are the scenario actions of either side, then their watch
	// events (from a watch event to the first handler call it led to), by
	// role then time.
	Chains []Chain
}

// Family is one family of goroutines on both sides; A or B is nil where
// it did not run.
type Family struct {
	Role, Family string
	A, B         *Stats
	// Differs names what differs beyond the options' thresholds:
	// "only in A", "lanes", "iterations" and "spans" (as rates over the
	// time the family ran), "period", "first start", "end", "errors",
	// "calls" (a name of call only one side made).
	Differs []string
}

// Step is a startup step on both sides; AtA or AtB is -1 where it did not
// happen. OrderA and OrderB are its places among its role's steps.
type Step struct {
	Role, Step     string
	AtA, AtB       time.Duration
	OrderA, OrderB int
	Differs        []string // "only in A", "order", "time"
}

// Chain is a scenario action (by its verb and occurrence) and how long
// after it its first effect came, on both sides; At or After is -1 where
// the side has no such action or the action no effect.
type Chain struct {
	Role, Action   string
	AtA, AtB       time.Duration
	AfterA, AfterB time.Duration
	Differs        []string // "only in A", "time", "latency"
}

// Compare compares two sides.
func Compare(a, b Side, o Options) Report {
	o.Threshold = cmp.Or(o.Threshold, DefaultThreshold)
	o.MinShift = cmp.Or(o.MinShift, DefaultMinShift)
	ia, ib := a.instances(), b.instances()
	var r Report
	r.Families = compareFamilies(familyStats(a.TL, ia), familyStats(b.TL, ib), o)
	stepsA, actionsA := mainSteps(a.TL, ia)
	stepsB, actionsB := mainSteps(b.TL, ib)
	r.Steps = compareSteps(stepsA, stepsB, o)
	effA, effB := effects(a.TL), effects(b.TL)
	r.Chains = compareChains(actionsA, actionsB, effA, effB, o)
	watchA, handlersA := watchEvents(a.TL, ia, effA)
	watchB, handlersB := watchEvents(b.TL, ib, effB)
	r.Chains = append(r.Chains, compareWatchChains(watchA, watchB, handlersA, handlersB, o)...)
	return r
}

func compareFamilies(a, b map[key]*Stats, o Options) []Family {
	keys := map[key]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	var out []Family
	for k := range keys {
		f := Family{Role: k.role, Family: k.family, A: a[k], B: b[k]}
		switch {
		case f.A == nil:
			f.Differs = []string{"only in B"}
		case f.B == nil:
			f.Differs = []string{"only in A"}
		default:
			f.Differs = statsDiffer(*f.A, *f.B, o)
		}
		out = append(out, f)
	}
	slices.SortFunc(out, func(x, y Family) int {
		return cmp.Or(strings.Compare(x.Role, y.Role), strings.Compare(x.Family, y.Family))
	})
	return out
}

// statsDiffer names the stats of a family that differ beyond o. Counts
// (iterations, spans) are compared as rates, per second the family ran:
// goroutines that ran 30s longer (a leader killed later) made more of
// everything, which "end" already says; only a loop that ran at another
// pace differs in its counts.
func statsDiffer(a, b Stats, o Options) []string {
	var out []string
	if a.Lanes != b.Lanes {
		out = append(out, "lanes") // a goroutine more or less is never noise
	}
	if countDiffers(a.Iterations, b.Iterations, o) && rateDiffers(a.Iterations, b.Iterations, a, b, o) {
		out = append(out, "iterations")
	}
	// A period is known from two iterations on: one side's single
	// iteration says nothing of it.
	if a.Period > 0 && b.Period > 0 && durationDiffers(a.Period, b.Period, o) && relDiffers(float64(a.Period), float64(b.Period), o) {
		out = append(out, "period")
	}
	if durationDiffers(a.FirstStart, b.FirstStart, o) {
		out = append(out, "first start")
	}
	if durationDiffers(a.LastEnd, b.LastEnd, o) {
		out = append(out, "end")
	}
	if countDiffers(int64(a.Spans), int64(b.Spans), o) && rateDiffers(int64(a.Spans), int64(b.Spans), a, b, o) {
		out = append(out, "spans")
	}
	if a.Errors != b.Errors {
		out = append(out, "errors")
	}
	if len(CallsOnlyIn(a, b)) > 0 || len(CallsOnlyIn(b, a)) > 0 {
		out = append(out, "calls")
	}
	return out
}

// rateDiffers: counts over the families' lives differ beyond the
// threshold (the counts themselves when a family did not run at all).
func rateDiffers(na, nb int64, a, b Stats, o Options) bool {
	if a.Alive <= 0 || b.Alive <= 0 {
		return true
	}
	return relDiffers(float64(na)/a.Alive.Seconds(), float64(nb)/b.Alive.Seconds(), o)
}

// countDiffers: two counts differ when they differ by more than one and by
// more than the threshold.
func countDiffers(a, b int64, o Options) bool {
	return abs(a-b) > 1 && relDiffers(float64(a), float64(b), o)
}

func relDiffers(a, b float64, o Options) bool {
	hi := math.Max(math.Abs(a), math.Abs(b))
	return hi > 0 && math.Abs(a-b)/hi > o.Threshold
}

// durationDiffers: two times differ when they are MinShift apart or more.
func durationDiffers(a, b time.Duration, o Options) bool {
	return abs(a-b) >= o.MinShift
}

// CallsOnlyIn are the names of the calls a's goroutines made and b's did
// not, sorted: a DeltaFIFO's Pop where the other side's RealFIFO pops.
func CallsOnlyIn(a, b Stats) []string {
	var out []string
	for name := range a.Calls {
		if b.Calls[name] == 0 {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// CallList is what CallsOnlyIn(a, b) names, each with how often a's
// goroutines made it: "DeltaFIFO.Pop ×3", as the report lists them.
func CallList(a, b Stats) []string {
	names := CallsOnlyIn(a, b)
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = fmt.Sprintf("%s ×%d", n, a.Calls[n])
	}
	return out
}
