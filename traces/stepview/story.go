package stepview

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kubeloom/kubeloom/internal/printable"
	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/catalog/locale"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// story is what a step tells, in one language, before it is laid out as
// plain text or in the interactive view.
type story struct {
	header   string   // "step 3 of 10 · +1.5s · kubelet node-1 · kubelet/container-gc"
	where    string   // the header without the step's number
	title    string   // "iteration · Containers/GarbageCollect #3"
	facts    []string // object, duration, skipped iterations, ...
	sections []section
}

type section struct {
	heading string
	lines   []string
}

// tell builds the story of step i of d in lang. What comes from the
// recording (names, attributes) is made printable as it enters; the
// catalog's texts are kubeloom's own.
func (d *data) tell(i int, lang string) story {
	w := wordsOf(lang)
	s := d.steps[i]
	var st story
	where := printable.String(s.Instance.Name()) + " · " + printable.String(groupPath(s.Lane))
	st.where = fmt.Sprintf("+%s · %s", formatOffset(d.tl.Offset(s.At)), where)
	st.header = w.f("step", locale.Args{"i": i + 1, "n": len(d.steps)}) + " · " + st.where

	st.title = w.t("kinds."+string(s.Kind)) + " · " + printable.String(s.Name())
	if s.Mark != nil && s.Kind == timeline.StepIteration && s.Mark.Iteration > 0 {
		st.title += fmt.Sprintf(" #%d", s.Mark.Iteration)
	}
	attrs := d.attrs(i)
	if key := attrs.String(catalog.AttrObjectKey); key != "" {
		st.facts = append(st.facts, w.t("object")+" "+printable.String(key))
	}
	if t := attrs.String(catalog.AttrEventType); t != "" && s.Kind == timeline.StepEvent {
		st.facts = append(st.facts, w.t("type")+" "+printable.String(t))
	}
	if s.Mark != nil {
		if other := otherAttributes(attrs); other != "" {
			st.facts = append(st.facts, other)
		}
	}
	switch {
	case s.Kind == timeline.StepStarted:
		kind := printable.String(s.Lane.Kind)
		if s.Lane.Period > 0 {
			kind += " " + w.t("period") + " " + formatOffset(s.Lane.Period)
		}
		if kind != "" {
			st.facts = append(st.facts, kind)
		}
	case s.Kind == timeline.StepStopped:
		st.facts = append(st.facts, w.t("lived")+" "+formatTook(s.Lane.End.Sub(s.Lane.Start)))
	case s.Mark != nil && s.Mark.End.After(s.Mark.Start):
		st.facts = append(st.facts, w.t("took")+" "+formatTook(s.Mark.End.Sub(s.Mark.Start)))
	}
	if s.Mark != nil && s.Mark.Skipped > 0 {
		st.facts = append(st.facts, w.f("skipped", locale.Args{"n": s.Mark.Skipped}))
	}
	running, stopped := d.counts(i)
	st.facts = append(st.facts, w.f("goroutines", locale.Args{"running": running, "stopped": stopped}))
	if n := d.leaked(i); n > 0 {
		st.facts = append(st.facts, w.f("leaked", locale.Args{"n": n}))
	}
	if d.inB != nil {
		if f := w.inB(d.tl.Offset(s.At), d.inB[i]); f != "" {
			st.facts = append(st.facts, f)
		}
	}

	switch {
	case s.HasEntry:
		e, story := s.Entry, s.Entry.Story(lang)
		st.sections = append(st.sections, section{w.t("what"), []string{story.Summary}})
		if story.Quote != "" || e.Article != "" {
			st.sections = append(st.sections, section{w.t("article"), w.quote(story, e.Article)})
		} else {
			st.sections = append(st.sections, section{w.t("article"), []string{w.t("noArticle")}})
		}
		if src := nonEmpty(e.Function, e.File); len(src) > 0 {
			st.sections = append(st.sections, section{w.t("source"), src})
		}
		if story.Now != "" {
			st.sections = append(st.sections, section{w.t("now"), []string{story.Now}})
		}
	case s.HasStartup:
		e, story := s.Startup, s.Startup.Story(lang)
		st.sections = append(st.sections, section{w.t("what"), []string{story.Summary}})
		if story.Quote != "" {
			st.sections = append(st.sections, section{w.t("article"), w.quote(story, e.Article)})
		}
		if src := nonEmpty(e.Function, e.File); len(src) > 0 {
			st.sections = append(st.sections, section{w.t("source"), src})
		}
	case s.Lane.Goroutine == timeline.MainLane:
		st.sections = append(st.sections, section{w.t("what"), []string{w.t("mainLane")}})
	default:
		st.sections = append(st.sections, section{w.t("what"), []string{w.f("unknown", locale.Args{"goroutine": printable.String(s.Lane.Goroutine)})}})
	}
	return st
}

