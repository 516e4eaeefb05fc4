package docs

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The README's picture is one of the screenshots of the HTML timeline that
// traces/htmlview's browser test takes of the built-ins (`make
// docs-picture`, which needs Chromium and a CJK font such as Debian's
// fonts-noto-cjk): docs/images/timeline-SCENARIO-WxH.png. Beside them,
// docs/images/timeline.json says which one the README shows and what it
// shows. TestPictureIsCurrent fails when a run of that scenario no longer
// looks like it, and the figures under the picture come from the same
// run.
func init() {
	register(map[string]func(d *docRuns) (figure, error){
		"picture.spans": func(d *docRuns) (figure, error) {
			r, err := d.picture()
			if err != nil {
				return figure{}, err
			}
			return countOf(r.tl.Spans, 0.05), nil
		},
		"picture.lanes": func(d *docRuns) (figure, error) {
			r, err := d.picture()
			if err != nil {
				return figure{}, err
			}
			return exactCount(r.tl.LaneCount()), nil
		},
		"picture.components": func(d *docRuns) (figure, error) {
			r, err := d.picture()
			if err != nil {
				return figure{}, err
			}
			return exactCount(components(r)), nil
		},
		"picture.steps": func(d *docRuns) (figure, error) {
			r, err := d.picture()
			if err != nil {
				return figure{}, err
			}
			return countOf(len(r.steps), 0.05), nil
		},
	})
	// export.md: how the big built-ins open in the page, folded.
	for _, name := range []string{"cm-leader-failover", "cluster-basics"} {
		register(map[string]func(d *docRuns) (figure, error){
			"html.lanes." + name: func(d *docRuns) (figure, error) { return exactCount(d.of(name).tl.LaneCount()), nil },
			"html.rows." + name: func(d *docRuns) (figure, error) {
				r := d.of(name)
				return exactCount(len(r.tl.Instances) + components(r)), nil
			},
		})
	}
}

type pictureFacts struct {
	Scenario, Picture                          string
	Spans, Lanes, Components, Steps, DurationS int
}

// pictureShown reads docs/images/timeline.json.
func pictureShown(root string) (pictureFacts, error) {
	var shown pictureFacts
	b, err := os.ReadFile(filepath.Join(root, "docs", "images", "timeline.json"))
	if err != nil {
		return shown, fmt.Errorf("what the README's picture shows: %w (make docs-picture writes it)", err)
	}
	if err := json.Unmarshal(b, &shown); err != nil {
		return shown, fmt.Errorf("docs/images/timeline.json: %w", err)
	}
	return shown, nil
}

// picture is the run of the scenario the README's picture shows.
func (d *docRuns) picture() (*docRun, error) {
	shown, err := pictureShown(d.root)
	if err != nil {
		return nil, err
	}
	return d.of(shown.Scenario), nil
}

// components counts the groups the page opens a recording with: one row
// per component of each instance.
func components(r *docRun) int {
	n := 0
	for _, in := range r.tl.Instances {
		n += len(in.Groups())
	}
	return n
}

func TestPictureIsCurrent(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	shown, err := pictureShown(root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "docs", "images", shown.Picture)); err != nil {
		t.Errorf("docs/images/timeline.json names the picture %q: %v", shown.Picture, err)
	}
	// README.zh.md shows the same moment in Chinese, taken beside it.
	zh := strings.TrimSuffix(shown.Picture, ".png") + ".zh.png"
	for readme, picture := range map[string]string{"README.md": shown.Picture, "README.zh.md": zh} {
		b, err := os.ReadFile(filepath.Join(root, readme))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "](docs/images/"+picture+")") {
			t.Errorf("%s does not show docs/images/%s, the picture timeline.json describes", readme, picture)
		}
	}
	r := newDocRuns(t, root).of(shown.Scenario)
	close := func(a, b int, rel float64) bool { return math.Abs(float64(a-b)) <= rel*float64(max(a, b)) }
	if !close(shown.Spans, r.tl.Spans, 0.05) || shown.Lanes != r.tl.LaneCount() || shown.Components != components(r) ||
		!close(shown.Steps, len(r.steps), 0.05) || !close(shown.DurationS, int(r.tl.Duration().Seconds()+0.5), 0.05) {
		t.Errorf("docs/images/%s shows %s with %d spans, %d lanes in %d components, %d steps in %ds; a run now has %d, %d in %d, %d in %s: run `make docs-picture`",
			shown.Picture, shown.Scenario, shown.Spans, shown.Lanes, shown.Components, shown.Steps, shown.DurationS,
			r.tl.Spans, r.tl.LaneCount(), components(r), len(r.steps), r.tl.Duration())
	}
}
