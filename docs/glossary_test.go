package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"go.yaml.in/yaml/v3"
)

// docs/zh/glossary.md fixes one Chinese word per term kubeloom uses, and
// lists in its 不写作 column the forms it does not use. TestGlossary holds
// the Chinese texts to it: the locale files (what `kubeloom step`, the HTML
// page and the catalog show) and every page of docs/zh/ and README.zh.md.

const glossaryFile = "zh/glossary.md"

// term is a row of the glossary.
type term struct {
	en, zh string
	avoid  []string
	line   int
}

func readGlossary(t *testing.T) []term {
	t.Helper()
	data, err := os.ReadFile(glossaryFile)
	if err != nil {
		t.Fatal(err)
	}
	var terms []term
	for i, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| English ") || !strings.HasSuffix(line, "|") {
			continue
		}
		cells := strings.Split(strings.TrimSpace(line), "|")
		cells = cells[1 : len(cells)-1]
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if len(cells) != 4 {
			t.Fatalf("docs/%s:%d: a row has 4 cells (English | 中文 | 不写作 | 说明), this one %d", glossaryFile, i+1, len(cells))
		}
		tm := term{en: cells[0], zh: cells[1], line: i + 1}
		if tm.en == "" || tm.zh == "" {
			t.Fatalf("docs/%s:%d: a term needs its English and its 中文", glossaryFile, i+1)
		}
		for _, form := range strings.Split(cells[2], "、") {
			if form = strings.TrimSpace(form); form != "" {
				tm.avoid = append(tm.avoid, form)
			}
		}
		terms = append(terms, tm)
	}
	if len(terms) < 20 {
		t.Fatalf("docs/%s: %d terms read; is the table's layout changed?", glossaryFile, len(terms))
	}
	return terms
}

// found is a form of the 不写作 column in a text.
type found struct {
	form string
	term term
}

// avoided returns the forms of the glossary's 不写作 column that text uses.
// A form in Latin letters matches a whole word in any case, its plural too
// (goroutines), but not a part of a name: a letter, digit or one of ._/-
// beside it makes it one (goroutines.md, cm/leader-elector). Other forms
// match wherever they are.
func avoided(terms []term, text string) []found {
	var out []found
	lower := strings.ToLower(text)
	for _, tm := range terms {
		for _, form := range tm.avoid {
			f := strings.ToLower(form)
			if !isLatin(f) {
				if strings.Contains(lower, f) {
					out = append(out, found{form, tm})
				}
				continue
			}
			for i := 0; ; {
				j := strings.Index(lower[i:], f)
				if j < 0 {
					break
				}
				start, end := i+j, i+j+len(f)
				if end < len(lower) && lower[end] == 's' {
					end++
				}
				if !partOfName(lower, start-1) && !partOfName(lower, end) {
					out = append(out, found{form, tm})
					break
				}
				i = start + 1
			}
		}
	}
	return out
}

func isLatin(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return r > unicode.MaxASCII })
}

// partOfName says whether the byte at i of s would make a word beside it
// part of a name.
func partOfName(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	c := s[i]
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("._/-", c) >= 0
}

var (
	htmlComment  = regexp.MustCompile(`<!--.*?-->`)
	placeholder  = regexp.MustCompile(`\{[A-Za-z][A-Za-z0-9_]*(, *(plural|select),)?\}?`)
	chineseProse = regexp.MustCompile(`\p{Han}`)
)

// prose is a line of a page without what is not its words: code, markers,
// link addresses.
func prose(line string) string {
	line = inlineCode.ReplaceAllString(line, " ")
	line = htmlComment.ReplaceAllString(line, " ")
	return linkTarget.ReplaceAllString(line, "] ")
}

func TestGlossary(t *testing.T) {
	terms := readGlossary(t)
	seen := map[string]int{}
	for _, tm := range terms {
		if first, dup := seen[tm.en]; dup {
			t.Errorf("docs/%s:%d: %q is the term of line %d too", glossaryFile, tm.line, tm.en, first)
		}
		seen[tm.en] = tm.line
		for _, form := range tm.avoid {
			if form == tm.zh {
				t.Errorf("docs/%s:%d: %q is both the word and a form not to use", glossaryFile, tm.line, form)
			}
		}
	}
	t.Run("locale", func(t *testing.T) { checkLocale(t, terms) })
	t.Run("scenarios", func(t *testing.T) { checkScenarios(t, terms) })
	t.Run("pages", func(t *testing.T) { checkChinesePages(t, terms) })
}

// checkLocale reads every value of sim/catalog/locale/zh.
func checkLocale(t *testing.T, terms []term) {
	files, err := filepath.Glob("../sim/catalog/locale/zh/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no locale files: %v", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		checkValues(t, terms, strings.TrimPrefix(file, "../"), "", &doc)
	}
}

// checkValues reads every text under n but the articles' own words
// (quote).
func checkValues(t *testing.T, terms []term, file, key string, n *yaml.Node) {
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			checkValues(t, terms, file, key, c)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			checkValues(t, terms, file, n.Content[i].Value, n.Content[i+1])
		}
	case yaml.ScalarNode:
		if key == "quote" {
			return // the article's words, verbatim
		}
		text := placeholder.ReplaceAllString(prose(n.Value), " ")
		for _, f := range avoided(terms, text) {
			t.Errorf("%s:%d: %q: the glossary (docs/%s:%d) writes %s as %s", file, n.Line, f.form, glossaryFile, f.term.line, f.term.en, f.term.zh)
		}
	}
}

// checkScenarios reads the Chinese a built-in scenario says of itself
// (metadata.zh), which `kubeloom scenarios show`, `serve` and the docs show.
func checkScenarios(t *testing.T, terms []term) {
	files, err := filepath.Glob("../scenarios/builtin/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no built-in scenarios: %v", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Metadata struct {
				Zh yaml.Node `yaml:"zh"`
			} `yaml:"metadata"`
		}
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if doc.Metadata.Zh.Kind == 0 {
			t.Errorf("%s has no metadata.zh", file)
			continue
		}
		checkValues(t, terms, strings.TrimPrefix(file, "../"), "zh", &doc.Metadata.Zh)
	}
}

// checkChinesePages reads every Chinese page but its code blocks and block
// quotes (the articles' words), and wants a link to the glossary on each.
func checkChinesePages(t *testing.T, terms []term) {
	pages, err := filepath.Glob("zh/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, "../README.zh.md")
	for _, file := range pages {
		if file == glossaryFile {
			continue
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix("docs/"+file, "docs/../")
		if !strings.Contains(string(data), "glossary.md)") {
			t.Errorf("%s does not link the glossary (%s)", name, glossaryFile)
		}
		for i, line := range proseLines(string(data)) {
			if strings.HasPrefix(strings.TrimSpace(line), ">") || !chineseProse.MatchString(line) && !strings.Contains(line, "|") {
				continue
			}
			for _, f := range avoided(terms, prose(line)) {
				t.Errorf("%s:%d: %q: the glossary (docs/%s:%d) writes %s as %s", name, i+1, f.form, glossaryFile, f.term.line, f.term.en, f.term.zh)
			}
		}
	}
}
