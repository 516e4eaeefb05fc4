package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestChineseVersionsExist: every page of docs/ has its Chinese version in
// docs/zh/ (whole, or for design.md a summary: summarisedInChinese), and
// README.md has README.zh.md; TestChinesePagesKeepStep keeps each pair
// alike.
func TestChineseVersionsExist(t *testing.T) {
	pages, err := filepath.Glob("*.md")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no pages in docs/: %v", err)
	}
	for _, name := range pages {
		if _, err := os.Stat(filepath.Join("zh", name)); err != nil {
			t.Errorf("docs/%s has no Chinese version: %v", name, err)
		}
	}
	if _, err := os.Stat("../README.zh.md"); err != nil {
		t.Errorf("README.md has no Chinese version: %v", err)
	}
}

// TestLinksResolve checks every relative link of the README and the docs:
// the file exists, and a #fragment names a heading of it.
func TestLinksResolve(t *testing.T) {
	docs := []string{"../README.md", "../README.zh.md"}
	for _, pattern := range []string{"*.md", "zh/*.md"} {
		m, _ := filepath.Glob(pattern)
		docs = append(docs, m...)
	}
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		text := withoutCode(string(data))
		for _, m := range linkTarget.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, fragment, _ := strings.Cut(target, "#")
			file := doc
			if path != "" {
				file = filepath.Join(filepath.Dir(doc), path)
			}
			if _, err := os.Stat(file); err != nil {
				t.Errorf("%s: link %s: no such file", doc, target)
				continue
			}
			if fragment != "" && strings.HasSuffix(file, ".md") {
				if !hasAnchor(t, file, fragment) {
					t.Errorf("%s: link %s: %s has no heading for #%s", doc, target, file, fragment)
				}
			}
		}
	}
}

var (
	// linkTarget is a Markdown link's address: ](path#fragment).
	linkTarget = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	inlineCode = regexp.MustCompile("`[^`]*`")
)

// proseLines are a Markdown text's lines with those of its fenced code
// blocks (fences too) blanked, so that line numbers stay: what is left is
// its prose, headings, markers and links.
func proseLines(s string) []string {
	lines := strings.Split(s, "\n")
	in := false
	for i, line := range lines {
		fence := strings.HasPrefix(strings.TrimSpace(line), "```")
		if fence {
			in = !in
		}
		if fence || in {
			lines[i] = ""
		}
	}
	return lines
}

// withoutCode drops fenced code blocks and inline code, where brackets are
// not links.
func withoutCode(s string) string {
	lines := proseLines(s)
	for i, line := range lines {
		lines[i] = inlineCode.ReplaceAllString(line, "")
	}
	return strings.Join(lines, "\n")
}

// hasAnchor reports whether a heading of file has GitHub's anchor a:
// lower case, spaces to '-', punctuation other than '-' and '_' dropped.
func hasAnchor(t *testing.T, file, a string) bool {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range proseLines(string(data)) {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		heading := strings.TrimSpace(strings.TrimLeft(line, "#"))
		if anchor(heading) == a {
			return true
		}
	}
	return false
}

func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_':
			b.WriteRune(r)
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r > 127 && !isPunct(r):
			// backticks, slashes, dots, parentheses... are dropped
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isPunct is the non-ASCII punctuation GitHub drops from anchors.
func isPunct(r rune) bool {
	return strings.ContainsRune("，。、；：？！（）「」『』《》〈〉“”‘’—…·", r)
}
