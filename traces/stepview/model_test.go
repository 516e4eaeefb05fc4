package stepview_test

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/catalog/locale"
	"github.com/kubeloom/kubeloom/traces/stepview"
	"github.com/kubeloom/kubeloom/traces/timeline"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

func TestNextAndPrevious(t *testing.T) {
	m := newModel(t, stepview.Options{})
	steps := timeline.Steps(timeline.Build(lesson()))
	if m.Index() != 0 || m.Step().Name() != steps[0].Name() {
		t.Fatalf("starts at step %d (%s), want the first", m.Index(), describe(m.Step()))
	}
	for _, tc := range []struct {
		keys []string
		want int
	}{
		{[]string{"n"}, 1},
		{[]string{"right"}, 2},
		{[]string{"space"}, 3},
		{[]string{"p"}, 2},
		{[]string{"left", "left"}, 0},
		{[]string{"p"}, 0}, // nothing before the first
		{[]string{"end"}, len(steps) - 1},
		{[]string{"n"}, len(steps) - 1}, // nothing after the last
		{[]string{"home"}, 0},
	} {
		m, _ = press(t, m, tc.keys...)
		if m.Index() != tc.want {
			t.Fatalf("after %v: step %d, want %d", tc.keys, m.Index(), tc.want)
		}
		if got, want := describe(m.Step()), describe(steps[tc.want]); got != want {
			t.Errorf("after %v: %s, want %s", tc.keys, got, want)
		}
	}
	m, _ = press(t, m, "p")
	if !strings.Contains(m.Status(), "first step") {
		t.Errorf("p at the first step says %q", m.Status())
	}
}

