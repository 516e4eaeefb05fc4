package docs

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/engine"
)

// exampleSpec completes the fragments of scenarios.md (a spec.actions
// list, a spec.objects list) into whole scenarios: one of everything an
// action may need.
var exampleSpec = map[string]string{
	"duration":          "10m",
	"controllerManager": "{replicas: 2, leaderElect: true}",
	"kubelets":          "{count: 2}",
	"informers":         "[{resource: pods, handlers: 2}]",
}

// TestScenarioExamplesLoad loads every example of the scenario format's
// documentation, English and 中文: every ```yaml block (a whole scenario,
// or a part of spec completed by exampleSpec) and every verb's example in
// the table of actions, and checks that every verb has one.
func TestScenarioExamplesLoad(t *testing.T) {
	for _, doc := range []string{"scenarios.md", "zh/scenarios.md"} {
		t.Run(doc, func(t *testing.T) {
			blocks, verbExamples := examplesOf(t, doc)
			if len(blocks) < 5 {
				t.Fatalf("%s has %d yaml examples; expected at least 5", doc, len(blocks))
			}
			for _, b := range blocks {
				load(t, fmt.Sprintf("%s:%d", doc, b.line), b.text)
			}
			for _, verb := range scenarios.Verbs() {
				ex, ok := verbExamples[verb]
				if !ok {
					t.Errorf("%s: the table of actions has no example for %s", doc, verb)
					continue
				}
				load(t, fmt.Sprintf("%s:%d (%s)", doc, ex.line, verb), "actions:\n  - at: 1m\n    "+ex.text+"\n")
			}
		})
	}
}

type example struct {
	line int
	text string
}

// examplesOf returns the yaml blocks of a document, and the Example
// column of its table of actions by verb.
func examplesOf(t *testing.T, doc string) ([]example, map[string]example) {
	f, err := os.Open(filepath.Clean(doc))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	row := regexp.MustCompile("^\\| `(\\w+)` \\| `(\\w+: .*?)` \\|")
	var blocks []example
	verbs := map[string]example{}
	var cur *example
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case cur == nil && trimmed == "```yaml":
			cur = &example{line: n + 1}
		case cur != nil && trimmed == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.text += line + "\n"
		default:
			if m := row.FindStringSubmatch(line); m != nil && strings.HasPrefix(m[2], m[1]+":") {
				verbs[m[1]] = example{n, m[2]}
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return blocks, verbs
}

// load parses an example, completed into a scenario when it is a part of
// spec, and checks it as kubeloom run would.
func load(t *testing.T, where, text string) {
	t.Helper()
	if !strings.HasPrefix(strings.TrimSpace(text), "apiVersion:") {
		var b strings.Builder
		b.WriteString("apiVersion: kubeloom.dev/v1\nkind: Scenario\nmetadata: {name: doc-example}\nspec:\n")
		for _, k := range []string{"duration", "controllerManager", "kubelets", "informers"} {
			if !regexp.MustCompile(`(?m)^` + k + `:`).MatchString(text) {
				fmt.Fprintf(&b, "  %s: %s\n", k, exampleSpec[k])
			}
		}
		for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
			b.WriteString("  " + line + "\n")
		}
		text = b.String()
	}
	sc, err := scenarios.Parse(where, []byte(text))
	if err == nil {
		err = engine.Check(sc)
	}
	if err != nil {
		t.Errorf("%s: the example does not load: %v\n%s", where, err, text)
	}
}
