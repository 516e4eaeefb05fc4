package htmlview

import (
	"bufio"
	"errors"
	"fmt"
	"html"
	"io"
	"slices"
	"time"

	"github.com/kubeloom/kubeloom/traces/diff"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// diffJS is the comparison page's script: the export page's and the
// panel of what differs (assets/js/entry-diff.js).
var diffJS = mustScript("diff.js")

// DiffNames name the two sides of a comparison on its page: the files,
// with their selections ("run.jsonl (classic)").
type DiffNames struct{ A, B string }

// WriteDiff writes the comparison of two sides as one self-contained page:
// the page of Write, whose instances are both sides' in pairs (each role's
// instances in A, then in B, "A kubelet node-1" above "B kubelet
// node-1"), every time from its own recording's start so that the two
// share one axis; the lanes of a family that differs (r.Families) are
// highlighted, those that run on one side only marked, and a panel lists
// what differs (families, startup steps, chains), each a link to its lane.
//
// The two sides may be two selections of one timeline (two eras of one
// recording); each side is drawn from its timeline's start.
func WriteDiff(w io.Writer, a, b diff.Side, names DiffNames, r diff.Report) error {
	if a.TL == nil || b.TL == nil {
		return errors.New("htmlview: no timeline")
	}
	d := encodeDiff(a, b, names, r)
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString(page[0])
	bw.WriteString(html.EscapeString(d.Scenario + " — kubeloom diff"))
	bw.WriteString(page[1])
	bw.WriteString(timelineCSS)
	bw.WriteString(page[2])
	if err := writeData(bw, d); err != nil {
		return fmt.Errorf("failed to encode the comparison: %w", err)
	}
	bw.WriteString("\n")
	bw.WriteString(page[3])
	bw.WriteString(diffJS)
	bw.WriteString(page[4])
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("failed to write the HTML page: %w", err)
	}
	return nil
}

// diffData is what the comparison page adds to the page's data (data.Diff).
type diffData struct {
	Names [2]string `json:"names"`
	// Sides are the instances' sides (0: A, 1: B), by instance index.
	Sides []int `json:"sides"`
	// Lanes are the lanes' families (an index into Families), by lane
	// index; -1 for a main lane, whose steps are compared as steps.
	Lanes    []int        `json:"lanes"`
	Families []diffFamily `json:"families"`
	Steps    []diffRow    `json:"steps"`
	Chains   []diffRow    `json:"chains"`
}

// diffFamily is a diff.Family as the panel lists it: its figures that
// differ (Figs), and the first lane of the family on each side (-1: none),
// which the panel jumps to.
type diffFamily struct {
	Role    string     `json:"role"`
	Family  string     `json:"family"`
	A       *diffStats `json:"a"` // null: the family did not run on that side
	B       *diffStats `json:"b"`
	Differs []string   `json:"differs"`
	// Figs are the family's figures that differ (diff.Family.Figures), in
	// the report's order: what the panel lists of it.
	Figs []diffFig `json:"figs"`
	// CallsOnly are the calls only A's, only B's goroutines made, each
	// "name ×count".
	CallsOnly [2][]string `json:"callsOnly"`
	Lane      [2]int      `json:"lane"`
}

// diffFig is a diff.Figure as the panel writes it: A's and B's values and
// the change, a count or (Dur) microseconds rounded as the text report
// rounds them; Ratio is B's over A's where the report gives one (-1: none).
type diffFig struct {
	What   string  `json:"what"`
	Dur    bool    `json:"dur"`
	A      int64   `json:"a"`
	B      int64   `json:"b"`
	Change int64   `json:"change"`
	Ratio  float64 `json:"ratio"`
}

// figs are f's figures that differ, for the page.
func figs(f diff.Family) []diffFig {
	out := []diffFig{}
	for _, g := range f.Figures() {
		if !slices.Contains(f.Differs, g.What) {
			continue
		}
		if g.Kind == diff.Count {
			r := -1.0
			if g.A > 0 {
				r = float64(g.B) / float64(g.A)
			}
			out = append(out, diffFig{What: g.What, A: g.A, B: g.B, Change: g.B - g.A, Ratio: r})
			continue
		}
		a, b := time.Duration(g.A), time.Duration(g.B)
		r := -1.0
		if g.Kind == diff.Duration {
			r = ratio(a, b)
		}
		out = append(out, diffFig{What: g.What, Dur: true, A: micros(a), B: micros(b), Change: change(a, b), Ratio: r})
	}
	return out
}

// diffStats is what the panel says of a family that ran on one side only:
// how many goroutines it had there. Its figures are Figs.
type diffStats struct {
	Lanes int `json:"lanes"`
}

// diffRow is a diff.Step or a diff.Chain: times in microseconds, rounded
// as the text report rounds them (roundMicros), -1 where the side has none
// (After: the latency of a chain's first effect), and the main lane of its
// role on each side (-1: none).
type diffRow struct {
	Role  string   `json:"role"`
	Name  string   `json:"name"`
	At    [2]int64 `json:"at"`
	Order [2]int   `json:"order,omitempty"` // a step's place among its role's steps
	After [2]int64 `json:"after,omitempty"`
	// Change is B's time less A's, of At and of After, rounded as the
	// report rounds it (0: the same, or a side has none); Ratio is B's
	// After over A's (-1: none), as the report's "×1.3".
	Change  [2]int64 `json:"change"`
	Ratio   float64  `json:"ratio"`
	Differs []string `json:"differs"`
	Lane    [2]int   `json:"lane"`
}