func TestViewTellsTheStoryInEitherLanguage(t *testing.T) {
	m := goTo(t, newModel(t, stepview.Options{}), named(timeline.StepIteration, "OnAdd"))
	e, _ := catalog.Lookup("informer/listener-run")
	en, zh := e.Story("en"), e.Story("zh")
	v := view(m)
	for _, want := range []string{
		"iteration · OnAdd #1", "+1.34s", "informers classic · informers › informer/listener-run",
		"object default/web-0",
		"What it does", en.Summary,
		"The article says", "「" + en.Quote + "」", "(rendered in English: " + en.Rendering + ")", "— " + e.Article,
		"Kubernetes source", e.Function, e.File,
		"Then vs now", en.Now,
		"l " + locale.Get("en").Next().Name,
	} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	if en.Rendering == "" || strings.Contains(v, zh.Summary) {
		t.Error("the English view shows the Chinese narrative")
	}

	// l goes through the languages in turn, to Chinese among them.
	for range locale.Codes() {
		if m, _ = press(t, m, "l"); m.Lang() == "zh" {
			break
		}
	}
	v = view(m)
	if m.Lang() != "zh" {
		t.Fatalf("l never switches to Chinese: the language is %q", m.Lang())
	}
	for _, want := range []string{"迭代 · OnAdd #1", "它做什么", zh.Summary, "文章原话", "「" + zh.Quote + "」", "Kubernetes 源码", e.File, "当年与现在", "语言：中文"} {
		if !strings.Contains(v, want) {
			t.Errorf("Chinese view lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, en.Summary) {
		t.Error("the Chinese view shows the English narrative")
	}
	// The article is Chinese: in Chinese its sentence stands alone.
	if strings.Contains(v, en.Rendering) || strings.Contains(v, "rendered in English") {
		t.Errorf("the Chinese view shows the English rendering of the quote:\n%s", v)
	}
	// l goes through every language and back to English.
	for m.Lang() != locale.Codes()[len(locale.Codes())-1] {
		m, _ = press(t, m, "l")
	}
	m, _ = press(t, m, "l")
	if m.Lang() != "en" || !strings.Contains(view(m), en.Summary) {
		t.Errorf("l after the last language is %q, not English", m.Lang())
	}

	if zhm := newModel(t, stepview.Options{Lang: "zh"}); zhm.Lang() != "zh" || !strings.Contains(view(zhm), "第 1 步，共") {
		t.Errorf("Options.Lang zh: %q\n%s", zhm.Lang(), view(zhm))
	}
}

func TestViewOfStepsWithoutCatalogEntry(t *testing.T) {
	m := newModel(t, stepview.Options{})
	if v := view(m); !strings.Contains(v, "the instance's main line") {
		t.Errorf("a main-lane step does not say so:\n%s", v)
	}
	m = goTo(t, m, named(timeline.StepStarted, "lesson/unknown-goroutine"))
	if v := view(m); !strings.Contains(v, "no entry for lesson/unknown-goroutine") {
		t.Errorf("a goroutine no catalog knows is not reported:\n%s", v)
	}
}

func TestTreeShowsGoroutinesSoFar(t *testing.T) {
	m := goTo(t, newModel(t, stepview.Options{}), named(timeline.StepStarted, "informer/listener-pop"))
	tree := treeOf(view(m))
	want := []string{
		"informers classic",
		" ● main",
		"   ● informer/run",
		"     ● reflector/list-watch",
		"›    ▶ informer/listener-pop",
		"kubelet node-1",
		" ● main",
		"   ● kubelet/container-gc",
	}
	if strings.Join(tree, "\n") != strings.Join(want, "\n") {
		t.Errorf("tree at %s:\n%s\nwant:\n%s", describe(m.Step()), strings.Join(tree, "\n"), strings.Join(want, "\n"))
	}

	m = goTo(t, m, named(timeline.StepStopped, "kubelet/container-gc"))
	tree = treeOf(view(m))
	if !contains(tree, "›  ■ kubelet/container-gc") || !contains(tree, "     ● informer/listener-run") || !contains(tree, "   ■ lesson/unknown-goroutine") {
		t.Errorf("tree at %s:\n%s", describe(m.Step()), strings.Join(tree, "\n"))
	}
}

// treeOf returns the tree pane of a view: the left column of the lines
// between the title and the legend.
func treeOf(v string) []string {
	var out []string
	for _, l := range lines(v)[1:] {
		left, _, ok := strings.Cut(l, " │ ")
		if !ok {
			left, _, _ = strings.Cut(l, " │")
		}
		left = strings.TrimRight(left, " ")
		if strings.HasPrefix(left, "▶ started") {
			break
		}
		if left != "" {
			out = append(out, left)
		}
	}
	return out
}

func contains(ls []string, s string) bool {
	for _, l := range ls {
		if l == s {
			return true
		}
	}
	return false
}

func TestJumpToATime(t *testing.T) {
	m := newModel(t, stepview.Options{})
	m, _ = press(t, m, "g", "1m", "enter")
	if got := m.Step(); !got.At.Equal(tt.At(60)) || got.Name() != "Containers/GarbageCollect" {
		t.Errorf("g 1m: %s, want the first container GC at 1m", describe(got))
	}
	m, _ = press(t, m, "g", "10.15", "enter") // plain seconds
	if got := m.Step(); got.At.Before(tt.At(10.15)) || got.Name() != "DeltaFIFO.Add" {
		t.Errorf("g 10.15: %s, want the first step at or after 10.15s", describe(got))
	}
	if v := view(m); !strings.Contains(v, "object default/web-3") {
		t.Errorf("view after the jump:\n%s", v)
	}
	before := m.Index()
	m, _ = press(t, m, "g", "soon", "enter")
	if m.Index() != before || !strings.Contains(m.Status(), `"soon" is no time`) {
		t.Errorf("g soon: step %d (was %d), status %q", m.Index(), before, m.Status())
	}
	m, _ = press(t, m, "g", "1h", "enter")
	if last := timeline.Steps(timeline.Build(lesson())); m.Index() != len(last)-1 || !strings.Contains(m.Status(), "the steps end before 1h0m0s") {
		t.Errorf("g 1h: step %d, status %q", m.Index(), m.Status())
	}
	// Esc leaves the prompt without moving; backspace edits.
	m, _ = press(t, m, "home", "g", "5", "esc")
	if m.Index() != 0 {
		t.Errorf("esc at the prompt moved to step %d", m.Index())
	}
	m, _ = press(t, m, "g", "9", "backspace", "5s", "enter")
	if got := m.Step(); got.Name() != "lesson/unknown-goroutine" {
		t.Errorf("g 9⌫5s: %s", describe(got))
	}
	m, _ = press(t, m, "g")
	if v := view(m); !strings.Contains(v, "jump to (e.g. 1m30s): █") {
		t.Errorf("the jump prompt is not shown:\n%s", v)
	}
}

func TestSearchAGoroutine(t *testing.T) {
	m := newModel(t, stepview.Options{})
	m, _ = press(t, m, "/", "container-gc", "enter")
	if got := m.Step(); got.Lane.Label != "kubelet/container-gc" || got.Kind != timeline.StepStarted {
		t.Fatalf("/container-gc: %s", describe(got))
	}
	// Enter on an empty prompt repeats the search: the next step of the lane.
	m, _ = press(t, m, "/", "enter")
	if got := m.Step(); got.Lane.Label != "kubelet/container-gc" || got.Name() != "Containers/GarbageCollect" {
		t.Errorf("repeated search: %s", describe(got))
	}
	m, _ = press(t, m, "home", "/", "*LISTENER-?un*", "enter")
	if got := m.Step(); got.Lane.Label != "informer/listener-run" {
		t.Errorf("glob: %s", describe(got))
	}
	// The last step of a lane wraps around to its first.
	m, _ = press(t, m, "end", "/", "unknown", "enter")
	if got := m.Step(); got.Kind != timeline.StepStarted || got.Lane.Label != "lesson/unknown-goroutine" || !strings.Contains(m.Status(), "back to the first") {
		t.Errorf("wrapped search: %s, status %q", describe(got), m.Status())
	}
	before := m.Index()
	m, _ = press(t, m, "/", "scheduler", "enter")
	if m.Index() != before || m.Status() != `no goroutine matches "scheduler"` {
		t.Errorf("no match: step %d (was %d), status %q", m.Index(), before, m.Status())
	}
	m, _ = press(t, m, "/", "[gc", "enter")
	if !strings.Contains(m.Status(), "has a [ without its ]") {
		t.Errorf("bad glob: status %q", m.Status())
	}
}

func TestFollowAnObject(t *testing.T) {
	m := goTo(t, newModel(t, stepview.Options{}), named(timeline.StepCall, "action/create"))
	// The object's way: watch → FIFO → process loop → listener → handler.
	var path []string
	for range 5 {
		m, _ = press(t, m, "f")
		path = append(path, m.Step().Name())
	}
	if got, want := strings.Join(path, " "), "watch event DeltaFIFO.Add Pop pop OnAdd"; got != want {
		t.Errorf("f from action/create went %q, want %q", got, want)
	}
	if !strings.Contains(m.Status(), "default/web-3") {
		t.Errorf("status %q does not name the object", m.Status())
	}
	m, _ = press(t, m, "f")
	if got := m.Step(); got.Name() != "OnAdd" || !strings.Contains(m.Status(), "no later step continues it") {
		t.Errorf("f at the end of the object's way: %s, status %q", describe(got), m.Status())
	}

	// A span without an object key is followed by its links.
	m = goTo(t, newModel(t, stepview.Options{}), named(timeline.StepCall, "DeltaFIFO.Replace"))
	m, _ = press(t, m, "f")
	if got := m.Step(); got.Name() != "Pop" || got.Mark.Attributes.String(catalog.AttrObjectKey) != "default/web-0" {
		t.Errorf("f from DeltaFIFO.Replace: %s, want the first Pop it caused", describe(got))
	}

	// Nothing to follow.
	m, _ = press(t, m, "home")
	before := m.Index()
	m, _ = press(t, m, "f")
	if m.Index() != before || !strings.HasPrefix(m.Status(), "nothing to follow") {
		t.Errorf("f on the scenario's root: step %d, status %q", m.Index(), m.Status())
	}
}

func TestQuit(t *testing.T) {
	for _, keys := range [][]string{{"q"}, {"ctrl+c"}, {"g", "ctrl+c"}, {"/", "ctrl+c"}} {
		_, cmd := press(t, newModel(t, stepview.Options{}), keys...)
		if cmd == nil {
			t.Errorf("%v: no command, want tea.Quit", keys)
			continue
		}
		if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Errorf("%v: command returns %T, want tea.QuitMsg", keys, cmd())
		}
	}
	// In a prompt, q is text.
	m, cmd := press(t, newModel(t, stepview.Options{}), "/", "q")
	if cmd != nil {
		t.Errorf("q at the search prompt quits")
	}
	if v := view(m); !strings.Contains(v, "search goroutine (substring or glob): q█") {
		t.Errorf("the search prompt does not show what was typed:\n%s", v)
	}
}

func TestViewFitsTheTerminal(t *testing.T) {
	for _, size := range []tea.WindowSizeMsg{{Width: 80, Height: 24}, {Width: 60, Height: 12}, {Width: 160, Height: 50}} {
		m := newModel(t, stepview.Options{})
		next, _ := m.Update(size)
		m = next.(stepview.Model)
		for range 40 {
			m, _ = press(t, m, "n")
			v := view(m)
			ls := lines(v)
			if len(ls) != size.Height {
				t.Fatalf("%dx%d at %s: %d lines:\n%s", size.Width, size.Height, describe(m.Step()), len(ls), v)
			}
			for i, l := range ls {
				if w := lipgloss.Width(l); w > size.Width {
					t.Fatalf("%dx%d at %s: line %d is %d columns wide:\n%s", size.Width, size.Height, describe(m.Step()), i+1, w, v)
				}
			}
		}
		// The story scrolls when it does not fit.
		top := lines(view(m))[1]
		m, _ = press(t, m, "down")
		if size.Height < 20 && lines(view(m))[1] == top {
			t.Errorf("%dx%d: ↓ does not scroll the story", size.Width, size.Height)
		}
	}
}

func TestNewErrors(t *testing.T) {
	tl := timeline.Build(lesson())
	for _, tc := range []struct {
		o    stepview.Options
		want string
	}{
		{stepview.Options{Lang: "qaa"}, `unknown language "qaa": expected en (English)`},
		{stepview.Options{From: -time.Second}, "cannot be negative"},
		{stepview.Options{From: 10 * time.Second, To: 5 * time.Second}, "--to must be after --from"},
		{stepview.Options{From: time.Hour}, "no step between 1h0m0s and 0s: the recording runs from 0s to 3m0s"},
	} {
		if _, err := stepview.New(tl, tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.o, err, tc.want)
		}
	}
	if _, err := stepview.New(timeline.Build(nil), stepview.Options{}); err == nil || !strings.Contains(err.Error(), "no steps") {
		t.Errorf("empty recording: %v", err)
	}
}

func TestWindow(t *testing.T) {
	m := newModel(t, stepview.Options{From: 10 * time.Second, To: 11 * time.Second})
	if got := m.Step(); got.Name() != "action/create" {
		t.Errorf("first step of 10s-11s: %s", describe(got))
	}
	m, _ = press(t, m, "end")
	if got := m.Step(); got.At.After(tt.At(11)) || got.Name() != "OnAdd" {
		t.Errorf("last step of 10s-11s: %s", describe(got))
	}
	m, _ = press(t, m, "/", "container-gc", "enter")
	if !strings.Contains(m.Status(), "no goroutine matches") {
		t.Errorf("search outside the window: %s, status %q", describe(m.Step()), m.Status())
	}
}
