package docs

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/stepview"
)

// The figures of the documents about the views and the machinery:
// docs/replay.md, docs/step.md, docs/export.md, docs/trace-file.md,
// docs/architecture.md and docs/zh/architecture.md.
func init() {
	register(map[string]func(d *docRuns) (figure, error){
		// replay.md: the example and its reading.
		"views.ib-column": func(d *docRuns) (figure, error) {
			s, err := viewsColumn(d, "informer-basics", viewsIBExample)
			return exact(s), err
		},
		"views.ib-actions": func(d *docRuns) (figure, error) {
			r := d.of("informer-basics")
			var at []string
			for _, s := range viewsActions(r) {
				at = append(at, fmt.Sprintf("%s at %s", strings.TrimPrefix(s.name, "action/"), r.at(s.start).Round(100*time.Millisecond)))
			}
			return exact(strings.Join(at, ", ")), nil
		},
		"views.ib-preloaded": func(d *docRuns) (figure, error) {
			r := d.of("informer-basics")
			l, err := r.lane("informers", "informer/listener-run pods handler-1")
			if err != nil {
				return figure{}, err
			}
			acts := viewsActions(r)
			if len(acts) == 0 {
				return figure{}, fmt.Errorf("informer-basics has no actions")
			}
			n := 0
			for _, m := range marks(l.Iterations, "OnAdd") {
				if m.Start.Before(acts[0].start) {
					n++
				}
			}
			return exactCount(n), nil
		},
		"views.ib-break-at": func(d *docRuns) (figure, error) {
			r := d.of("informer-basics")
			e, err := r.watchEvent("informers", "ERROR")
			return durationOf(r.at(e.Start), 100*time.Millisecond, 200*time.Millisecond), err
		},
		"views.ib-relist-after": func(d *docRuns) (figure, error) {
			r := d.of("informer-basics")
			l, err := r.lane("informers", "reflector/list-watch")
			if err != nil {
				return figure{}, err
			}
			e, err := r.watchEvent("informers", "ERROR")
			if err != nil || len(l.Iterations) < 2 {
				return figure{}, fmt.Errorf("informer-basics: no re-list after an ERROR (%v)", err)
			}
			return durationOf(l.Iterations[1].Start.Sub(e.Start), 100*time.Millisecond, 300*time.Millisecond), nil
		},
		"views.ib-relist-updates": func(d *docRuns) (figure, error) {
			r := d.of("informer-basics")
			l, err := r.lane("informers", "informer/listener-run pods handler-1")
			if err != nil {
				return figure{}, err
			}
			e, err := r.watchEvent("informers", "ERROR")
			if err != nil {
				return figure{}, err
			}
			var names []string
			for _, m := range marks(l.Iterations, "OnUpdate") {
				if m.Start.After(e.Start) {
					names = append(names, strings.TrimPrefix(m.Attributes.String("k8s.object.key"), "default/"))
				}
			}
			slices.Sort(names) // the re-list replaces the FIFO's contents in map order
			return exact(andList(names)), nil
		},
		"views.ks-column-80": func(d *docRuns) (figure, error) {
			s, err := viewsColumn(d, "kubelet-startup", "bin/kubeloom replay recordings/kubelet-startup.jsonl --width 80")
			if err != nil {
				return figure{}, err
			}
			col, err := time.ParseDuration(s)
			if err != nil {
				return figure{}, err
			}
			return figure{text: strconv.Itoa(int(math.Round(col.Seconds()))), tol: 1, kind: count}, nil
		},

		// step.md
		"views.ib-steps": func(d *docRuns) (figure, error) { return viewsAbout(len(d.of("informer-basics").steps), 0.1), nil },
		"views.ks-steps": func(d *docRuns) (figure, error) { return viewsAbout(len(d.of("kubelet-startup").steps), 0.1), nil },
		"views.cm-steps": func(d *docRuns) (figure, error) { return viewsAbout(len(d.of("cm-startup").steps), 0.1), nil },
		"views.ib-step-count": func(d *docRuns) (figure, error) {
			return countOf(len(d.of("informer-basics").steps), 0.05), nil
		},
		"views.ib-goroutines": func(d *docRuns) (figure, error) {
			return exactCount(d.of("informer-basics").tl.LaneCount()), nil
		},
		"views.ib-duration": func(d *docRuns) (figure, error) {
			return durationOf(d.of("informer-basics").tl.Duration(), time.Second, time.Second), nil
		},

		// export.md: spans per trace (one trace per instance).
		"views.small-trace-max": func(d *docRuns) (figure, error) {
			most := 0
			for _, name := range []string{"informer-basics", "informer-eras", "goroutine-leak", "kubelet-startup", "kubelet-pod-lifecycle", "cm-leader-failover"} {
				for _, n := range viewsSpansPerInstance(d.of(name)) {
					most = max(most, n)
				}
			}
			return viewsAbout(most, 0.1), nil
		},
		"views.cm-trace": func(d *docRuns) (figure, error) {
			return viewsAbout(viewsSpansPerInstance(d.of("cm-startup"))["cm-0"], 0.1), nil
		},
		"views.cb-trace": func(d *docRuns) (figure, error) {
			return viewsAbout(viewsSpansPerInstance(d.of("cluster-basics"))["cm-0"], 0.1), nil
		},

		// architecture.md: one pod through an informer.
		"views.ib-create-at": func(d *docRuns) (figure, error) {
			r := d.of("informer-basics")
			c, err := viewsCreate(r)
			return durationOf(r.at(c.start), 100*time.Millisecond, 200*time.Millisecond), err
		},
		"views.ib-watch-lane": func(d *docRuns) (figure, error) {
			r := d.of("informer-basics")
			c, err := viewsCreate(r)
			if err != nil {
				return figure{}, err
			}
			in, err := r.instance("informers")
			if err != nil {
				return figure{}, err
			}
			for _, l := range in.Lanes {
				if l.Goroutine != "watch/stream-receive" {
					continue
				}
				for _, m := range marks(l.Iterations, "receive") {
					if m.Attributes.String("k8s.object.key") == c.key {
						return exact("`" + l.Label + "`"), nil
					}
				}
			}
			return figure{}, fmt.Errorf("informer-basics: no watch received %s", c.key)
		},
		"views.ib-create-steps": func(d *docRuns) (figure, error) {
			_, n, err := viewsCreateSteps(d.of("informer-basics"))
			return exactCount(n), err
		},
		"views.ib-create-from": func(d *docRuns) (figure, error) {
			first, _, err := viewsCreateSteps(d.of("informer-basics"))
			return countOf(first, 0.1), err
		},

		// architecture.md: one pod through a controller-manager and a kubelet.
		"views.cb-deploy-at": func(d *docRuns) (figure, error) {
			r := d.of("cluster-basics")
			for _, s := range r.spansNamed("scenario", "action/create") {
				if s.Attributes.String("k8s.object.key") == "default/web" {
					return durationOf(r.at(s.Start), 100*time.Millisecond, 200*time.Millisecond), nil
				}
			}
			return figure{}, fmt.Errorf("cluster-basics creates no default/web")
		},
		"views.cb-pods": func(d *docRuns) (figure, error) {
			// The first syncReplicaSet that creates pods: its pods.Create children.
			r := d.of("cluster-basics")
			creates := map[trace.SpanID]int{}
			for _, s := range r.spansNamed("cm-0", "pods.Create") {
				creates[s.ParentSpanID]++
			}
			syncs := r.spansNamed("cm-0", "syncReplicaSet")
			slices.SortStableFunc(syncs, func(a, b traces.Span) int { return a.Start.Compare(b.Start) })
			for _, s := range syncs {
				if n := creates[s.SpanID]; n > 0 {
					return exactCount(n), nil
				}
			}
			return figure{}, fmt.Errorf("cluster-basics: no syncReplicaSet creates pods")
		},
		"views.cb-pod-listeners": func(d *docRuns) (figure, error) {
			n := 0
			for _, l := range d.of("cluster-basics").lanes("cm-0", "informer/listener-pop") {
				if l.Attributes.String("informer.name") == "pods" {
					n++
				}
			}
			return exactCount(n), nil
		},
	})
}

