package htmlview

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/traces/diff"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// The comparison's data: two eras of one recording are two sides of one
// timeline, whose steps and links are encoded once, only those of the
// selected instances; each side's times count from its own recording's
// start, so that two recordings made at different instants share the axis.
func TestEncodeDiff(t *testing.T) {
	tl := recordBuiltin(t, "informer-eras")
	a, b := diff.Side{TL: tl, Select: "classic"}, diff.Side{TL: tl, Select: "modern"}
	d := encodeDiff(a, b, DiffNames{A: "a", B: "b"}, diff.Compare(a, b, diff.Options{}))
	var names []string
	for _, in := range d.Instances {
		names = append(names, d.Strings[in.Name])
	}
	insA, _ := a.Instances()
	insB, _ := b.Instances()
	if len(names) != len(insA)+len(insB) || names[0] != "A "+insA[0].Name() || names[1] != "B "+insB[0].Name() {
		t.Errorf("instances %q, want A's and B's in pairs", names)
	}
	shown := 0
	for _, in := range append(insA, insB...) {
		for _, l := range in.Lanes {
			shown += 2 + len(l.Iterations) + len(l.Calls) + len(l.Events)
			if l.Goroutine == timeline.MainLane {
				shown-- // a main lane has no started step
			}
			if l.Goroutine == timeline.MainLane || l.Open {
				shown-- // nor a stopped one, nor a lane still running
			}
		}
	}
	if got := len(d.Steps) / stepStride; got != shown {
		t.Errorf("%d steps, want the %d of the two eras' lanes, once", got, shown)
	}
	for i := 0; i < len(d.Steps); i += stepStride {
		if d.Steps[i] < 0 || int(d.Steps[i]) >= len(d.Lanes) {
			t.Fatalf("step %d is on lane %d of %d", i/stepStride, d.Steps[i], len(d.Lanes))
		}
	}
	for i := 0; i < len(d.Flows); i += flowStride {
		if d.Flows[i] >= int64(len(d.Lanes)) || d.Flows[i+3] >= int64(len(d.Lanes)) {
			t.Fatalf("flow %d joins lanes %d and %d of %d", i/flowStride, d.Flows[i], d.Flows[i+3], len(d.Lanes))
		}
	}
	if d.Diff == nil || len(d.Diff.Sides) != len(d.Instances) || len(d.Diff.Lanes) != len(d.Lanes) {
		t.Fatalf("the comparison's data does not cover the instances and lanes: %+v", d.Diff)
	}

	// B recorded an hour later than A: its lanes are drawn from its own start.
	later := *tl
	later.Start = tl.Start.Add(-time.Hour)
	b = diff.Side{TL: &later, Select: "modern"}
	d = encodeDiff(a, b, DiffNames{}, diff.Compare(a, b, diff.Options{}))
	if got := len(d.Steps) / stepStride; got != shown {
		t.Errorf("%d steps with B a copy of the recording, want %d: each side's own, once", got, shown)
	}
	first := d.Instances[1] // B's first instance
	l := pageLanes(insB[0])[0]
	if got, want := d.Lanes[first.First].Start, later.Offset(l.Start).Microseconds(); got != want {
		t.Errorf("B's first lane starts at %dµs on the page, want %dµs from B's start", got, want)
	}
}

// The panel's times come rounded as the text report rounds them
// (timeline.RoundDuration), each change rounded from the exact times: the
// page says "1.19s" where kubeloom diff does, not "1.187342s".
func TestDiffTimesAreRounded(t *testing.T) {
	tl := timeline.Build(small())
	s := diff.Side{TL: tl}
	us := func(d time.Duration) int64 { return d.Microseconds() }
	r := diff.Report{
		Families: []diff.Family{{Role: "r", Family: "f", Differs: []string{"period"},
			A: &diff.Stats{Period: 1187342 * time.Microsecond, FirstStart: 12345678 * time.Microsecond},
			B: &diff.Stats{Period: 2376001 * time.Microsecond, FirstStart: 12345678 * time.Microsecond}}},
		Steps: []diff.Step{{Role: "r", Step: "s", AtA: 1184 * time.Millisecond, AtB: 2376 * time.Millisecond, Differs: []string{"time"}}},
		Chains: []diff.Chain{{Role: "r", Action: "action/a", AtA: 10 * time.Second, AtB: 10 * time.Second,
			AfterA: 1184 * time.Millisecond, AfterB: 2376 * time.Millisecond, Differs: []string{"latency"}}},
	}
	d := encodeDiff(s, s, DiffNames{}, r).Diff
	if g := d.Families[0].Figs; len(g) != 1 || g[0].What != "period" || g[0].A != us(1190*time.Millisecond) || g[0].B != us(2380*time.Millisecond) ||
		g[0].Change != us(1190*time.Millisecond) {
		t.Errorf("family figures %+v: want the period 1.19s and 2.38s, +1.19s", g)
	}
	// 1.184s and 2.376s are 1.18s and 2.38s; 2.376s-1.184s is 1.192s:
	// "+1.19s" (the rounded times' difference would say "+1.2s").
	if st := d.Steps[0]; st.At != [2]int64{us(1180 * time.Millisecond), us(2380 * time.Millisecond)} || st.Change[0] != us(1190*time.Millisecond) {
		t.Errorf("step at %v, change %v: want 1.18s and 2.38s, +1.19s", st.At, st.Change)
	}
	c := d.Chains[0]
	if c.After != [2]int64{us(1180 * time.Millisecond), us(2380 * time.Millisecond)} || c.Change != [2]int64{0, us(1190 * time.Millisecond)} ||
		c.Ratio != float64(2376)/1184 {
		t.Errorf("chain after %v, change %v, ratio %v: want 1.18s and 2.38s, the same at, +1.19s ×%v", c.After, c.Change, c.Ratio, float64(2376)/1184)
	}
}

// A family that differs only in when its last goroutine ended gets that
// figure on the page, and the page has a word for it, and for every
// figure of a family, in every language: the panel lists what the text
// report lists (diff.Family.Figures).
func TestDiffFigureEnd(t *testing.T) {
	s := diff.Side{TL: timeline.Build(small())}
	st := func(end time.Duration) *diff.Stats {
		return &diff.Stats{Lanes: 1, Period: time.Second, FirstStart: time.Second, LastEnd: end}
	}
	f := diff.Family{Role: "r", Family: "f", A: st(30 * time.Second), B: st(61234 * time.Millisecond), Differs: []string{"end"}}
	d := encodeDiff(s, s, DiffNames{}, diff.Report{Families: []diff.Family{f}}).Diff
	want := []diffFig{{What: "end", Dur: true, A: (30 * time.Second).Microseconds(), B: (61 * time.Second).Microseconds(),
		Change: (31200 * time.Millisecond).Microseconds(), Ratio: -1}}
	if got := d.Families[0].Figs; !slices.Equal(got, want) {
		t.Errorf("a family that differs only in its end has figures %+v on the page, want %+v", got, want)
	}
	camel := regexp.MustCompile(` (\w)`)
	for _, l := range pageLangs() {
		for _, g := range f.Figures() {
			key := "diff.what." + camel.ReplaceAllStringFunc(g.What, func(m string) string { return strings.ToUpper(m[1:]) })
			if l.Text[key] == "" {
				t.Errorf("%s: the page has no word %s for the figure %q", l.Code, key, g.What)
			}
		}
	}
}
