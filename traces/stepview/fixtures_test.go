package stepview_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	tea "github.com/charmbracelet/bubbletea"
	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/stepview"
	"github.com/kubeloom/kubeloom/traces/timeline"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// lesson is a small informer lesson beside a kubelet, in simulated seconds:
// an informer lists three pods at 1s (its process loop pops them, linked to
// the list), a pod is created at 10s and travels watch → FIFO → pop →
// handler by causal links and its object key; the kubelet's container GC
// runs every 60s and stops at 170s; a goroutine no catalog knows runs at 5s.
func lesson() []traces.Span {
	r := tt.New("lesson").Instance("informers", "classic")
	run := r.Span(tt.Root, "run", 0, 180)
	create := r.Span(run, "action/create", 10, 10, catalog.AttrObjectKey, "default/web-3")
	pods := []any{catalog.AttrInformer, "pods", catalog.AttrResource, "pods"}

	inf := r.Goroutine(run, "informer/run", catalog.KindUntil, 0.5, 180, append(pods, catalog.AttrGoroutinePeriod, 1.0)...)
	lw := r.Goroutine(inf, "reflector/list-watch", catalog.KindUntil, 0.6, 180, pods...)
	law := r.Iteration(lw, "reflector/list-watch", "ListAndWatch", 1, 1, 180, pods...)
	list := r.Span(law, "pods.List", 1, 1.1)
	replace := r.Span(law, "DeltaFIFO.Replace", 1.1, 1.2)
	r.Link(replace, list)
	watch := r.Span(law, "pods.Watch", 1.2, 180)
	r.Event(watch, "watch event", 10.1, catalog.AttrEventType, "ADDED", catalog.AttrObjectKey, "default/web-3")
	r.Link(watch, create)
	add := r.Span(law, "DeltaFIFO.Add", 10.2, 10.21, catalog.AttrObjectKey, "default/web-3")

	lpop := r.Goroutine(inf, "informer/listener-pop", catalog.KindGo, 0.7, 180, catalog.AttrHandler, "handler-1")
	lrun := r.Goroutine(inf, "informer/listener-run", catalog.KindGo, 0.7, 180, catalog.AttrHandler, "handler-1")
	n := 0
	for i, p := range []struct {
		at    float64
		key   string
		cause trace.SpanID
	}{{1.3, "default/web-0", replace}, {1.4, "default/web-1", replace}, {1.5, "default/web-2", replace}, {10.3, "default/web-3", add}} {
		it := r.Iteration(inf, "informer/run", "processLoop", i+1, p.at, p.at+0.01, pods...)
		pop := r.Span(it, "Pop", p.at, p.at+0.01, catalog.AttrObjectKey, p.key)
		r.Link(pop, p.cause)
		n++
		lp := r.Iteration(lpop, "informer/listener-pop", "pop", n, p.at+0.02, p.at+0.03, catalog.AttrObjectKey, p.key)
		r.Link(lp, pop)
		h := r.Iteration(lrun, "informer/listener-run", "OnAdd", n, p.at+0.04, p.at+0.05, catalog.AttrObjectKey, p.key)
		r.Link(h, lp)
	}
	r.Goroutine(run, "lesson/unknown-goroutine", catalog.KindGo, 5, 6)

	r.Instance("kubelet", "node-1")
	krun := r.Span(tt.Root, "run", 0, 180)
	r.Span(krun, "initializeModules", 0.1, 0.2)
	gc := r.Goroutine(krun, "kubelet/container-gc", catalog.KindUntil, 0.2, 170, catalog.AttrGoroutinePeriod, 60.0)
	r.Loop(gc, "kubelet/container-gc", "Containers/GarbageCollect", 60, 170, 60, 0.5)
	return r.Spans()
}

// newModel returns a step-through of lesson() wide enough that no
// narrative wraps, so that the view can be searched for whole sentences.
func newModel(t *testing.T, o stepview.Options) stepview.Model {
	t.Helper()
	return modelOf(t, lesson(), o)
}

// modelOf is newModel for other spans.
func modelOf(t *testing.T, spans []traces.Span, o stepview.Options) stepview.Model {
	t.Helper()
	o.Spans = spans
	if o.Width == 0 {
		o.Width = 4000
	}
	m, err := stepview.New(timeline.Build(spans), o)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// press sends keys to m: "n", "right", "enter", "ctrl+c", or text to type
// as runes (one message per rune); it returns the model and the last command.
func press(t *testing.T, m stepview.Model, keys ...string) (stepview.Model, tea.Cmd) {
	t.Helper()
	var cmd tea.Cmd
	for _, k := range keys {
		for _, msg := range keyMsgs(k) {
			var next tea.Model
			next, cmd = m.Update(msg)
			m = next.(stepview.Model)
		}
	}
	return m, cmd
}

var special = map[string]tea.KeyType{
	"right": tea.KeyRight, "left": tea.KeyLeft, "enter": tea.KeyEnter, "esc": tea.KeyEsc,
	"backspace": tea.KeyBackspace, "ctrl+c": tea.KeyCtrlC, "space": tea.KeySpace,
	"home": tea.KeyHome, "end": tea.KeyEnd, "up": tea.KeyUp, "down": tea.KeyDown,
}

func keyMsgs(k string) []tea.KeyMsg {
	if t, ok := special[k]; ok {
		return []tea.KeyMsg{{Type: t}}
	}
	var out []tea.KeyMsg
	for _, r := range k {
		if r == ' ' {
			out = append(out, tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
			continue
		}
		out = append(out, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	return out
}

// view returns m's view without escape sequences.
func view(m stepview.Model) string { return ansi.Strip(m.View()) }

// describe names a step for failure messages.
func describe(s timeline.Step) string {
	return string(s.Kind) + " " + s.Name() + " on " + s.Lane.Label + " at " + s.At.Sub(tt.Origin).String()
}

func named(kind timeline.StepKind, name string) func(timeline.Step) bool {
	return func(s timeline.Step) bool { return s.Kind == kind && s.Name() == name }
}

// goTo presses n until the current step matches.
func goTo(t *testing.T, m stepview.Model, match func(timeline.Step) bool) stepview.Model {
	t.Helper()
	for !match(m.Step()) {
		before := m.Index()
		if m, _ = press(t, m, "n"); m.Index() == before {
			t.Fatal("no such step")
		}
	}
	return m
}

func lines(s string) []string { return strings.Split(s, "\n") }