// viewsIBExample is replay.md's example: informer-basics at 80 columns
// without its listener-pop lanes, whose first mark depends on which
// goroutine the scheduler ran first.
const viewsIBExample = "bin/kubeloom replay recordings/informer-basics.jsonl --width 80 --goroutine 'main,informer/run,listener-run*,reflector/*,watch/*'"

var viewsScale = regexp.MustCompile(`1 column ≈ (\S+)`)

// viewsColumn is the scale a replay command's legend gives.
func viewsColumn(d *docRuns, scenario, command string) (string, error) {
	out, err := d.output(scenario, command)
	if err != nil {
		return "", err
	}
	m := viewsScale.FindStringSubmatch(out)
	if m == nil {
		return "", fmt.Errorf("%s: no scale in the legend", command)
	}
	return m[1], nil
}

// viewsAbout is a count rounded to two significant digits (1,800 for
// 1,781), that may differ by rel.
func viewsAbout(n int, rel float64) figure {
	p := 1
	for n/p >= 100 {
		p *= 10
	}
	r := int(math.Round(float64(n)/float64(p))) * p
	return figure{text: thousands(r), tol: rel * float64(r), kind: count}
}

type viewsAction struct {
	name, key string
	start     time.Time
}

// viewsActions are a run's scenario actions, in time order.
func viewsActions(r *docRun) []viewsAction {
	var out []viewsAction
	for _, s := range r.spans {
		if strings.HasPrefix(s.Name, "action/") {
			out = append(out, viewsAction{name: s.Name, key: s.Attributes.String("k8s.object.key"), start: s.Start})
		}
	}
	slices.SortStableFunc(out, func(a, b viewsAction) int { return a.start.Compare(b.start) })
	return out
}