// quote is the article section of a story: the article's sentence as it
// is, always, since it is the article's word; under it, in a language
// other than the article's, kubeloom's rendering of it (none for a quote
// that is only code), labelled as such; then where it comes from.
func (w words) quote(story catalog.Story, article string) []string {
	var lines []string
	if story.Quote != "" {
		lines = append(lines, "「"+story.Quote+"」")
		if story.Rendering != "" {
			lines = append(lines, w.f("rendered", locale.Args{"text": story.Rendering}))
		}
	}
	if article != "" {
		lines = append(lines, "— "+article)
	}
	return lines
}

// shownElsewhere are attributes a step does not list: the goroutine's own
// (its lane says them), and those the story shows already.
var shownElsewhere = map[string]bool{
	catalog.AttrGoroutineName: true, catalog.AttrGoroutineKind: true, catalog.AttrGoroutinePeriod: true,
	catalog.AttrCodeFunction: true, catalog.AttrCodeFile: true, catalog.AttrArticle: true,
	catalog.AttrIteration: true, catalog.AttrSkipped: true,
	catalog.AttrInformer: true, catalog.AttrResource: true, catalog.AttrHandler: true,
	catalog.AttrObjectKey: true, catalog.AttrEventType: true,
}

// maxAttributes is how many other attributes a step lists at most.
const maxAttributes = 6

// otherAttributes lists a mark's other attributes, "key=value" by key,
// so that what a span or event carries (a buffer's length, the image a GC
// removed, why a leader stopped) is visible while stepping.
func otherAttributes(attrs traces.Attributes) string {
	var keys []string
	for k := range attrs {
		if !shownElsewhere[k] {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return ""
	}
	slices.Sort(keys)
	var parts []string
	for i, k := range keys {
		if i == maxAttributes {
			parts = append(parts, fmt.Sprintf("(+%d)", len(keys)-maxAttributes))
			break
		}
		parts = append(parts, printable.String(fmt.Sprintf("%s=%v", k, attrs[k])))
	}
	return strings.Join(parts, " ")
}

func nonEmpty(lines ...string) []string {
	var out []string
	for _, l := range lines {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// plain lays the story out as text below its header: the title and facts,
// and each section as a heading with its lines indented by two spaces.
func (st story) plain() string {
	var b strings.Builder
	b.WriteString(st.title + "\n")
	for _, f := range st.facts {
		b.WriteString("  " + f + "\n")
	}
	for _, sec := range st.sections {
		b.WriteString(sec.heading + "\n")
		for _, l := range sec.lines {
			b.WriteString("  " + l + "\n")
		}
	}
	return b.String()
}

// formatOffset writes a simulated duration the way the jump prompt reads
// it back: 1m30.5s, 250ms, 0s.
func formatOffset(d time.Duration) string {
	return d.Round(time.Millisecond).String()
}

// formatTook writes how long something took: to the millisecond, or the
// microsecond below one.
func formatTook(d time.Duration) string {
	if d < time.Millisecond {
		return d.Round(time.Microsecond).String()
	}
	return formatOffset(d)
}

// groupPath names a lane as the other views show it: inside its component
// and family (traces/timeline/group.go), "controller/replicaset › worker ›
// worker 3"; a lane alone in its component by its label.
func groupPath(l *timeline.Lane) string {
	c := l.Component()
	if c == nil || len(c.Lanes) < 2 {
		return l.Label
	}
	path := c.Name + " › "
	if l.Group != c {
		path += l.Group.Name + " › "
	}
	return path + l.Short
}
