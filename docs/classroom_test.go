package docs

import (
	"fmt"
	"strings"
	"testing"
)

// TestClassroomActionsLoad loads every ```yaml block of the live lesson
// plan, English and 中文: each is what the teacher pastes into the page's
// YAML box, one action without `at`, which the session reads as a
// scenario's action. A block that no longer loads would fail in front of a
// class, with its line and column on the projector.
func TestClassroomActionsLoad(t *testing.T) {
	for _, doc := range []string{"classroom.md", "zh/classroom.md"} {
		t.Run(doc, func(t *testing.T) {
			blocks, _ := examplesOf(t, doc)
			if len(blocks) < 5 {
				t.Fatalf("%s has %d yaml blocks; the lesson pastes at least 5 actions", doc, len(blocks))
			}
			for _, b := range blocks {
				var action strings.Builder
				action.WriteString("actions:\n  - at: 1m\n")
				for _, line := range strings.Split(strings.TrimRight(b.text, "\n"), "\n") {
					action.WriteString("    " + line + "\n")
				}
				load(t, fmt.Sprintf("%s:%d", doc, b.line), action.String())
			}
		})
	}
}
