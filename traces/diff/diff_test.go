package diff

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces/timeline"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// run is a small recording's knobs: a controller manager's log-flush loop
// every period seconds, its startup steps in order, an extra goroutine,
// and a scenario action at 10s whose first effect comes latency seconds
// after it.
type run struct {
	era       string // "" or an era: the instances' IDs get "era/" in front
	period    float64
	steps     []string
	extra     bool
	latency   float64
	killLater bool // the action at 12s instead of 10s
}

func (r run) timeline() *timeline.Timeline {
	id := func(s string) string {
		if r.era == "" {
			return s
		}
		return r.era + "/" + s
	}
	rec := tt.New("diff")
	rec.Instance(catalog.ServiceScenario, id("scenario"))
	root := rec.Span(tt.Root, "scenario diff", 0, 60)
	at := 10.0
	if r.killLater {
		at = 12
	}
	action := rec.Span(root, "action/killLeader", at, at)

	rec.Instance("kube-controller-manager", id("cm-0"))
	main := rec.Span(tt.Root, "main", 0, 60)
	for i, s := range r.steps {
		rec.Span(main, s, 0.1*float64(i), 0.1*float64(i)+0.05)
	}
	flush := rec.Goroutine(main, "cm/log-flush", catalog.KindUntil, 0.5, 60, catalog.AttrGoroutinePeriod, r.period)
	rec.Loop(flush, "cm/log-flush", "Flush", 0.5, 60, r.period, 0.001)
	for w := 1; w <= 2; w++ {
		rec.Goroutine(main, "controller/endpoint/worker", catalog.KindUntil, 1, 60, catalog.AttrWorker, w)
	}
	if r.extra {
		rec.Goroutine(main, "cm/http-server", catalog.KindGo, 1, 60)
	}
	effect := rec.Span(flush, "stopped leading", at+r.latency, at+r.latency)
	rec.Link(effect, action)
	return timeline.Build(rec.Spans())
}

var base = run{period: 5, steps: []string{"NewCMServer", "InitLogs", "RunOrDie"}, latency: 1}

func compare(a, b run) Report {
	return Compare(Side{TL: a.timeline()}, Side{TL: b.timeline()}, Options{})
}

func differing(r Report) []string {
	var out []string
	for _, f := range r.Families {
		if len(f.Differs) > 0 {
			out = append(out, f.Role+" | "+f.Family+": "+strings.Join(f.Differs, ", "))
		}
	}
	for _, s := range r.Steps {
		if len(s.Differs) > 0 {
			out = append(out, s.Role+" | step "+s.Step+": "+strings.Join(s.Differs, ", "))
		}
	}
	for _, c := range r.Chains {
		if len(c.Differs) > 0 {
			out = append(out, c.Role+" | "+c.Action+": "+strings.Join(c.Differs, ", "))
		}
	}
	return out
}

func TestSameRunNoDifference(t *testing.T) {
	r := compare(base, base)
	if r.Differs() || r.Headline() != "no difference" {
		t.Errorf("a run against itself: %q, %v", r.Headline(), differing(r))
	}
	// The pool's two workers are one family; the loop has its period.
	family := func(name string) Family {
		t.Helper()
		for _, f := range r.Families {
			if f.Family == name {
				if f.A == nil || f.B == nil {
					t.Fatalf("%s runs on one side only of a run against itself: %+v", name, f)
				}
				return f
			}
		}
		t.Fatalf("no family %s among %d", name, len(r.Families))
		return Family{}
	}
	if f := family("controller/endpoint/worker"); f.A.Lanes != 2 || f.B.Lanes != 2 {
		t.Errorf("the workers' family has %d and %d lanes, want 2", f.A.Lanes, f.B.Lanes)
	}
	if f := family("cm/log-flush"); f.A.Period != 5*time.Second {
		t.Errorf("log-flush's period is %s, want 5s", f.A.Period)
	}
}

// A side ran in turns when its scenario's root span says so; a side
// whose recording says nothing (made before kubeloom wrote it) did not.
func TestInTurns(t *testing.T) {
	side := func(turns any) Side {
		rec := tt.New("turns")
		rec.Instance(catalog.ServiceScenario, "scenario")
		if turns == nil {
			rec.Span(tt.Root, "scenario turns", 0, 1)
		} else {
			rec.Span(tt.Root, "scenario turns", 0, 1, catalog.AttrRunInTurns, turns)
		}
		rec.Instance("kube-controller-manager", "cm-0")
		rec.Span(tt.Root, "main", 0, 1, catalog.AttrRunInTurns, true) // not the scenario's: not read
		return Side{TL: timeline.Build(rec.Spans())}
	}
	for _, c := range []struct {
		turns any
		want  bool
	}{{true, true}, {false, false}, {nil, false}} {
		if got := side(c.turns).InTurns(); got != c.want {
			t.Errorf("a recording whose scenario says %s=%v: InTurns %v, want %v", catalog.AttrRunInTurns, c.turns, got, c.want)
		}
	}
}

