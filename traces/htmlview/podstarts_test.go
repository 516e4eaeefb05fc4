package htmlview

import (
	"testing"

	"github.com/kubeloom/kubeloom/traces/podstartup"
	"github.com/kubeloom/kubeloom/traces/timeline"
	"github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// The page's figures, read off the timeline's marks, are those podstartup
// reads off the spans.
func TestPodStartsOfTheTimelineAreThoseOfTheSpans(t *testing.T) {
	spans := timelinetest.PodStarts()
	var c podstartup.Collector
	c.Spans(spans)
	want := c.Report()
	got := podStartsOf(timeline.Build(spans))
	if got.Pods != len(want.Pods) || got.Static != want.Static || got.NoCreate != want.NoCreate ||
		got.BoundAtCreate != want.BoundAtCreate || got.NotScheduled != want.NotScheduled || got.NotRunning != want.NotRunning {
		t.Errorf("page counts %+v, want those of %+v", got, want)
	}
	rows := append([]podstartup.Row{want.Overall}, want.Instances...)
	if len(got.Rows) != len(rows) {
		t.Fatalf("page has %d rows, want %d", len(got.Rows), len(rows))
	}
	for i, r := range rows {
		g := got.Rows[i]
		if g.Instance != r.Instance || g.Pods != r.Pods {
			t.Errorf("row %d is %q of %d pods, want %q of %d", i, g.Instance, g.Pods, r.Instance, r.Pods)
		}
		for _, iv := range podstartup.Intervals {
			s := r.Stats[iv]
			r := timeline.RoundDuration // as replay --latency rounds them
			if w := [5]int64{int64(s.N), r(s.P50).Microseconds(), r(s.P90).Microseconds(), r(s.P99).Microseconds(), r(s.Max).Microseconds()}; g.Stats[iv] != w {
				t.Errorf("row %d interval %d: %v, want %v", i, iv, g.Stats[iv], w)
			}
		}
	}
}
