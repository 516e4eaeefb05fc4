package docs

import (
	"fmt"
	"time"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// The figures of the reflector-leak lesson: the built-in's texts
// (sc.rl.*), its section of controller-manager.md and its lesson in
// classroom.md (rl.*), from the docs' run of reflector-leak. Its two
// informers are pods-v1.4 (the reflector before kubernetes#35672) and
// pods-v1.5, in the one instance "informers".
func init() {
	register(map[string]func(d *docRuns) (figure, error){
		"sc.rl.breaks": func(d *docRuns) (figure, error) {
			var at []string
			for _, s := range scByStart(d.of("reflector-leak").spans) {
				if s.Attributes.String(catalog.AttrAction) == "breakWatches" {
					sec, _ := s.Attributes.Float(catalog.AttrActionAt)
					at = append(at, (time.Duration(sec * float64(time.Second))).String())
				}
			}
			if len(at) == 0 {
				return figure{}, fmt.Errorf("reflector-leak breaks no watch")
			}
			return exact(andList(at)), nil
		},
		"sc.rl.leaked": func(d *docRuns) (figure, error) {
			return exactCount(len(rlLeaked(d.of("reflector-leak"), "pods-v1.4"))), nil
		},
		"sc.rl.leaked-v15": func(d *docRuns) (figure, error) {
			return exactCount(len(rlLeaked(d.of("reflector-leak"), "pods-v1.5"))), nil
		},
		"sc.rl.parked-at": func(d *docRuns) (figure, error) {
			// The leaked goroutine whose call's deferred cleanup() stopped
			// its timer: when it was left behind.
			r := d.of("reflector-leak")
			var at []time.Duration
			for _, l := range rlLeaked(r, "pods-v1.4") {
				for _, e := range marks(l.Events, catalog.EventLeaked) {
					if stopped, _ := e.Attributes["resync.timer_stopped"].(bool); stopped {
						at = append(at, r.at(e.Start))
					}
				}
			}
			if len(at) != 1 {
				return figure{}, fmt.Errorf("reflector-leak: %d leaked goroutines with a stopped timer, want 1", len(at))
			}
			return durationOf(at[0], time.Second, time.Second), nil
		},
		"sc.rl.resyncs-v14": func(d *docRuns) (figure, error) {
			return exactCount(rlResyncs(d.of("reflector-leak"), "pods-v1.4")), nil
		},
		"sc.rl.resyncs-v15": func(d *docRuns) (figure, error) {
			return exactCount(rlResyncs(d.of("reflector-leak"), "pods-v1.5")), nil
		},
		"rl.timers-v14": func(d *docRuns) (figure, error) {
			return exactCount(len(rlTimers(d.of("reflector-leak"), "pods-v1.4"))), nil
		},
	})
}

// rlTimers are the reflector/resync-timer lanes of an informer of
// reflector-leak.
func rlTimers(r *docRun, informer string) []*timeline.Lane {
	var out []*timeline.Lane
	for _, l := range r.lanes("informers", "reflector/resync-timer") {
		if l.Attributes.String(catalog.AttrInformer) == informer {
			out = append(out, l)
		}
	}
	return out
}

// rlLeaked are those of them left behind by a re-list.
func rlLeaked(r *docRun, informer string) []*timeline.Lane {
	var out []*timeline.Lane
	for _, l := range rlTimers(r, informer) {
		if l.Leaked() {
			out = append(out, l)
		}
	}
	return out
}

// rlResyncs counts an informer's DeltaFIFO.Resync calls, on all its resync
// goroutines, leaked or not.
func rlResyncs(r *docRun, informer string) int {
	n := 0
	for _, l := range rlTimers(r, informer) {
		n += len(marks(l.Calls, "DeltaFIFO.Resync"))
	}
	return n
}
