package htmlview

import (
	"time"

	"github.com/kubeloom/kubeloom/traces/podstartup"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// podStarts are the recording's pod startup figures (traces/podstartup),
// which the details panel shows when nothing is selected: the same as
// `kubeloom replay --latency`.
type podStarts struct {
	Pods          int `json:"pods"`
	Static        int `json:"static"`
	NoCreate      int `json:"noCreate"`
	BoundAtCreate int `json:"boundAtCreate"`
	NotScheduled  int `json:"notScheduled"`
	NotRunning    int `json:"notRunning"`
	// Rows are all pods, then each kubelet's.
	Rows []podStartRow `json:"rows"`
}

// podStartRow is a podstartup.Row: per interval (podstartup.Intervals'
// order) the pods counted, then p50, p90, p99 and max in microseconds,
// rounded as replay --latency rounds them (timeline.RoundDuration).
type podStartRow struct {
	Instance string     `json:"in"` // "" for all pods
	Pods     int        `json:"pods"`
	Stats    [][5]int64 `json:"stats"`
}

// podStartsOf reckons the figures from the timeline's marks: every
// iteration and call of every lane, on the lane's goroutine.
func podStartsOf(tl *timeline.Timeline) podStarts {
	var c podstartup.Collector
	for _, in := range tl.Instances {
		for _, l := range in.Lanes {
			for _, marks := range [][]timeline.Mark{l.Iterations, l.Calls} {
				for i := range marks {
					c.Observe(in.ID, l.Goroutine, marks[i].Name, marks[i].Start, marks[i].Attributes)
				}
			}
		}
	}
	r := c.Report()
	out := podStarts{Pods: len(r.Pods), Static: r.Static, NoCreate: r.NoCreate, BoundAtCreate: r.BoundAtCreate, NotScheduled: r.NotScheduled, NotRunning: r.NotRunning,
		Rows: []podStartRow{}}
	if len(r.Pods) == 0 {
		return out
	}
	for _, row := range append([]podstartup.Row{r.Overall}, r.Instances...) {
		pr := podStartRow{Instance: row.Instance, Pods: row.Pods}
		for _, i := range podstartup.Intervals {
			s := row.Stats[i]
			pr.Stats = append(pr.Stats, [5]int64{int64(s.N), roundMicros(s.P50), roundMicros(s.P90), roundMicros(s.P99), roundMicros(s.Max)})
		}
		out.Rows = append(out.Rows, pr)
	}
	return out
}

// roundMicros is d as the page shows it: in microseconds, rounded as the
// terminal's views round it (timeline.RoundDuration), so that the page
// and the text agree ("1.19s", not "1.187342s").
func roundMicros(d time.Duration) int64 {
	return timeline.RoundDuration(d).Microseconds()
}
