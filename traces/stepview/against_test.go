package stepview_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/diff"
	"github.com/kubeloom/kubeloom/traces/stepview"
	"github.com/kubeloom/kubeloom/traces/timeline"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// handlers is an informer's instance in era with a listener-run goroutine
// that calls OnAdd at each of the times given, and, if pop, a
// listener-pop goroutine from 0.5s.
func handlers(era string, pop bool, onAdd ...float64) []traces.Span {
	r := tt.New("against").Instance("informers", era+"/informers")
	run := r.Span(tt.Root, "run", 0, 10)
	lrun := r.Goroutine(run, "informer/listener-run", catalog.KindGo, 0.5, 10, catalog.AttrHandler, "handler-1")
	for i, at := range onAdd {
		r.Iteration(lrun, "informer/listener-run", "OnAdd", i+1, at, at+0.01)
	}
	if pop {
		r.Goroutine(run, "informer/listener-pop", catalog.KindGo, 0.5, 10, catalog.AttrHandler, "handler-1")
	}
	return r.Spans()
}

// againstPlain is the plain output of a stepped against b, their
// instances paired as kubeloom diff pairs them.
func againstPlain(t *testing.T, a, b []traces.Span, lang string) string {
	t.Helper()
	ta, tb := timeline.Build(a), timeline.Build(b)
	var out bytes.Buffer
	err := stepview.PlainWith(&out, ta, stepview.Options{Lang: lang, Against: &stepview.Against{
		B: tb, RoleA: diff.Side{TL: ta}.Role, RoleB: diff.Side{TL: tb}.Role,
	}})
	if err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// block returns the block of the plain output whose title line is title
// (the nth such block, from 1).
func block(t *testing.T, out, title string, n int) string {
	t.Helper()
	for _, b := range strings.Split(out, "\n\n") {
		if ls := strings.Split(b, "\n"); len(ls) > 1 && ls[1] == title {
			if n--; n == 0 {
				return b
			}
		}
	}
	t.Fatalf("no block %d titled %q in:\n%s", n, title, out)
	return ""
}

// TestAgainst pairs steps by what they are: the classic era's and the
// modern era's instances pair by role, the second OnAdd with the second
// even though B's comes later, and A's listener-pop goroutine has no
// counterpart.
func TestAgainst(t *testing.T) {
	a := handlers("classic", true, 1, 2)
	b := handlers("modern", false, 1, 6.9)
	out := againstPlain(t, a, b, "en")
	for _, tc := range []struct {
		title string
		n     int
		want  string
	}{
		{"iteration · OnAdd #1", 1, "  in B: the same instant\n"},
		{"iteration · OnAdd #2", 1, "  in B: at 6.9s (+4.9s)\n"},
		{"goroutine started · informer/listener-pop", 1, "  not in B\n"},
		{"goroutine started · informer/listener-run", 1, "  in B: the same instant\n"},
	} {
		if got := block(t, out, tc.title, tc.n); !strings.Contains(got, tc.want) {
			t.Errorf("the step %q should say %q:\n%s", tc.title, strings.TrimSpace(tc.want), got)
		}
	}
	// B against A: the shift the other way.
	if got := block(t, againstPlain(t, b, a, "en"), "iteration · OnAdd #2", 1); !strings.Contains(got, "  in B: at 2s (-4.9s)\n") {
		t.Errorf("B's second OnAdd stepped against A:\n%s", got)
	}
	zh := againstPlain(t, a, b, "zh")
	if got := block(t, zh, "迭代 · OnAdd #2", 1); !strings.Contains(got, "  B 中：在 6.9s（+4.9s）\n") {
		t.Errorf("in 中文:\n%s", got)
	}
}

// TestAgainstSelect compares only the instances each side selects: with
// --a classic, a step of another era is compared with nothing (no line),
// not reported missing.
func TestAgainstSelect(t *testing.T) {
	spans := append(handlers("classic", true, 1), handlers("modern", false, 3)...)
	tl := timeline.Build(spans)
	var out bytes.Buffer
	err := stepview.PlainWith(&out, tl, stepview.Options{Against: &stepview.Against{
		B: tl, RoleA: diff.Side{TL: tl, Select: "classic"}.Role, RoleB: diff.Side{TL: tl, Select: "modern"}.Role,
	}})
	if err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if got := block(t, s, "iteration · OnAdd #1", 1); !strings.Contains(got, "  in B: at 3s (+2s)\n") {
		t.Errorf("classic's OnAdd against modern's:\n%s", got)
	}
	if got := block(t, s, "iteration · OnAdd #1", 2); strings.Contains(got, "in B") {
		t.Errorf("modern's own OnAdd is not A's and should be compared with nothing:\n%s", got)
	}
}

// TestAgainstInteractive: the story panel says it too.
func TestAgainstInteractive(t *testing.T) {
	a, b := handlers("classic", false, 1, 2), handlers("modern", false, 1, 6.9)
	ta, tb := timeline.Build(a), timeline.Build(b)
	m := modelOf(t, a, stepview.Options{Against: &stepview.Against{
		B: tb, RoleA: diff.Side{TL: ta}.Role, RoleB: diff.Side{TL: tb}.Role,
	}})
	m, _ = press(t, m, "end")
	for m.Step().Name() != "OnAdd" {
		m, _ = press(t, m, "p")
	}
	if v := view(m); !strings.Contains(v, "in B: at 6.9s (+4.9s)") {
		t.Errorf("the story of the second OnAdd does not say when B has it:\n%s", v)
	}
}
