package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// hostileScenario carries escape sequences where a scenario file can: in
// its description and what to watch for (YAML's \e and \a), a comment
// (a raw bidirectional override, which YAML allows), and the names of
// objects, one of which an action fails to delete.
const hostileScenario = `apiVersion: kubeloom.dev/v1
kind: Scenario
# a comment that reorders itself: ` + "\u202e" + `evil
metadata:
  name: hostile
  description: "desc \e]0;pwned\a \e]52;c;ZXZpbA==\a \e[2J \u009b2J \u202eevil"
  watchFor:
    - "watch \e]0;pwned\a"
spec:
  duration: 5s
  informers:
    - {resource: pods, handlers: 1}
  objects:
    - apiVersion: v1
      kind: Pod
      metadata: {name: web, namespace: default, annotations: {note: "web\e[2J"}}
      spec:
        containers: [{name: web, image: "nginx:1.27"}]
  actions:
    - at: 2s
      delete: {kind: Pod, namespace: default, name: gone}
`

// badNames is a scenario whose names carry escape sequences: the loader
// refuses them as the apiserver would, and its errors quote them.
const badNames = `apiVersion: kubeloom.dev/v1
kind: Scenario
metadata: {name: bad}
spec:
  duration: 5s
  objects:
    - apiVersion: v1
      kind: Pod
      metadata: {name: "web\e[2J", namespace: default}
      spec:
        containers: [{name: web, image: "nginx:1.27"}]
  actions:
    - at: 2s
      delete: {kind: Pod, namespace: default, name: "gone\e]0;pwned\a"}
`

// Every command that writes text shows the escape sequences a recording,
// a scenario or a file name carries as visible escapes, and writes none of
// them to the terminal: replay, its summary, step --plain, scenarios
// show, list and validate, goroutines, run, and kubeloom's error line.
func TestControlsInDataShowEscaped(t *testing.T) {
	dir := t.TempDir()
	recording := writeRecording(t, tt.Hostile())
	// A file's name is data too: the scenario's is printed by show and run.
	scenario := filepath.Join(dir, "hostile\x1b]0;pwned\x07.yaml")
	if err := os.WriteFile(scenario, []byte(hostileScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte(badNames), 0o644); err != nil {
		t.Fatal(err)
	}
	// The Recorder writes a byte that is not UTF-8 as U+FFFD, so the raw
	// 0x9b of timelinetest.Controls reaches the views only in their own
	// tests; the others come through the file.
	var fromRecording []string
	for _, e := range tt.Escaped {
		if e != `\x9b2J` {
			fromRecording = append(fromRecording, e)
		}
	}
	fromScenario := []string{`\x1b]0;pwned\x07`, `\x1b]52;c;ZXZpbA==\x07`, `\x1b[2J`, `\u009b2J`, `\u202eevil`}
	check := func(t *testing.T, out string, want []string) {
		t.Helper()
		if bad := tt.Unsafe(out); bad != "" {
			t.Fatalf("a control reaches the terminal: %s\n%s", bad, out)
		}
		for _, e := range want {
			if !strings.Contains(out, e) {
				t.Errorf("the output does not show %s:\n%s", e, out)
			}
		}
	}
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"replay", []string{"replay", recording, "--color", "never", "--width", "1000"}, fromRecording},
		{"replay --summary", []string{"replay", recording, "--summary", "--color", "never"}, fromRecording},
		{"step --plain", []string{"step", recording, "--plain"}, fromRecording},
		{"step --plain --lang zh", []string{"step", recording, "--plain", "--lang", "zh"}, fromRecording},
		{"scenarios show", []string{"scenarios", "show", scenario}, fromScenario},
		{"scenarios show --lang zh", []string{"scenarios", "show", scenario, "--lang", "zh"}, fromScenario},
		{"scenarios list", []string{"scenarios", "list"}, nil},
		{"scenarios validate", []string{"scenarios", "validate", scenario}, []string{`hostile\x1b]0;pwned\x07.yaml: ok`}},
		{"goroutines", []string{"goroutines"}, nil},
		{"goroutines --long", []string{"goroutines", "--long"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, err := execute(t, c.args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			check(t, stdout+stderr, c.want)
		})
	}
	t.Run("run", func(t *testing.T) {
		var stderr string
		var err error
		synctest.Test(t, func(t *testing.T) {
			_, stderr, err = executeInBubble(t, "run", scenario, "--out", filepath.Join(dir, "run.jsonl"))
		})
		if err != nil {
			t.Fatal(err)
		}
		check(t, stderr, []string{`hostile\x1b]0;pwned\x07.yaml`})
	})
	t.Run("export", func(t *testing.T) {
		// The page is named after the recording, whose name is data.
		named := filepath.Join(dir, "rec\x1b[2J.jsonl")
		data, err := os.ReadFile(recording)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(named, data, 0o644); err != nil {
			t.Fatal(err)
		}
		stdout, stderr, err := execute(t, "export", named, "--format", "html")
		if err != nil {
			t.Fatal(err)
		}
		check(t, stdout+stderr, []string{`rec\x1b[2J.html`})
	})
	t.Run("scenario errors", func(t *testing.T) {
		stdout, stderr, err := execute(t, "scenarios", "validate", bad)
		if err == nil {
			t.Fatal("names with escape sequences validate")
		}
		// The loader's messages quote a value as Go does (%q: \a for BEL).
		check(t, stdout+stderr, []string{`"web\x1b[2J"`, `"gone\x1b]0;pwned\a"`})
	})
	t.Run("error line", func(t *testing.T) {
		// A file's name is data too: os.Open's error quotes it as it is.
		cmd := exec.Command(builtBinary(t), "replay", filepath.Join(dir, "\x1b]0;pwned\x07\x1b[2J.jsonl"))
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Fatalf("replay of a missing file succeeded:\n%s", out)
		}
		check(t, string(out), []string{`kubeloom: `, `\x1b]0;pwned\x07\x1b[2J.jsonl`})
	})
}

// printf escapes what it quotes, not what kubeloom writes: a name is one
// field (its newline shows as \n), an error keeps its lines.
func TestPrintfEscapesEachArgument(t *testing.T) {
	var b strings.Builder
	printf(&b, "  %s %s\n%v\n", "node\n1", stringer("\x1b[2J"), errors.New("line 1: \x1b]0;x\x07\nline 2"))
	want := "  node\\n1 \\x1b[2J\nline 1: \\x1b]0;x\\x07\nline 2\n"
	if b.String() != want {
		t.Errorf("printf wrote %q, want %q", b.String(), want)
	}
}

type stringer string

func (s stringer) String() string { return string(s) }
