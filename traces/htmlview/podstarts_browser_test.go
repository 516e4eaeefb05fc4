package htmlview

import (
	"strings"
	"testing"

	"github.com/kubeloom/kubeloom/internal/browsertest"
	"github.com/kubeloom/kubeloom/traces/timeline"
	"github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// With nothing selected the details panel shows the pod startup figures of
// timelinetest.PodStarts, those podstartup's tests check, in each language;
// the kubelets' rows folded under a summary.
func TestBrowserPodStarts(t *testing.T) {
	b := browsertest.Start(t, browsertest.Options{Width: 1200, Height: 800})
	pageURL, _ := writePage(t, timeline.Build(timelinetest.PodStarts()))
	load(t, b, pageURL)
	rows := func() []string {
		return eval[[]string](t, b, `[...document.querySelectorAll('#details table.podstarts tr')]
			.map((tr) => [...tr.children].map((c) => c.textContent).join('|'))`)
	}
	for _, tc := range []struct {
		lang, heading string
		want          []string // texts the panel shows
		rows          []string // rows of its tables, cells joined by |
	}{{
		lang: "en", heading: "Pod startup",
		want: []string{"pod startup of 6 pods: percentiles by nearest rank", "per kubelet (2)",
			"1 static pod (a manifest file or URL) has no create and no scheduling: not in the figures",
			"2 pods were never written Running before the recording ended"},
		rows: []string{
			"instance|interval|pods|P50|P90|P99|MAX",
			"all|create → scheduled|4|250ms|500ms|500ms|500ms",
			"|scheduled → Running|3|2s|3s|3s|3s",
			"|create → Running|3|2.5s|3.5s|3.5s|3.5s",
			"instance|interval|pods|P50|P90|P99|MAX",
			"node-1|create → scheduled|2|0s|250ms|250ms|250ms",
			"node-2|create → scheduled|2|500ms|500ms|500ms|500ms",
			"|scheduled → Running|1|1s|1s|1s|1s",
			"|create → Running|1|1s|1s|1s|1s",
		},
	}, {
		lang: "zh", heading: "Pod 启动",
		want: []string{"6 个 pod 的启动：百分位按最近秩法（nearest rank）", "按 kubelet（2 个）", "1 个 pod 已创建但从未被调度器绑定"},
		rows: []string{"实例|区间|pod 数|P50|P90|P99|MAX", "全部|创建 → 调度|4|250ms|500ms|500ms|500ms"},
	}} {
		eval[any](t, b, `kubeloom.setLang("`+tc.lang+`")`)
		text := state(t, b).Details
		for _, s := range tc.want {
			if !strings.Contains(text, s) {
				t.Errorf("%s: the details panel lacks %q:\n%s", tc.lang, s, text)
			}
		}
		// The heading's capitals are the style's: its text is the word.
		if h := eval[string](t, b, `document.querySelector('#details h3').textContent`); h != tc.heading {
			t.Errorf("%s: the heading is %q, want %q", tc.lang, h, tc.heading)
		}
		got := rows()
		for _, r := range tc.rows {
			if !contains(got, r) {
				t.Errorf("%s: no row %q in the tables:\n%s", tc.lang, r, strings.Join(got, "\n"))
			}
		}
	}
	// A recording without any pod (a controller-manager alone) has no
	// section at all.
	r := timelinetest.New("no-pods")
	r.Goroutine(timelinetest.Root, "cm/log-flush", "until", 0, 10)
	noPods, _ := writePage(t, timeline.Build(r.Spans()))
	load(t, b, noPods)
	if n := eval[int](t, b, `document.querySelectorAll('#details h3').length`); n != 0 {
		t.Errorf("a recording without pods shows %d headings in the details panel, want no pod startup section:\n%s", n, state(t, b).Details)
	}
	if p := b.Problems(t); len(p) > 0 {
		t.Errorf("the console has errors:\n%s", strings.Join(p, "\n"))
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
