package scenarios

import (
	"strings"
	"testing"
)

// Text written with YAML escapes ("\e", "\a") is kept, and Marshal writes it back escaped:
// raw, its output would be a file Parse refuses (found by FuzzParse).
func TestMarshalEscapesControlCharacters(t *testing.T) {
	src := head[:strings.Index(head, "metadata")] + `metadata: {name: t, description: "a\e]0;title\a\u009b\tb", watchFor: ["x\e[2J"]}
spec:
  duration: 1s
  informers: [{resource: configmaps}]
  objects:
    - {apiVersion: v1, kind: ConfigMap, metadata: {name: c, annotations: {note: "\e]52;c;aGk=\a"}}, data: {k: "v\a"}}
`
	s, err := Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if i := strings.IndexFunc(string(out), func(r rune) bool { return !yamlPrintable(r) }); i >= 0 {
		t.Fatalf("Marshal wrote a raw control character at byte %d:\n%s", i, out)
	}
	back, err := Parse("marshal.yaml", out)
	if err != nil {
		t.Fatalf("Marshal's output does not parse: %v\n%s", err, out)
	}
	if back.Metadata.Description != "a\x1b]0;title\a\u009b\tb" || back.Metadata.WatchFor[0] != "x\x1b[2J" {
		t.Errorf("the text came back as %q, %q", back.Metadata.Description, back.Metadata.WatchFor)
	}
	if _, err := Parse("t.yaml", []byte(strings.Replace(src, "data: {k:", `data: {"k\e":`, 1))); err == nil || !strings.Contains(err.Error(), `expected a key of printing characters, got "k\x1b"`) {
		t.Errorf("a key with ESC: got %v", err)
	}
	got, want := string(mustMarshal(t, back)), string(out)
	if got != want {
		t.Errorf("a second Marshal differs:\n%s\nwant\n%s", got, want)
	}
}

func mustMarshal(t *testing.T, s *Scenario) []byte {
	t.Helper()
	out, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
