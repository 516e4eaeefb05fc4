package main

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/kubeloom/kubeloom/internal/browsertest"
)

// BenchmarkServeClusterScale is item 7 of issue 31 for the simulation: a
// 100-node cluster-scale session streamed to one viewer as fast as it goes,
// against `kubeloom run cluster-scale` on the same machine. It reports the
// spans per second the viewer received (the spans of the last state over
// the session's wall time: ≥ 20,000) and how much slower the session ran
// than the plain run (slowdown-%: ≤ 10).
func BenchmarkServeClusterScale(b *testing.B) {
	bin := builtBinary(b)
	for range b.N {
		rec := filepath.Join(b.TempDir(), "cluster-scale.jsonl")
		plain := runProcess(b, bin, "", "run", "cluster-scale", "-q", "--out", rec)
		if plain.exitErr != nil {
			b.Fatalf("%v\n%s", plain.exitErr, plain.stderr)
		}
		s := startServe(b, bin)
		s.post("api/session?builtin=cluster-scale", "")
		s.post("api/speed", `{"speed": 0}`)
		type watched struct {
			st    viewerState
			snaps int
			bytes int64
			wall  time.Duration
		}
		got := make(chan watched, 1)
		start := time.Now()
		go func() {
			st, n, nb := s.watch(func(st viewerState) bool { return st.Done })
			got <- watched{st, n, nb, time.Since(start)}
		}()
		s.post("api/play", "")
		w := <-got
		s.stop()
		slowdown := 100 * (w.wall.Seconds()/plain.wall.Seconds() - 1)
		b.ReportMetric(plain.wall.Seconds(), "run-wall-s")
		b.ReportMetric(w.wall.Seconds(), "serve-wall-s")
		b.ReportMetric(slowdown, "slowdown-%")
		b.ReportMetric(float64(w.st.Spans)/w.wall.Seconds(), "spans/s")
		b.ReportMetric(float64(w.snaps), "snapshots")
		b.ReportMetric(float64(w.bytes)/(1<<20), "snapshot-MiB")
		b.Logf("run: %.1fs, %d spans; serve to one viewer: %.1fs (%+.1f%%), %d spans (%.0f/s), %d snapshots, %.0f MiB",
			plain.wall.Seconds(), plain.spans, w.wall.Seconds(), slowdown, w.st.Spans, float64(w.st.Spans)/w.wall.Seconds(), w.snaps, float64(w.bytes)/(1<<20))
	}
}

// frameWork wraps requestAnimationFrame before the page animates anything:
// every callback's time is added to its frame's (callbacks of one frame
// share its timestamp), so that a frame's work counts what the page does
// in it, the snapshot's update() included.
const frameWork = `(() => {
  const raf = window.requestAnimationFrame.bind(window);
  const work = new Map();
  window.__frameWork = work;
  window.requestAnimationFrame = (cb) => raf((ts) => {
    const t0 = performance.now();
    try { cb(ts); } finally { work.set(ts, (work.get(ts) || 0) + performance.now() - t0); }
  });
})();`

// BenchmarkServeFrames is item 7 of issue 31 for the page: cluster-basics
// streamed to the live page in Chromium at 1280×720, as fast as it goes and
// at 60×, and how long the page works in each frame from play to the end
// (median ≤ 16 ms, worst ≤ 50 ms), snapshots' updates included. The frame
// that mounts the timeline, before play, is reported apart (mount-frame-ms).
func BenchmarkServeFrames(b *testing.B) {
	bin := builtBinary(b)
	for _, speed := range []string{"0", "60"} {
		name := "fastest"
		if speed != "0" {
			name = speed + "x"
		}
		b.Run(name, func(b *testing.B) {
			for range b.N {
				s := startServe(b, bin)
				br := browsertest.Start(b, browsertest.Options{Width: 1280, Height: 720})
				if err := chromedp.Do(br.Ctx, chromedp.Navigate(s.base+"#token="+s.token)); err != nil {
					b.Fatal(err)
				}
				poll := func(expr string) {
					b.Helper()
					if _, err := chromedp.Run(br.Ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(2*time.Minute))); err != nil {
						b.Fatalf("waiting for %s: %v", expr, err)
					}
				}
				poll(`!!window.kubeloomLive && window.kubeloomLive.canControl === true`)
				// No timeline yet, nothing animates: every frame from now on
				// goes through the wrapper (the page's modules look
				// requestAnimationFrame up when they call it).
				if _, err := chromedp.Run(br.Ctx, chromedp.Evaluate[chromedp.Void](frameWork)); err != nil {
					b.Fatal(err)
				}
				s.post("api/session?builtin=cluster-basics", "")
				poll(`!!window.kubeloom && window.kubeloom.ready === true`)
				// The stream starts with play: the frames before it mount
				// the timeline, once (first paint, as the export page's).
				mount, err := chromedp.Run(br.Ctx, chromedp.Evaluate[float64](`(() => { const w = Math.max(0, ...window.__frameWork.values()); window.__frameWork.clear(); return w })()`))
				if err != nil {
					b.Fatal(err)
				}
				s.post("api/speed", `{"speed": `+speed+`}`)
				s.post("api/play", "")
				poll(`!!window.kubeloomLive.state && window.kubeloomLive.state.done === true && window.kubeloomLive.snapshotSeq === window.kubeloomLive.state.view`)
				res, err := chromedp.Run(br.Ctx, chromedp.Evaluate[struct {
					Work      []float64 `json:"work"`
					Snapshots int       `json:"snapshots"`
				}](`({work: [...window.__frameWork.values()], snapshots: window.kubeloomLive.snapshots})`))
				if err != nil {
					b.Fatal(err)
				}
				work := res.Work
				if len(work) == 0 {
					b.Fatal("no frame was drawn")
				}
				slices.Sort(work)
				b.ReportMetric(work[len(work)/2], "median-frame-ms")
				b.ReportMetric(work[len(work)-1], "worst-frame-ms")
				b.ReportMetric(float64(len(work)), "frames")
				b.ReportMetric(float64(res.Snapshots), "snapshots")
				b.ReportMetric(mount, "mount-frame-ms")
				b.Logf("cluster-basics at speed %s: %d frames, %d snapshots; frame work median %.1f ms, worst %.1f ms (the five worst: %.1f); the mount before play %.1f ms",
					speed, len(work), res.Snapshots, work[len(work)/2], work[len(work)-1], work[max(0, len(work)-5):], mount)
				for _, p := range br.Problems(b) {
					b.Errorf("console: %s", p)
				}
				s.stop()
			}
		})
	}
}
