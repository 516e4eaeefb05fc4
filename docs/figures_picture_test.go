package docs

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// The README's picture, docs/images/timeline.png, is a screenshot of the
// HTML timeline of informer-basics that traces/htmlview's browser test
// takes (`make docs-picture`, which needs Chromium and a CJK font such as
// Debian's fonts-noto-cjk); beside it, docs/images/timeline.json says what
// it shows. TestPictureIsCurrent fails when a run of informer-basics no
// longer looks like that, and the figures under the picture come from the
// same run.
func init() {
	register(map[string]func(d *docRuns) (figure, error){
		"picture.spans": func(d *docRuns) (figure, error) { return countOf(d.of("informer-basics").tl.Spans, 0.05), nil },
		"picture.lanes": func(d *docRuns) (figure, error) { return exactCount(d.of("informer-basics").tl.LaneCount()), nil },
		"picture.steps": func(d *docRuns) (figure, error) { return countOf(len(d.of("informer-basics").steps), 0.05), nil },
	})
}

type pictureFacts struct {
	Scenario                       string
	Spans, Lanes, Steps, DurationS int
}

func TestPictureIsCurrent(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "docs", "images", "timeline.json"))
	if err != nil {
		t.Fatalf("what the README's picture shows: %v (make docs-picture writes it)", err)
	}
	var shown pictureFacts
	if err := json.Unmarshal(b, &shown); err != nil {
		t.Fatalf("docs/images/timeline.json: %v", err)
	}
	r := newDocRuns(t, root).of(shown.Scenario)
	close := func(a, b int, rel float64) bool { return math.Abs(float64(a-b)) <= rel*float64(max(a, b)) }
	if !close(shown.Spans, r.tl.Spans, 0.05) || shown.Lanes != r.tl.LaneCount() || !close(shown.Steps, len(r.steps), 0.05) ||
		!close(shown.DurationS, int(r.tl.Duration().Seconds()+0.5), 0.05) {
		t.Errorf("docs/images/timeline.png shows %s with %d spans, %d lanes, %d steps in %ds; a run now has %d, %d, %d in %s: run `make docs-picture`",
			shown.Scenario, shown.Spans, shown.Lanes, shown.Steps, shown.DurationS, r.tl.Spans, r.tl.LaneCount(), len(r.steps), r.tl.Duration())
	}
}