func TestWhatDiffers(t *testing.T) {
	slower := base
	slower.period = 6
	extra := base
	extra.extra = true
	reordered := base
	reordered.steps = []string{"InitLogs", "NewCMServer", "RunOrDie"}
	late := base
	late.latency = 2.2
	for _, tc := range []struct {
		name     string
		b        run
		differs  []string // what differing must include
		headline string
	}{
		{"a slower loop", slower, []string{"kube-controller-manager cm-0 | cm/log-flush: iterations, period, spans"}, "B: 1 loop slower"},
		{"a goroutine more", extra, []string{"kube-controller-manager cm-0 | cm/http-server: only in B"}, "B: 1 goroutine more, 1 family only in B"},
		{"steps reordered", reordered, []string{"kube-controller-manager cm-0 | step NewCMServer: order, time", "kube-controller-manager cm-0 | step InitLogs: order, time"}, "B: 2 startup steps moved"},
		{"a later effect", late, []string{"kubeloom scenario | action/killLeader: latency"}, "B: killLeader's first effect 1.2s later"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := compare(base, tc.b)
			got := differing(r)
			for _, want := range tc.differs {
				if !slices.Contains(got, want) {
					t.Errorf("differing %v, want %q among them", got, want)
				}
			}
			if !r.Differs() || r.Headline() != tc.headline {
				t.Errorf("headline %q (differs %v), want %q", r.Headline(), r.Differs(), tc.headline)
			}
		})
	}
}

// Small changes are no difference: a loop 2% slower, an effect 5ms later.
func TestThresholds(t *testing.T) {
	b := base
	b.period = 5.1
	b.latency = 1.005
	if r := compare(base, b); r.Differs() {
		t.Errorf("within the thresholds: %v", differing(r))
	}
	if r := Compare(Side{TL: base.timeline()}, Side{TL: b.timeline()}, Options{Threshold: 0.01, MinShift: time.Millisecond}); !r.Differs() {
		t.Error("beyond tighter thresholds, nothing differs")
	}
}

// Two eras of one recording pair by role: classic/cm-0 with modern/cm-0.
func TestErasPairByRole(t *testing.T) {
	a, b := base, base
	a.era, b.era = "classic", "modern"
	b.killLater = true
	r := Compare(Side{TL: a.timeline(), Select: "classic"}, Side{TL: b.timeline(), Select: "modern"}, Options{})
	got := differing(r)
	if len(got) != 1 || got[0] != "kubeloom scenario | action/killLeader: time" {
		t.Errorf("classic against modern: %v, want only the action's time", got)
	}
	// A selection that matches nothing compares nothing.
	if r := Compare(Side{TL: a.timeline(), Select: "modern"}, Side{TL: b.timeline(), Select: "modern"}, Options{}); len(r.Families) == 0 || r.Families[0].A != nil {
		t.Errorf("selecting an era the recording lacks: %+v", r.Families)
	}
}

// An effect is where the span named its cause: at its start, or, for a
// span that was running when the action came (a refused renewal, a killed
// process), at its first event after the action, else at its end.
func TestFirstEffect(t *testing.T) {
	s := time.Second
	for _, tc := range []struct {
		name string
		of   []span
		want time.Duration
	}{
		{"started after", []span{{start: 12 * s, end: 13 * s}}, 2 * s},
		{"the earliest", []span{{start: 15 * s, end: 16 * s}, {start: 11 * s, end: 11 * s}}, s},
		{"running, an event after", []span{{start: 5 * s, end: 19 * s, events: []time.Duration{6 * s, 11 * s, 13 * s}}}, s},
		{"running, no event after", []span{{start: 5 * s, end: 19 * s, events: []time.Duration{6 * s}}}, 9 * s},
		{"none", nil, -1},
	} {
		if got := firstEffect(10*s, tc.of); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

// A watch event's chain: from the receive iteration along the causal links
// (DeltaFIFO.Add, Pop, pop) to the first handler call; paired across runs
// by the event's type, object and occurrence.
func TestWatchChains(t *testing.T) {
	record := func(handlerAt float64) *timeline.Timeline {
		rec := tt.New("watch")
		rec.Instance("informers", "informers")
		main := rec.Span(tt.Root, "StartInformers", 0, 60)
		recv := rec.Goroutine(main, "watch/stream-receive", catalog.KindGo, 0, 60)
		ev := rec.Iteration(recv, "watch/stream-receive", "receive", 1, 5, 5.001,
			catalog.AttrEventType, "ADDED", catalog.AttrObjectKey, "default/web-3")
		refl := rec.Goroutine(main, "reflector/list-watch", catalog.KindUntil, 0, 60)
		add := rec.Span(refl, "DeltaFIFO.Add", 5.001, 5.002)
		rec.Link(add, ev)
		run := rec.Goroutine(main, "informer/listener-run", catalog.KindGo, 0, 60)
		h := rec.Iteration(run, "informer/listener-run", "OnAdd", 1, handlerAt, handlerAt+0.01)
		rec.Link(h, add)
		return timeline.Build(rec.Spans())
	}
	r := Compare(Side{TL: record(5.1)}, Side{TL: record(6.3)}, Options{})
	var got *Chain
	for i := range r.Chains {
		if r.Chains[i].Action == "watch ADDED default/web-3" {
			got = &r.Chains[i]
		}
	}
	if got == nil {
		t.Fatalf("no chain for the watch event: %+v", r.Chains)
	}
	if got.AfterA != 100*time.Millisecond || got.AfterB != 1300*time.Millisecond || !slices.Contains(got.Differs, "latency") {
		t.Errorf("watch event to handler: %+v; want 100ms and 1.3s, differing in latency", *got)
	}
	if h := r.Headline(); !strings.Contains(h, "watch ADDED default/web-3's first effect 1.2s later") {
		t.Errorf("headline %q", h)
	}
}
