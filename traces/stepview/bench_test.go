package stepview_test

import (
	"fmt"
	"io"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/stepview"
	"github.com/kubeloom/kubeloom/traces/timeline"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// pods is a kubelet starting a pod worker per pod, each syncing its pod
// once: n lanes in the goroutine tree, and 3n steps.
func pods(n int) []traces.Span {
	r := tt.New("pods").Instance("kubelet", "node-1")
	run := r.Span(tt.Root, "run", 0, float64(n)+10)
	ml := r.Goroutine(run, "kubelet/main-loop", catalog.KindUntil, 0.1, float64(n)+10)
	for i := range n {
		key := fmt.Sprintf("default/web-%d", i)
		at := 1 + float64(i)
		w := r.Goroutine(ml, "kubelet/pod-worker", catalog.KindGo, at, float64(n)+10, catalog.AttrObjectKey, key)
		it := r.Iteration(w, "kubelet/pod-worker", "syncPod", 1, at, at+0.5, catalog.AttrObjectKey, key)
		r.Span(it, "pods.UpdateStatus", at+0.4, at+0.5, catalog.AttrObjectKey, key)
	}
	return r.Spans()
}

// BenchmarkView draws one frame of `kubeloom step` at 120x40 in the middle
// of a recording of 500 pod workers, in English and in Chinese.
func BenchmarkView(b *testing.B) {
	spans := pods(500)
	tl := timeline.Build(spans)
	for _, lang := range []string{"en", "zh"} {
		b.Run(lang, func(b *testing.B) {
			m, err := stepview.New(tl, stepview.Options{Spans: spans, Lang: lang, Width: 120, Height: 40})
			if err != nil {
				b.Fatal(err)
			}
			next, _ := m.Update(tea.KeyMsg{Type: tea.KeyEnd})
			m = next.(stepview.Model)
			for range 700 {
				next, _ = m.Update(tea.KeyMsg{Type: tea.KeyLeft})
				m = next.(stepview.Model)
			}
			for b.Loop() {
				if v := m.View(); v == "" {
					b.Fatal("empty view")
				}
			}
		})
	}
}

// BenchmarkWrap wraps a paragraph of English and one of Chinese to 60 columns.
func BenchmarkWrap(b *testing.B) {
	en := strings.Repeat("The informer's process loop pops one key from the DeltaFIFO and hands its deltas to every listener. ", 8)
	zh := strings.Repeat("每隔 RetryPeriod（2 秒）尝试一次，第一次立即进行。informer 的处理循环从 DeltaFIFO 取出一个键。", 8)
	for b.Loop() {
		stepview.Wrap(en, 60)
		stepview.Wrap(zh, 60)
	}
}

// BenchmarkPlain writes the whole story of a recording of 100 pod workers
// (300 steps) as text, as `kubeloom step --plain` does.
func BenchmarkPlain(b *testing.B) {
	tl := timeline.Build(pods(100))
	for b.Loop() {
		if err := stepview.Plain(io.Discard, tl, "en", 0, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAgainst pairs the steps of two recordings of 20,000 pod workers
// (60,000 steps each), as `kubeloom step A --against B` does before the
// first step shows: the indexing of both, and the first plain block.
func BenchmarkAgainst(b *testing.B) {
	spans := pods(20000)
	ta, tb := timeline.Build(spans), timeline.Build(pods(20000))
	role := func(in *timeline.Instance) (string, bool) { return in.Service + " " + in.ID, true }
	for b.Loop() {
		err := stepview.PlainWith(io.Discard, ta, stepview.Options{To: 1, Against: &stepview.Against{B: tb, RoleA: role, RoleB: role}})
		if err != nil {
			b.Fatal(err)
		}
	}
}
