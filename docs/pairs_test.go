package docs

import (
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// A page of docs/ and its Chinese version in docs/zh/ are one page in two
// languages: the same sections, the same figures from the same runs, the
// same commands. TestChinesePagesKeepStep holds every pair to that, so
// that a change to an English page's structure fails until its Chinese page
// has followed (docs/translating.md, "Keeping a page and its translation in
// step").

// summarisedInChinese are the pages whose Chinese version is a summary by
// decision (issue 34: docs/zh/design.md gives the decisions a learner meets
// and links to the English page for the rest): their sections differ, but
// every figure they state is one of the English page's.
var summarisedInChinese = []string{"design.md"}

// page is what the pair test compares of a Markdown page.
type page struct {
	file     string
	headings []heading
	figures  map[string]int // figure name → first line
	markers  []marked       // output and view markers, in order
	commands []marked       // the commands of its ```sh blocks, as the docs test runs them
	links    []marked       // relative link targets outside code
}

type heading struct {
	level int
	text  string
	line  int
}

// marked is a text of a page and the line it starts on.
type marked struct {
	text string
	line int
}

var viewsMarker = regexp.MustCompile(`^<!--(views:[a-z0-9.\-]+)-->$`)

func readPage(t *testing.T, file string) page {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p := page{file: file, figures: map[string]int{}}
	for i, line := range proseLines(string(data)) {
		n := i + 1
		trimmed := strings.TrimSpace(line)
		if outputMarker.MatchString(trimmed) || viewsMarker.MatchString(trimmed) {
			p.markers = append(p.markers, marked{trimmed, n})
		}
		for _, m := range figMarker.FindAllStringSubmatch(line, -1) {
			if _, seen := p.figures[m[1]]; !seen {
				p.figures[m[1]] = n
			}
		}
		if level := len(line) - len(strings.TrimLeft(line, "#")); level > 0 && level <= 6 && strings.HasPrefix(line[level:], " ") {
			p.headings = append(p.headings, heading{level, strings.TrimSpace(line[level:]), n})
		}
		for _, m := range linkTarget.FindAllStringSubmatch(inlineCode.ReplaceAllString(line, ""), -1) {
			if !strings.Contains(m[1], "://") {
				p.links = append(p.links, marked{m[1], n})
			}
		}
	}
	// The commands as the docs test reads them: comments dropped (a
	// translation puts them in its language), continuation lines joined.
	cmds, err := commandsOf(".", file)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmds {
		p.commands = append(p.commands, marked{c.text, c.line})
	}
	return p
}

// pairs are the English pages of docs/ that have a Chinese version.
func pairs(t *testing.T) []string {
	t.Helper()
	zh, err := filepath.Glob("zh/*.md")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range zh {
		name := filepath.Base(p)
		if _, err := os.Stat(name); err == nil {
			names = append(names, name)
		}
	}
	return names
}

func TestChinesePagesKeepStep(t *testing.T) {
	for _, name := range pairs(t) {
		en, zh := readPage(t, name), readPage(t, filepath.Join("zh", name))
		t.Run(name, func(t *testing.T) {
			checkCrossLinks(t, en, zh, name)
			if slices.Contains(summarisedInChinese, name) {
				for fig, line := range zh.figures {
					if _, ok := en.figures[fig]; !ok {
						t.Errorf("docs/zh/%s:%d: figure %s is not one of docs/%s's (a summary states only the English page's figures)", name, line, fig, name)
					}
				}
				return
			}
			checkHeadings(t, en, zh)
			checkFigures(t, en, zh)
			checkSame(t, "output or view marker", en.markers, zh.markers, en.file, zh.file)
			checkSame(t, "```sh command", en.commands, zh.commands, en.file, zh.file)
		})
	}
}

// firstSection is the line of the first heading after the title.
func (p page) firstSection() int {
	if len(p.headings) < 2 {
		return math.MaxInt
	}
	return p.headings[1].line
}

// checkCrossLinks: each page of a pair links the other at its top, and the
// Chinese page sends its reader to Chinese pages where there are some.
func checkCrossLinks(t *testing.T, en, zh page, name string) {
	t.Helper()
	if !slices.ContainsFunc(en.links, func(l marked) bool { return l.text == "zh/"+name && l.line < en.firstSection() }) {
		t.Errorf("docs/%s does not link its Chinese version zh/%s before its first section", name, name)
	}
	if !slices.ContainsFunc(zh.links, func(l marked) bool { return l.text == "../"+name && l.line < zh.firstSection() }) {
		t.Errorf("docs/zh/%s does not link its English version ../%s before its first section", name, name)
	}
	for _, l := range zh.links {
		path, _, _ := strings.Cut(l.text, "#")
		other, isEnglishPage := strings.CutPrefix(path, "../")
		if !isEnglishPage || strings.Contains(other, "/") || other == name {
			continue
		}
		if slices.Contains(summarisedInChinese, other) && strings.Contains(l.text, "#") {
			continue // a section the summary leaves to the English page
		}
		if _, err := os.Stat(filepath.Join("zh", other)); err == nil {
			t.Errorf("docs/zh/%s:%d: links ../%s, which has a Chinese version: link %s", name, l.line, other, strings.TrimPrefix(l.text, "../"))
		}
	}
}

func checkHeadings(t *testing.T, en, zh page) {
	t.Helper()
	levels := func(hs []heading) []int {
		var ls []int
		for _, h := range hs {
			ls = append(ls, h.level)
		}
		return ls
	}
	if slices.Equal(levels(en.headings), levels(zh.headings)) {
		return
	}
	for i := range max(len(en.headings), len(zh.headings)) {
		switch {
		case i >= len(zh.headings):
			t.Errorf("%s has %d headings, %s %d: the first missing is %s:%d %q", zh.file, len(zh.headings), en.file, len(en.headings), en.file, en.headings[i].line, en.headings[i].text)
		case i >= len(en.headings):
			t.Errorf("%s has %d headings, %s %d: the first extra is %s:%d %q", zh.file, len(zh.headings), en.file, len(en.headings), zh.file, zh.headings[i].line, zh.headings[i].text)
		case en.headings[i].level != zh.headings[i].level:
			t.Errorf("heading %d: %s:%d %q is level %d, %s:%d %q level %d", i+1, en.file, en.headings[i].line, en.headings[i].text, en.headings[i].level, zh.file, zh.headings[i].line, zh.headings[i].text, zh.headings[i].level)
		default:
			continue
		}
		return // one difference is enough to find the place
	}
}

func checkFigures(t *testing.T, en, zh page) {
	t.Helper()
	for _, fig := range slices.Sorted(maps.Keys(en.figures)) {
		if _, ok := zh.figures[fig]; !ok {
			t.Errorf("%s:%d states figure %s, %s does not", en.file, en.figures[fig], fig, zh.file)
		}
	}
	for _, fig := range slices.Sorted(maps.Keys(zh.figures)) {
		if _, ok := en.figures[fig]; !ok {
			t.Errorf("%s:%d states figure %s, %s does not", zh.file, zh.figures[fig], fig, en.file)
		}
	}
}

// sameCommands says whether a Chinese page's command (or marker) is the
// English page's: the same, or asking for Chinese output (one --lang zh
// more), and nothing else.
func sameCommands(en, zh string) bool {
	return en == zh || en == strings.Replace(zh, " --lang zh", "", 1)
}

// checkSame holds two pages to the same texts in the same order.
func checkSame(t *testing.T, what string, en, zh []marked, enFile, zhFile string) {
	t.Helper()
	for i := range max(len(en), len(zh)) {
		switch {
		case i >= len(zh):
			t.Errorf("%s has %d of %s's %d %ss: %s:%d has no counterpart:\n%s", zhFile, len(zh), enFile, len(en), what, enFile, en[i].line, en[i].text)
		case i >= len(en):
			t.Errorf("%s has %d %ss, %s %d: %s:%d has no counterpart:\n%s", zhFile, len(zh), what, enFile, len(en), zhFile, zh[i].line, zh[i].text)
		case !sameCommands(en[i].text, zh[i].text):
			t.Errorf("%s %d differs: %s:%d\n%s\n%s:%d\n%s", what, i+1, enFile, en[i].line, en[i].text, zhFile, zh[i].line, zh[i].text)
		default:
			continue
		}
		return
	}
}

// TestReadmesLinkEveryPage: the documentation table of README.md and of
// README.zh.md reaches every page in both languages, so a reader who
// starts from either README finds the page in theirs.
func TestReadmesLinkEveryPage(t *testing.T) {
	pages, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	zh, err := filepath.Glob("zh/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, readme := range []string{"../README.md", "../README.zh.md"} {
		data, err := os.ReadFile(readme)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range append(pages, zh...) {
			if !strings.Contains(string(data), "](docs/"+p+")") {
				t.Errorf("%s does not link docs/%s", strings.TrimPrefix(readme, "../"), p)
			}
		}
	}
}
