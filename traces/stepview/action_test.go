package stepview_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/stepview"
	"github.com/kubeloom/kubeloom/traces/timeline"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// oomLesson is kubelet-startup's injectOOM at 1m30s as a run in virtual
// time records it: the scenario's action and everything it sets off start
// at the same instant. The OOM watcher's iteration names the action as its
// cause and records a SystemOOM event, which the event pipeline's
// goroutines (earlier lanes than the watcher's) distribute at that instant
// too; the PLEG relists a little later, unrelated.
func oomLesson() []traces.Span {
	r := tt.New("kubelet-startup").Instance("kubelet", "node-1")
	main := r.Span(tt.Root, "main", 0.1, 200)
	events := r.Goroutine(main, "kubelet/event-broadcast-loop", catalog.KindGo, 0.1, 200)
	oom := r.Goroutine(main, "kubelet/oom-watcher", catalog.KindGo, 0.2, 200)
	pleg := r.Goroutine(main, "kubelet/pleg-relist", catalog.KindUntil, 0.3, 200, catalog.AttrGoroutinePeriod, 1.0)
	r.Iteration(pleg, "kubelet/pleg-relist", "relist", 89, 89.3, 89.31)
	r.Iteration(pleg, "kubelet/pleg-relist", "relist", 90, 90.3, 90.31)

	r.Instance("kubeloom", "scenario")
	root := r.Span(tt.Root, "scenario kubelet-startup", 0, 200, catalog.AttrClockOrigin, tt.Origin.Format(time.RFC3339Nano))
	action := r.Span(root, "action/injectOOM", 90, 90, catalog.AttrAction, "injectOOM", catalog.AttrActionAt, 90.0)

	r.Instance("kubelet", "node-1")
	ev := r.Iteration(oom, "kubelet/oom-watcher", "oomEvent", 1, 90, 90, "kubelet.oom.container", "/")
	r.Link(ev, action)
	r.Iteration(events, "kubelet/event-broadcast-loop", "distribute", 1, 90, 90, "k8s.event.reason", "SystemOOM")
	return r.Spans()
}

// g lands on the action at its time, before its effects at the same
// instant, and f goes from the action to the iteration that reacts.
func TestJumpToAnActionAndFollowIt(t *testing.T) {
	spans := oomLesson()
	m := modelOf(t, spans, stepview.Options{})
	m, _ = press(t, m, "g", "1m30s", "enter")
	if got := m.Step(); got.Name() != "action/injectOOM" || !got.At.Equal(tt.At(90)) {
		t.Fatalf("g 1m30s: %s, want the action", describe(got))
	}
	if v := view(m); !strings.Contains(v, "+1m30s · kubeloom scenario · main") {
		t.Errorf("the action's step does not say where and when:\n%s", v)
	}
	m, _ = press(t, m, "f")
	if got := m.Step(); got.Name() != "oomEvent" || got.Lane.Label != "kubelet/oom-watcher" {
		t.Errorf("f from the action: %s, status %q; want the OOM watcher's iteration", describe(got), m.Status())
	}
	if want := "followed the links from action/injectOOM to oomEvent on kubelet/oom-watcher"; m.Status() != want {
		t.Errorf("status %q, want %q", m.Status(), want)
	}

	// The same in plain mode, as a slide shows it: the action comes first.
	var b strings.Builder
	if err := stepview.Plain(&b, timeline.Build(spans), stepview.English, 90*time.Second, 90*time.Second); err != nil {
		t.Fatal(err)
	}
	if first := strings.SplitN(b.String(), "── step", 3); len(first) < 2 || !strings.Contains(first[1], "kubeloom scenario · main") {
		t.Errorf("plain output from 1m30s does not start with the action:\n%s", b.String())
	}
}

// kubelet-pod-lifecycle's injectOOM of web's container at 2m: the OOM
// watcher hears it and does nothing more; the next relist sees web die,
// the main loop's plegCh arm calls HandlePodSyncs, and web's pod worker
// syncs (its syncPod names that call as its cause).
func podOOM() []traces.Span {
	r := tt.New("kubelet-pod-lifecycle").Instance("kubeloom", "scenario")
	root := r.Span(tt.Root, "scenario kubelet-pod-lifecycle", 0, 200, catalog.AttrClockOrigin, tt.Origin.Format(time.RFC3339Nano))
	action := r.Span(root, "action/injectOOM", 120, 120, catalog.AttrAction, "injectOOM", catalog.AttrActionAt, 120.0)

	r.Instance("kubelet", "node-1")
	main := r.Span(tt.Root, "main", 0.1, 200)
	oom := r.Goroutine(main, "kubelet/oom-watcher", catalog.KindGo, 0.2, 200)
	pleg := r.Goroutine(main, "kubelet/pleg-relist", catalog.KindUntil, 0.3, 200, catalog.AttrGoroutinePeriod, 1.0)
	loop := r.Goroutine(main, "kubelet/main-loop", catalog.KindGo, 0.4, 200)
	worker := r.Goroutine(main, "kubelet/pod-worker", catalog.KindGo, 30, 200, catalog.AttrObjectKey, "default/web")
	heard := r.Iteration(oom, "kubelet/oom-watcher", "oomEvent", 1, 120, 120)
	r.Link(heard, action)
	relist := r.Iteration(pleg, "kubelet/pleg-relist", "relist", 120, 120.2, 120.21)
	r.Link(relist, action)
	arm := r.Iteration(loop, "kubelet/main-loop", "plegCh", 50, 120.21, 120.22)
	r.Link(arm, relist)
	syncs := r.Span(arm, "HandlePodSyncs", 120.21, 120.22)
	sync := r.Iteration(worker, "kubelet/pod-worker", "syncPod", 3, 120.22, 120.3, catalog.AttrObjectKey, "default/web")
	r.Link(sync, syncs)
	return r.Spans()
}

// f prefers the effect the story goes on from (the PLEG's relist, not the
// OOM watcher's silent iteration), and goes on from an iteration to what
// a call made inside it caused.
func TestFollowAnActionThroughTheKubelet(t *testing.T) {
	m := modelOf(t, podOOM(), stepview.Options{})
	m, _ = press(t, m, "g", "2m", "enter")
	var path []string
	for range 3 {
		m, _ = press(t, m, "f")
		path = append(path, m.Step().Name())
	}
	if got, want := strings.Join(path, " "), "relist plegCh syncPod"; got != want {
		t.Errorf("f from injectOOM went %q, want %q", got, want)
	}
	// The OOM watcher's iteration is an effect the story stops at.
	m, _ = press(t, m, "g", "2m", "enter")
	m = goTo(t, m, named(timeline.StepIteration, "oomEvent"))
	m, _ = press(t, m, "f")
	if got := m.Step(); got.Name() != "oomEvent" || !strings.HasPrefix(m.Status(), "nothing to follow") {
		t.Errorf("f from the OOM watcher's iteration: %s, status %q", describe(got), m.Status())
	}
}
