package main

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/catalog/locale"
)

// docsProg is how the docs spell kubeloom: as it runs from the repository's
// root after make build.
const docsProg = "bin/kubeloom"

// docsDeps are the commands' dependencies as the docs show them: only the
// spelling matters.
var docsDeps = deps{streams: streams{prog: docsProg}}

// generatedDoc is a doc written from the code.
type generatedDoc struct {
	path  string
	write func(*bytes.Buffer) error
}

// generatedDocs are the docs written from the code: the CLI reference and
// the catalog, in every language (locale.Codes), English's in docs/ and
// every other one's in docs/<code>/.
func generatedDocs() []generatedDoc {
	var out []generatedDoc
	for _, lang := range locale.Codes() {
		out = append(out,
			generatedDoc{"../../docs/" + docsPage(lang, "cli.md"), func(b *bytes.Buffer) error {
				return writeCLIReference(b, newRootCmd(docsDeps), lang)
			}},
			generatedDoc{"../../docs/" + docsPage(lang, "goroutines.md"), func(b *bytes.Buffer) error { return writeCatalogMarkdown(b, lang) }})
	}
	return out
}

// TestGeneratedDocsAreUpToDate fails when a generated page differs from
// what the code generates now; `make docs` rewrites them.
func TestGeneratedDocsAreUpToDate(t *testing.T) {
	for _, d := range generatedDocs() {
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
	for _, lang := range locale.Codes() {
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
			if !strings.Contains(out, "### "+e.Name+"\n") || !strings.Contains(out, e.Story(lang).Summary) {
				t.Errorf("--lang %s: %s or its story is missing", lang, e.Name)
			}
			// A page renders the article's Chinese in its language;
			// the Chinese page quotes it alone.
			if lang == locale.Articles {
				if en := e.Story(locale.Reference).Rendering; en != "" && strings.Contains(out, oneLine(en)) {
					t.Errorf("--lang %s: %s: the page shows the English rendering of the article's words", lang, e.Name)
				}
			} else if r := e.Story(lang).Rendering; r != "" && !strings.Contains(out, oneLine(r)) {
				t.Errorf("--lang %s: %s: the page lacks the rendering of the article's words", lang, e.Name)
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

// TestCLIPurposes: every command has a purpose in docs.yaml, and English's
// are the commands' own Short help (the table of docs/cli.md says the
// same as the sections under it); a purpose of a command that is not one
// is stale.
func TestCLIPurposes(t *testing.T) {
	root := newRootCmd(deps{})
	en := locale.Get(locale.Reference)
	commands := map[string]bool{}
	for _, c := range visibleCommands(root) {
		commands[c.CommandPath()] = true
		if got := en.Text(purposeKey(c)); got != c.Short {
			t.Errorf("%s: docs.yaml's purpose of %s is %q, its Short %q: make them the same", en.Where("docs", "cli", "purposes"), c.CommandPath(), got, c.Short)
		}
	}
	for _, path := range en.Keys("docs", "cli", "purposes") {
		if !commands[path] {
			t.Errorf("%s: a purpose of %q, which is no command: remove it from every language", en.Where("docs", "cli", "purposes", path), path)
		}
	}
}

// The reference pages of each language link to the others': each link,
// followed from where the page is, lands on another language's page.
func TestGeneratedDocsLinkTheOtherLanguages(t *testing.T) {
	target := regexp.MustCompile(`\]\(([^)]+)\)`)
	for _, lang := range locale.Codes() {
		for _, page := range []string{"cli.md", "goroutines.md"} {
			from := path.Dir(path.Join("docs", docsPage(lang, page)))
			var got, want []string
			for _, m := range target.FindAllStringSubmatch(otherLanguages(lang, page), -1) {
				got = append(got, path.Join(from, m[1]))
			}
			for _, other := range locale.Codes() {
				if other != lang {
					want = append(want, path.Join("docs", docsPage(other, page)))
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s's %s links %v, want %v", lang, page, got, want)
			}
		}
	}
	if got := otherLanguages("zh", "cli.md"); !strings.HasPrefix(got, "English: [../cli.md](../cli.md)") {
		t.Errorf("docs/zh/cli.md links English as %q", got)
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
