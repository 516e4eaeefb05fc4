package htmlview

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/chromedp/chromedp"

	"github.com/kubeloom/kubeloom/internal/browsertest"
	"github.com/kubeloom/kubeloom/internal/memnet"
	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/engine"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/diff"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// recordEra runs a built-in scenario in one era, as `kubeloom run --era`
// does, in a synctest bubble (see recordBuiltin).
func recordEra(t *testing.T, name string, era scenarios.Era) *timeline.Timeline {
	t.Helper()
	sc, err := scenarios.Builtin(name)
	if err != nil {
		t.Fatal(err)
	}
	sc.Spec.Era, sc.Spec.Eras = era, nil
	var rec bytes.Buffer
	synctest.Test(t, func(t *testing.T) {
		n := memnet.New()
		if _, err := engine.Run(context.Background(), engine.Options{Scenario: sc, Recording: &rec, Listen: n.Listen, Dial: n.Dial}); err != nil {
			t.Fatalf("running %s: %v", name, err)
		}
	})
	spans, err := traces.Read(&rec, name+".jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return timeline.Build(spans)
}

// TestBrowserDiff opens the comparison of kubelet-startup's two eras
// (the v1.5 kubelet and today's) in Chromium: each role's instances in
// pairs, A's above B's; the lanes of a family that differs highlighted,
// those of a family only one side ran marked, the others not; every
// difference listed in the panel, where a click on one unfolds its group,
// makes its lane's first step the current one and scrolls it into view;
// the panel in 中文; a clean console. Its screenshot is docs/images'
// (-update, make docs-picture).
func TestBrowserDiff(t *testing.T) {
	const w, h = 1280, 720
	a, b := diff.Side{TL: recordEra(t, "kubelet-startup", "classic")}, diff.Side{TL: recordEra(t, "kubelet-startup", "modern")}
	r := diff.Compare(a, b, diff.Options{})
	path := filepath.Join(t.TempDir(), "diff.html")
	var page bytes.Buffer
	if err := WriteDiff(&page, a, b, DiffNames{A: "classic.jsonl", B: "modern.jsonl"}, r); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	br := browsertest.Start(t, browsertest.Options{Width: w, Height: h})
	// The window's size is not the viewport's: the screenshot is the
	// viewport, as the scenarios' test takes them.
	if err := chromedp.Do(br.Ctx, chromedp.EmulateViewport(w, h)); err != nil {
		t.Fatal(err)
	}
	load(t, br, (&url.URL{Scheme: "file", Path: path}).String())

	// The pairs: instance headings alternate A, B of one role.
	heads := eval[[]string](t, br, `kubeloom.rowsInfo().filter((r) => r.kind === 'instance').map((r) => r.name)`)
	if len(heads) != 2*len(a.TL.Instances) {
		t.Fatalf("the page has %d instances %q, want each of A's %d paired with B's", len(heads), heads, len(a.TL.Instances))
	}
	for i := 0; i < len(heads); i += 2 {
		ra, okA := strings.CutPrefix(heads[i], "A ")
		rb, okB := strings.CutPrefix(heads[i+1], "B ")
		if !okA || !okB || ra != rb {
			t.Errorf("instances %d and %d are %q and %q, want a pair: A's above B's of one role", i, i+1, heads[i], heads[i+1])
		}
	}

	// Each family's lanes carry its mark.
	type famInfo struct {
		Family  string
		Differs []string
		Lane    [2]int
		Marks   [2]int
	}
	fams := eval[[]famInfo](t, br, `(() => { const d = JSON.parse(document.getElementById('kubeloom-data').textContent).diff;
		return d.families.map((f) => ({ Family: f.family, Differs: f.differs, Lane: f.lane,
			Marks: f.lane.map((li) => li < 0 ? -1 : kubeloom.laneMark(li)) })); })()`)
	var differing, oneSide, same *famInfo
	for i, f := range fams {
		want := 0
		switch {
		case len(f.Differs) > 0 && strings.HasPrefix(f.Differs[0], "only in"):
			want = 2
			oneSide = &fams[i]
		case len(f.Differs) > 0:
			want = 1
			if differing == nil || f.Family == "kubelet/node-status" {
				differing = &fams[i]
			}
		default:
			same = &fams[i]
		}
		for side, li := range f.Lane {
			if li >= 0 && f.Marks[side] != want {
				t.Errorf("%s (differs: %v): side %d's lane %d is marked %d, want %d", f.Family, f.Differs, side, li, f.Marks[side], want)
			}
		}
	}
	if differing == nil || oneSide == nil || same == nil {
		t.Fatalf("the eras' comparison lacks a family that differs, one that runs on one side only or one that is the same: %+v", fams)
	}
	if oneSide.Lane[0] >= 0 == (oneSide.Lane[1] >= 0) {
		t.Errorf("%s ran on one side only, yet has lanes %v", oneSide.Family, oneSide.Lane)
	}

	// The panel lists what differs, and nothing that does not.
	listed := eval[[]string](t, br, `[...document.querySelectorAll('#diff button.diff-row .diff-name')].map((e) => e.textContent)`)
	for _, f := range []*famInfo{differing, oneSide} {
		if !contains(listed, f.Family) {
			t.Errorf("the panel does not list %s (%v): %q", f.Family, f.Differs, listed)
		}
	}
	if contains(listed, same.Family) {
		t.Errorf("the panel lists %s, which does not differ", same.Family)
	}

	// A click on a row jumps to its lane, out of its folded group.
	li := differing.Lane[0]
	if row := eval[int](t, br, fmt.Sprintf(`kubeloom.rowsInfo().findIndex((r) => r.lane === %d)`, li)); row >= 0 {
		t.Logf("lane %d (%s) is already shown before the click", li, differing.Family)
	}
	// A real click, at the row's middle once the panel shows it.
	pos := eval[struct{ X, Y float64 }](t, br, fmt.Sprintf(`(() => { const e = document.querySelector('#diff button.diff-row[data-lane="%d"]');
		e.scrollIntoView({ block: 'center' }); const r = e.getBoundingClientRect(); return { X: r.left + r.width / 2, Y: r.top + r.height / 2 }; })()`, li))
	if err := chromedp.Do(br.Ctx, chromedp.MouseClickXY(pos.X, pos.Y)); err != nil {
		t.Fatal(err)
	}
	waitFrame(t, br)
	if got := eval[int](t, br, `kubeloom.stepInfo(kubeloom.step).lane`); got != li {
		t.Errorf("after the click on %s the current step is on lane %d, want its lane %d", differing.Family, got, li)
	}
	if v := eval[struct {
		Y   bool
		Row string
	}](t, br, `kubeloom.stepVisible()`); !v.Y || v.Row != "lane" {
		t.Errorf("after the click on %s its lane is not in view as a lane row: %+v", differing.Family, v)
	}

	eval[any](t, br, `kubeloom.setLang("zh")`)
	if h := eval[string](t, br, `document.querySelector('#diff h2').textContent`); h != "不同之处" {
		t.Errorf("in 中文 the panel's heading is %q", h)
	}
	eval[any](t, br, `kubeloom.setLang("en")`)
	waitFrame(t, br)
	if h := eval[string](t, br, `document.querySelector('#diff h2').textContent`); h != "What differs" {
		t.Errorf("in English the panel's heading is %q", h)
	}

	if shot := screenshot(t, br, w, h); *update {
		writeImage(t, fmt.Sprintf("diff-kubelet-startup-%dx%d.png", w, h), shot)
	}
	if p := br.Problems(t); len(p) > 0 {
		t.Errorf("the console has errors:\n%s", strings.Join(p, "\n"))
	}
}
