package docs

import (
	"fmt"
	"time"

	"github.com/kubeloom/kubeloom/traces/podstartup"
)

// The pod startup figures of docs/scale.md (and docs/zh/scale.md): how
// long cluster-scale's 3,000 pods took from create to the first status
// write that said Running, against the goal of kubernetes/kubernetes#3954
// (99th percentile under 5 s on 100 nodes and 3,000 pods). They read the
// same run as the storm's figures, hence the prefix scale.: checked by
// `make docs-check-large`.
func init() {
	stat := func(i podstartup.Interval, pick func(podstartup.Stats) time.Duration) func(d *docRuns) (figure, error) {
		return func(d *docRuns) (figure, error) {
			r, err := scaleStarts(d)
			if err != nil {
				return figure{}, err
			}
			return durationOf(pick(r.Overall.Stats[i]), 10*time.Millisecond, 50*time.Millisecond), nil
		}
	}
	p50 := func(s podstartup.Stats) time.Duration { return s.P50 }
	p99 := func(s podstartup.Stats) time.Duration { return s.P99 }
	maxOf := func(s podstartup.Stats) time.Duration { return s.Max }
	register(map[string]func(d *docRuns) (figure, error){
		"scale.startup-pods": func(d *docRuns) (figure, error) {
			r, err := scaleStarts(d)
			if err != nil {
				return figure{}, err
			}
			return exactCount(r.Overall.Stats[podstartup.CreateToRunning].N), nil
		},
		"scale.startup-kubelets": func(d *docRuns) (figure, error) {
			r, err := scaleStarts(d)
			if err != nil {
				return figure{}, err
			}
			return exactCount(len(r.Instances)), nil
		},
		"scale.startup-p50":           stat(podstartup.CreateToRunning, p50),
		"scale.startup-p99":           stat(podstartup.CreateToRunning, p99),
		"scale.startup-max":           stat(podstartup.CreateToRunning, maxOf),
		"scale.startup-scheduled-p50": stat(podstartup.CreateToScheduled, p50),
		"scale.startup-scheduled-p99": stat(podstartup.CreateToScheduled, p99),
		"scale.startup-running-p50":   stat(podstartup.ScheduledToRunning, p50),
		"scale.startup-running-p99":   stat(podstartup.ScheduledToRunning, p99),
		"scale.startup-running-min": func(d *docRuns) (figure, error) {
			// The fastest kubelet's: every kubelet's pods start together.
			r, err := scaleStarts(d)
			if err != nil {
				return figure{}, err
			}
			least := time.Duration(-1)
			for _, row := range r.Instances {
				if s := row.Stats[podstartup.ScheduledToRunning]; s.N > 0 && (least < 0 || s.P50 < least) {
					least = s.P50
				}
			}
			if least < 0 {
				return figure{}, fmt.Errorf("no kubelet wrote a pod Running")
			}
			return durationOf(least, 10*time.Millisecond, 50*time.Millisecond), nil
		},
	})
}

// scaleStarts is the pod startup report of cluster-scale's run.
func scaleStarts(d *docRuns) (*podstartup.Report, error) {
	var c podstartup.Collector
	c.Spans(d.of("cluster-scale").spans)
	r := c.Report()
	if r.Overall.Stats[podstartup.CreateToRunning].N == 0 {
		return nil, fmt.Errorf("cluster-scale: no pod went from create to Running")
	}
	return r, nil
}
