package termview

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubeloom/kubeloom/internal/printable"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// DefaultMaxLanes is how many lanes a timeline shows before it folds its
// groups, when the terminal's height does not say (the HTML page folds
// above the same number).
const DefaultMaxLanes = 60

// A row of the timeline under an instance's heading: a lane, a folded
// group drawn as one summary lane, or the heading of an unfolded group.
type row struct {
	depth  int             // 0 under the instance, 1 in a component, 2 in a family
	lane   *timeline.Lane  // a lane row
	group  *timeline.Group // a folded group's summary row, or a group's heading
	folded bool
	lanes  []*timeline.Lane // what the row draws: the lane, or the folded group's visible lanes
	label  string           // before fitting
	before string           // a group's glyph, not fitted: "▸ "
	after  string           // a folded group's count, not fitted: " (6)"
	parent *timeline.Group  // the group it sits in (nil: the instance)
	peers  *siblings        // the rows of its parent, fitted together
	index  int              // its place among them
}

// siblings are the labels of rows side by side in one group, fitted to a
// width together so that they stay distinct (timeline.FitEach), each leaving room
// for its glyph and count.
type siblings struct {
	labels, fitted []string
	extra          []int // each row's glyph and count
	width          int
}

func (s *siblings) fit(r row, width int, ellipsis string) string {
	if s.fitted == nil || s.width != width {
		widths := make([]int, len(s.labels))
		for i, e := range s.extra {
			widths[i] = max(width-e, 1)
		}
		s.fitted, s.width = timeline.FitEach(s.labels, widths, ellipsis), width
	}
	return r.before + s.fitted[r.index] + r.after
}

// rows lays out the visible lanes of an instance. Groups are headed when
// the instance has more than one component; when fold is set, every group
// that no --expand pattern names (nor one of its families) is drawn as
// one summary row.
func (v *view) rows(in *timeline.Instance, fold bool) []row {
	r := rowBuilder{v: v, fold: fold, visible: map[*timeline.Lane]bool{}}
	for _, l := range in.Display() {
		if v.visible(in, l) {
			r.visible[l] = true
		}
	}
	headed := len(in.Groups()) > 1
	var run []row // rows side by side under the instance
	for _, c := range in.Groups() {
		lanes := r.keep(c.Lanes)
		switch {
		case len(lanes) == 0:
		case !headed || len(lanes) == 1:
			run = append(run, laneRows(lanes, headed)...)
		case fold && !v.expanded(c):
			run = append(run, v.summaryRow(c, lanes))
		default:
			r.add(0, nil, append(run, row{group: c, label: c.Name, before: v.g.unfolded + " "}))
			run = nil
			r.component(c, lanes)
		}
	}
	r.add(0, nil, run)
	// The rows of one parent are fitted together, wherever they sit.
	byParent := map[*timeline.Group]*siblings{}
	for i := range r.out {
		x := &r.out[i]
		sib := byParent[x.parent]
		if sib == nil {
			sib = &siblings{}
			byParent[x.parent] = sib
		}
		x.peers, x.index = sib, len(sib.labels)
		// Labels are names from the recording: made printable before
		// they are measured and fitted, so that an escape takes its cells.
		sib.labels = append(sib.labels, printable.String(x.label))
		sib.extra = append(sib.extra, ansi.StringWidth(x.before+x.after))
	}
	return r.out
}

type rowBuilder struct {
	v       *view
	fold    bool
	visible map[*timeline.Lane]bool
	out     []row
}

func (r *rowBuilder) keep(lanes []*timeline.Lane) []*timeline.Lane {
	var out []*timeline.Lane
	for _, l := range lanes {
		if r.visible[l] {
			out = append(out, l)
		}
	}
	return out
}

// add appends rows at one depth, in parent.
func (r *rowBuilder) add(depth int, parent *timeline.Group, rows []row) {
	for _, x := range rows {
		x.depth, x.parent = depth, parent
		r.out = append(r.out, x)
	}
}

// component lays out an unfolded component: its own lanes, and its
// families, each folded unless a pattern names it or the component.
func (r *rowBuilder) component(c *timeline.Group, lanes []*timeline.Lane) {
	var run []row
	done := map[*timeline.Group]bool{}
	for _, l := range lanes {
		f := l.Group
		if f == c {
			run = append(run, laneRows([]*timeline.Lane{l}, true)...)
			continue
		}
		if done[f] {
			continue
		}
		done[f] = true
		flanes := r.keep(f.Lanes)
		if r.fold && r.v.foldFamily(c, f) {
			run = append(run, r.v.summaryRow(f, flanes))
			continue
		}
		r.add(1, c, append(run, row{group: f, label: f.Name, before: r.v.g.unfolded + " "}))
		run = nil
		r.add(2, f, laneRows(flanes, true))
	}
	r.add(1, c, run)
}

func laneRows(lanes []*timeline.Lane, short bool) []row {
	out := make([]row, 0, len(lanes))
	for _, l := range lanes {
		label := l.Label
		if short {
			label = l.Short
		}
		out = append(out, row{lane: l, lanes: []*timeline.Lane{l}, label: label})
	}
	return out
}

// summaryRow is the row of a folded group.
func (v *view) summaryRow(g *timeline.Group, lanes []*timeline.Lane) row {
	return row{group: g, folded: true, lanes: lanes, label: g.Name, before: v.g.folded + " ", after: fmt.Sprintf(" (%d)", len(lanes))}
}

// named reports whether an --expand pattern (or "all") names g.
func (v *view) named(g *timeline.Group) bool {
	return slices.ContainsFunc(v.expand, func(p string) bool { return p == "all" || g.Match(p) })
}

// expanded reports whether an --expand pattern names g or one of its families.
func (v *view) expanded(g *timeline.Group) bool {
	return v.named(g) || slices.ContainsFunc(g.Groups, v.named)
}

// foldFamily reports whether a family stays folded inside an unfolded
// component: when the component was unfolded for another of its families.
func (v *view) foldFamily(c, f *timeline.Group) bool { return !v.named(c) && !v.named(f) }

// folds reports whether the timeline folds its groups: when more lanes
// would show than fit (and no --goroutine picked the lanes to show).
func (v *view) folds(shown int) bool {
	if len(v.filter.Goroutines) > 0 {
		return false
	}
	limit := v.maxLanes
	if limit <= 0 {
		limit = DefaultMaxLanes
	}
	return shown > limit
}

// foldedNote says how to unfold what is folded.
func (v *view) foldedNote(rows []row) []string {
	n, example := 0, ""
	for _, r := range rows {
		if r.folded {
			n++
			if example == "" || strings.HasPrefix(r.group.Name, "controller/") && !strings.HasPrefix(example, "controller/") {
				example = printable.String(r.group.Name)
			}
		}
	}
	if n == 0 {
		return nil
	}
	verb := map[bool]string{true: "is folded", false: "are folded"}[n == 1]
	return wrap("", []string{
		fmt.Sprintf("%s %s:", plural(n, "group"), verb),
		"--expand NAME unfolds one (e.g. --expand " + quoteIfNeeded(example) + "),",
		"--expand all every lane",
	}, v.width)
}

func quoteIfNeeded(s string) string {
	if strings.ContainsAny(s, " &*?[") {
		return "'" + s + "'"
	}
	return s
}