// viewsCreate is the first create action of a run.
func viewsCreate(r *docRun) (viewsAction, error) {
	for _, a := range viewsActions(r) {
		if a.name == "action/create" {
			return a, nil
		}
	}
	return viewsAction{}, fmt.Errorf("%s has no create action", r.name)
}

// viewsCreateSteps are the steps of the burst the first create causes
// (within 100ms of it): the number of the first (from 1), and how many.
func viewsCreateSteps(r *docRun) (first, n int, err error) {
	c, err := viewsCreate(r)
	if err != nil {
		return 0, 0, err
	}
	for i, s := range r.steps {
		if d := s.At.Sub(c.start); d >= 0 && d < 100*time.Millisecond {
			if n == 0 {
				first = i + 1
			}
			n++
		}
	}
	return first, n, nil
}

// viewsSpansPerInstance counts a run's spans by instance (a trace each).
func viewsSpansPerInstance(r *docRun) map[string]int {
	n := map[string]int{}
	for _, s := range r.spans {
		n[s.Resource.String("service.instance.id")]++
	}
	return n
}

// TestFiguresStepScreen checks the interactive screen docs/step.md shows:
// the step-through of informer-basics, 100 columns by 27 rows, after the
// keys g 4.9s enter f f f. It follows the marker line
//
//	<!--views:step-screen-->
//
// and, like an output block, matches when the text is the same but for
// spacing and numbers within 10%; -update rewrites it. (-run TestFigures,
// as make docs runs, runs it too.)
func TestFiguresStepScreen(t *testing.T) {
	const doc = "docs/step.md"
	if only := onlyDocuments(); only != nil && !slices.Contains(only, doc) {
		t.Skipf("-only leaves out %s", doc)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, doc)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	at := slices.Index(lines, "<!--views:step-screen-->")
	if at < 0 || at+1 >= len(lines) || !strings.HasPrefix(lines[at+1], "```") {
		t.Fatalf("%s: no <!--views:step-screen--> line followed by a ``` block", doc)
	}
	end := at + 2
	for end < len(lines) && !strings.HasPrefix(lines[end], "```") {
		end++
	}
	if end == len(lines) {
		t.Fatalf("%s:%d: the block after the marker does not end", doc, at+1)
	}
	got, err := viewsStepScreen(newDocRuns(t, root).of("informer-basics"))
	if err != nil {
		t.Fatal(err)
	}
	stated := strings.Join(lines[at+2:end], "\n")
	if sameOutput(stated, got) {
		return
	}
	if !*updateFigures {
		t.Fatalf("%s:%d: the interactive screen is not what a run of informer-basics gives now: run `make docs`\n%s", doc, at+1, firstDifference(stated, got))
	}
	lines = slices.Concat(lines[:at+2], strings.Split(got, "\n"), lines[end:])
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("rewrote the interactive screen of %s", doc)
}

// viewsStepScreen draws the step-through as a terminal of 100×27 shows it
// after g 4.9s enter f f f, without colours.
func viewsStepScreen(r *docRun) (string, error) {
	m, err := stepview.New(r.tl, stepview.Options{Lang: stepview.English, Spans: r.spans})
	if err != nil {
		return "", err
	}
	var tm tea.Model = m
	for _, msg := range []tea.Msg{
		tea.WindowSizeMsg{Width: 100, Height: 27},
		tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("g")},
		tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("4.9s")},
		tea.KeyMsg{Type: tea.KeyEnter},
		tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("f")},
		tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("f")},
		tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("f")},
	} {
		tm, _ = tm.Update(msg)
	}
	var lines []string
	for _, l := range strings.Split(tm.View(), "\n") {
		lines = append(lines, strings.TrimRight(l, " "))
	}
	return strings.Join(lines, "\n"), nil
}
