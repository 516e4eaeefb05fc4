package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/kubeloom/kubeloom/internal/browsertest"
)

// servedSession is `kubeloom serve` as a teacher starts it, in a process
// of its own, driven over its HTTP API as the page drives it.
type servedSession struct {
	tb      testing.TB
	cmd     *exec.Cmd
	base    string // http://127.0.0.1:PORT/
	token   string
	client  *http.Client
	dir     string
	stopped bool
}

// controlURL is the URL serve prints: "kubeloom serve: open URL#token=T".
var controlURL = regexp.MustCompile(`open (http://\S+/)#token=(\S+)`)

func startServe(tb testing.TB, bin string, args ...string) *servedSession {
	tb.Helper()
	dir := tb.TempDir()
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--dir", dir}, args...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	s := &servedSession{tb: tb, cmd: cmd, client: &http.Client{}, dir: dir}
	tb.Cleanup(s.stop)
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if m := controlURL.FindStringSubmatch(sc.Text()); m != nil {
			s.base, s.token = m[1], m[2]
			break
		}
	}
	if s.base == "" {
		tb.Fatalf("kubeloom serve printed no control URL:\n%s", stderr.String())
	}
	go io.Copy(io.Discard, out)
	return s
}

// post sends a control request with the token.
func (s *servedSession) post(path, body string) {
	s.tb.Helper()
	req, err := http.NewRequest(http.MethodPost, s.base+strings.TrimPrefix(path, "/"), strings.NewReader(body))
	if err != nil {
		s.tb.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	resp, err := s.client.Do(req)
	if err != nil {
		s.tb.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		b, _ := io.ReadAll(resp.Body)
		s.tb.Fatalf("POST %s: %s: %s", path, resp.Status, b)
	}
}

// viewerState is what a state event carries (serve/session.State).
type viewerState struct {
	ElapsedUS int64 `json:"elapsedUs"`
	Spans     int64 `json:"spans"`
	Snapshot  int64 `json:"snapshot"`
	Done      bool  `json:"done"`
}

// watch reads the event stream as one viewer does, until the run is done:
// every state and every snapshot (whose bytes it counts).
func (s *servedSession) watch() (last viewerState, snapshots int, snapshotBytes int64) {
	s.tb.Helper()
	resp, err := s.client.Get(s.base + "api/events")
	if err != nil {
		s.tb.Fatal(err)
	}
	defer resp.Body.Close()
	r := bufio.NewReaderSize(resp.Body, 1<<20)
	var event string
	var data bytes.Buffer
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			s.tb.Fatalf("the event stream ended before the run did: %v (last state %+v)", err, last)
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		switch {
		case bytes.HasPrefix(line, []byte("event: ")):
			event = string(line[len("event: "):])
		case bytes.HasPrefix(line, []byte("data: ")):
			data.Write(line[len("data: "):])
		case len(line) == 0 && event != "":
			switch event {
			case "state":
				var st struct {
					viewerState
					State *viewerState `json:"state"`
				}
				if err := json.Unmarshal(data.Bytes(), &st); err != nil {
					s.tb.Fatalf("a state event that is not JSON: %v", err)
				}
				last = st.viewerState
				if st.State != nil {
					last = *st.State
				}
			case "snapshot":
				snapshots++
				snapshotBytes += int64(data.Len())
			}
			event = ""
			data.Reset()
			if last.Done {
				return last, snapshots, snapshotBytes
			}
		}
	}
}

func (s *servedSession) stop() {
	if s.stopped {
		return
	}
	s.stopped = true
	s.cmd.Process.Signal(os.Interrupt)
	s.cmd.Wait()
}

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
			st, n, nb := s.watch()
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
