package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/kubeloom/kubeloom/sim/catalog"
)

// docsProg is how the docs spell kubeloom: as it runs from the repository's
// root after make build.
const docsProg = "bin/kubeloom"

// docsDeps are the commands' dependencies as the docs show them: only the
// spelling matters.
var docsDeps = deps{streams: streams{prog: docsProg}}

// generatedDocs are the docs written from the code, by language.
var generatedDocs = []struct {
	path  string
	write func(*bytes.Buffer) error
}{
	{"../../docs/cli.md", func(b *bytes.Buffer) error { return writeCLIReference(b, newRootCmd(docsDeps), "en") }},
	{"../../docs/zh/cli.md", func(b *bytes.Buffer) error { return writeCLIReference(b, newRootCmd(docsDeps), "zh") }},
	{"../../docs/goroutines.md", func(b *bytes.Buffer) error { return writeCatalogMarkdown(b, "en") }},
	{"../../docs/zh/goroutines.md", func(b *bytes.Buffer) error { return writeCatalogMarkdown(b, "zh") }},
}

// TestGeneratedDocsAreUpToDate fails when a generated page differs from
// what the code generates now; `make docs` rewrites them.
func TestGeneratedDocsAreUpToDate(t *testing.T) {
	for _, d := range generatedDocs {
		var b bytes.Buffer
		if err := d.write(&b); err != nil {
			t.Fatalf("%s: %v", d.path, err)
		}
		if *update {
			if err := os.MkdirAll(filepath.Dir(d.path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(d.path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(d.path)
		if err != nil {
			t.Fatalf("%v; run `make docs`", err)
		}
		if !bytes.Equal(got, b.Bytes()) {
			t.Errorf("%s is out of date: run `make docs` (it differs from line %d)", strings.TrimPrefix(d.path, "../../"), firstDiffLine(got, b.Bytes()))
		}
	}
}

// TestGoroutinesMarkdownIsTheCommand: the catalog pages are what
// `kubeloom goroutines --format markdown` prints, and every catalog entry
// is on them with its story in the page's language.
func TestGoroutinesMarkdownIsTheCommand(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		out, _, err := execute(t, "goroutines", "--format", "markdown", "--lang", lang)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := writeCatalogMarkdown(&b, lang); err != nil {
			t.Fatal(err)
		}
		if out != b.String() {
			t.Errorf("--lang %s: the command's output differs from the generated page", lang)
		}
		for _, e := range catalog.All() {
			story := e.Summary
			if lang == "zh" {
				story = e.SummaryZH
			}
			if !strings.Contains(out, "### "+e.Name+"\n") || !strings.Contains(out, story) {
				t.Errorf("--lang %s: %s or its story is missing", lang, e.Name)
			}
			// The English page renders the article's Chinese; the
			// Chinese page quotes it alone.
			if en := e.QuoteInEnglish(); en != "" && strings.Contains(out, oneLine(en)) != (lang == "en") {
				t.Errorf("--lang %s: %s: the English rendering of its quote shown %v, want %v", lang, e.Name, lang != "en", lang == "en")
			}
		}
	}
	if _, _, err := execute(t, "goroutines", "--format", "html"); err == nil || !strings.Contains(err.Error(), "expected text or markdown") {
		t.Errorf("--format html: %v", err)
	}
}

// TestCLIReferenceCoversEveryFlag: every command and flag of the tree is
// in the reference.
func TestCLIReferenceCoversEveryFlag(t *testing.T) {
	var b bytes.Buffer
	root := newRootCmd(deps{})
	if err := writeCLIReference(&b, root, "en"); err != nil {
		t.Fatal(err)
	}
	ref := b.String()
	for _, c := range visibleCommands(root) {
		if !strings.Contains(ref, "\n## "+c.CommandPath()+"\n") {
			t.Errorf("%s has no section", c.CommandPath())
		}
		c.NonInheritedFlags().VisitAll(func(f *pflag.Flag) {
			if !strings.Contains(ref, "--"+f.Name) {
				t.Errorf("%s --%s is missing", c.CommandPath(), f.Name)
			}
		})
	}
}

func firstDiffLine(a, b []byte) int {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}
