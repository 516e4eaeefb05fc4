package stepview

import (
	"errors"
	"time"

	"github.com/kubeloom/kubeloom/sim/catalog/locale"

	"github.com/kubeloom/kubeloom/traces/timeline"
)

// Against is a second recording that each step of the first is compared
// with (kubeloom step A --against B): whether B has the same step, and
// when.
type Against struct {
	// B is the other recording.
	B *timeline.Timeline
	// RoleA and RoleB give an instance's role on each side, and whether
	// it takes part (diff.Side.Role: its service and ID without the era,
	// so that classic/cm-0 pairs with modern/cm-0). A step of A on an
	// instance that takes no part is compared with nothing.
	RoleA, RoleB func(*timeline.Instance) (role string, ok bool)
}

// compare makes d compare its steps with a's recording; a nil a compares
// them with none.
func (d *data) compare(a *Against) error {
	if a == nil {
		return nil
	}
	if a.B == nil || a.RoleA == nil || a.RoleB == nil {
		return errors.New("stepview: Against needs B, RoleA and RoleB")
	}
	d.inB = a.pair(d.tl, d.steps)
	return nil
}

// stepKey is what a step is, whatever its index: where it happens (the
// instance's role, the lane's family, so that a pool's workers and a pod
// worker pair whatever their number), what it is (its kind and name), and
// which of those it is (the nth OnAdd of listener-run pods handler-1).
// Indexes do not pair: one goroutine more in B shifts every index after it.
type stepKey struct {
	role, family string
	kind         timeline.StepKind
	name         string
	n            int
}

// notCompared and notInB are what inB holds for a step of A whose instance
// takes no part, and for one B does not have.
const (
	notCompared time.Duration = -1 << 63
	notInB      time.Duration = notCompared + 1
)

// pair returns, per step of steps (A's), the offset from the start of B
// at which B has the same step, or notInB, or notCompared.
func (a *Against) pair(tl *timeline.Timeline, steps []timeline.Step) []time.Duration {
	stepsB := timeline.Steps(a.B)
	inB := make(map[stepKey]time.Duration, len(stepsB)) // sized: growing it took a third of the time
	for k, s := range keys(stepsB, a.RoleB) {
		if k != (stepKey{}) {
			inB[k] = a.B.Offset(s.At)
		}
	}
	out := make([]time.Duration, len(steps))
	i := 0
	for k := range keys(steps, a.RoleA) {
		at, ok := inB[k]
		switch {
		case k == (stepKey{}):
			at = notCompared
		case !ok:
			at = notInB
		}
		out[i] = at
		i++
	}
	return out
}

// keys yields each step's key in order, the zero key for a step whose
// instance takes no part.
func keys(steps []timeline.Step, role func(*timeline.Instance) (string, bool)) func(yield func(stepKey, timeline.Step) bool) {
	return func(yield func(stepKey, timeline.Step) bool) {
		seen := make(map[stepKey]int, len(steps)/4)
		roles := map[*timeline.Instance]string{}
		families := map[*timeline.Lane]string{}
		for _, s := range steps {
			r, ok := roles[s.Instance]
			if !ok {
				if r, ok = role(s.Instance); !ok {
					r = ""
				}
				roles[s.Instance] = r
			}
			var k stepKey
			if r != "" {
				f, ok := families[s.Lane]
				if !ok {
					f = s.Lane.Family() // a regular expression's work: once a lane
					families[s.Lane] = f
				}
				k = stepKey{role: r, family: f, kind: s.Kind, name: s.Name()}
				if s.Kind == timeline.StepStarted || s.Kind == timeline.StepStopped {
					// A started or stopped step is named by its lane's
					// label, which has a worker's number: the family's.
					k.name = ""
				}
				seen[k]++
				k.n = seen[k]
			}
			if !yield(k, s) {
				return
			}
		}
	}
}

// inB is the fact a step of A gets when compared with B, in w's language:
// "in B: at 5.19s (+4.9s)", "in B: the same instant", "not in B"; "" for
// a step compared with nothing.
func (w words) inB(at, atB time.Duration) string {
	switch {
	case atB == notCompared:
		return ""
	case atB == notInB:
		return w.t("notInB")
	case atB == at:
		return w.t("sameInB")
	}
	shift := formatOffset(atB - at)
	if atB > at {
		shift = "+" + shift
	}
	return w.f("inB", locale.Args{"at": formatOffset(atB), "shift": shift})
}