// encodeDiff builds the comparison page's data.
func encodeDiff(a, b diff.Side, names DiffNames, r diff.Report) *data {
	insA, rolesA := a.Instances()
	insB, rolesB := b.Instances()
	// Roles in A's order, then B's own; each role's instances in A, then
	// in B: a pair is adjacent.
	var roles []string
	for _, rl := range append(slices.Clone(rolesA), rolesB...) {
		if !slices.Contains(roles, rl) {
			roles = append(roles, rl)
		}
	}
	var parts []part
	var sides []int
	var partRole []string
	for _, rl := range roles {
		for side, s := range []struct {
			ins   []*timeline.Instance
			roles []string
			tl    *timeline.Timeline
			tag   string
		}{{insA, rolesA, a.TL, "A"}, {insB, rolesB, b.TL, "B"}} {
			for i, in := range s.ins {
				if s.roles[i] == rl {
					parts = append(parts, part{tl: s.tl, in: in, name: s.tag + " " + in.Name(), keyPrefix: s.tag + " "})
					sides = append(sides, side)
					partRole = append(partRole, rl)
				}
			}
		}
	}

	e := newEncoder(a.TL)
	e.d.Scenario = a.TL.Scenario
	if b.TL.Scenario != a.TL.Scenario {
		e.d.Scenario = a.TL.Scenario + " ⇄ " + b.TL.Scenario
	}
	e.d.Duration = max(a.TL.End.Sub(a.TL.Start), b.TL.End.Sub(b.TL.Start)).Microseconds()
	e.d.Spans, e.d.Orphans, e.d.Links = a.TL.Spans, a.TL.Orphans, a.TL.Links
	if b.TL != a.TL {
		e.d.Spans += b.TL.Spans
		e.d.Orphans += b.TL.Orphans
		e.d.Links += b.TL.Links
	}
	e.d.PodStarts = podStarts{Rows: []podStartRow{}}
	e.encodeParts(parts)

	dd := &diffData{Names: [2]string{names.A, names.B}, Sides: sides, Lanes: make([]int, len(e.d.Lanes)),
		Families: []diffFamily{}, Steps: []diffRow{}, Chains: []diffRow{}}
	type famKey struct{ role, family string }
	famIndex := map[famKey]int{}
	for i, f := range r.Families {
		famIndex[famKey{f.Role, f.Family}] = i
		df := diffFamily{Role: f.Role, Family: f.Family, A: stats(f.A), B: stats(f.B),
			Differs: nonNil(f.Differs), Figs: figs(f), CallsOnly: [2][]string{{}, {}}, Lane: [2]int{-1, -1}}
		if f.A != nil && f.B != nil {
			df.CallsOnly = [2][]string{diff.CallList(*f.A, *f.B), diff.CallList(*f.B, *f.A)}
		}
		dd.Families = append(dd.Families, df)
	}
	mainLane := map[famKey]int{} // by side ("A", "B") and role
	for pi, p := range parts {
		di := e.d.Instances[pi]
		tag := string("AB"[sides[pi]])
		for k, l := range pageLanes(p.in) {
			li := di.First + k
			dd.Lanes[li] = -1
			if l.Goroutine == timeline.MainLane {
				if _, ok := mainLane[famKey{tag, partRole[pi]}]; !ok {
					mainLane[famKey{tag, partRole[pi]}] = li
				}
				continue
			}
			fi, ok := famIndex[famKey{partRole[pi], l.Family()}]
			if !ok {
				continue
			}
			dd.Lanes[li] = fi
			if dd.Families[fi].Lane[sides[pi]] < 0 {
				dd.Families[fi].Lane[sides[pi]] = li
			}
		}
	}
	lanesOf := func(role string) [2]int {
		out := [2]int{-1, -1}
		for side, tag := range []string{"A", "B"} {
			if li, ok := mainLane[famKey{tag, role}]; ok {
				out[side] = li
			}
		}
		return out
	}
	for _, s := range r.Steps {
		dd.Steps = append(dd.Steps, diffRow{Role: s.Role, Name: s.Step, At: [2]int64{micros(s.AtA), micros(s.AtB)},
			Order: [2]int{s.OrderA, s.OrderB}, Change: [2]int64{change(s.AtA, s.AtB), 0}, Ratio: -1,
			Differs: nonNil(s.Differs), Lane: lanesOf(s.Role)})
	}
	for _, c := range r.Chains {
		dd.Chains = append(dd.Chains, diffRow{Role: c.Role, Name: c.Action, At: [2]int64{micros(c.AtA), micros(c.AtB)},
			After: [2]int64{micros(c.AfterA), micros(c.AfterB)}, Change: [2]int64{change(c.AtA, c.AtB), change(c.AfterA, c.AfterB)},
			Ratio: ratio(c.AfterA, c.AfterB), Differs: nonNil(c.Differs), Lane: lanesOf(c.Role)})
	}
	e.d.Diff = dd
	return e.d
}

func stats(s *diff.Stats) *diffStats {
	if s == nil {
		return nil
	}
	return &diffStats{Lanes: s.Lanes}
}

// micros is d in microseconds, rounded (roundMicros), -1 (none) kept.
func micros(d time.Duration) int64 {
	if d < 0 {
		return -1
	}
	return roundMicros(d)
}

// change is b-a in microseconds, rounded as the report rounds it: 0 when
// they are the same or a side has none (-1).
func change(a, b time.Duration) int64 {
	if a < 0 || b < 0 || a == b {
		return 0
	}
	return roundMicros(b - a)
}

// ratio is b/a, -1 when a side has none or a is 0.
func ratio(a, b time.Duration) float64 {
	if a <= 0 || b < 0 {
		return -1
	}
	return float64(b) / float64(a)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
