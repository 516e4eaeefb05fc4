package docs

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
)

// The figures the docs state about a run (a time, a count, a name, a
// sample of a command's output) are marked in the Markdown, invisible once
// rendered:
//
//	the first configCh arm at <!--fig:kubelet.configch-->5.0s<!--/fig-->
//
//	<!--output kubelet-startup: bin/kubeloom replay recordings/kubelet-startup.jsonl --summary-->
//	```text
//	…
//	```
//
// TestFigures makes each figure again from a run of the built-in scenario
// (docRuns: `bin/kubeloom run`, in virtual time, so it does not depend on
// the machine) and fails when the text no longer matches; `make docs`
// (-update) rewrites every figure to what the run gives. A run on one core
// repeats span for span, but a figure still matches within its tolerance:
// a change that moves a number a little (a span more in a sync) need not
// stop the tests, only `make docs` to state the new run exactly.
var (
	updateFigures = flag.Bool("update", false, "rewrite the figures of the docs that a run no longer gives (make docs)")
	onlyDocs      = flag.String("only", "", "test only these documents (comma-separated paths from the repository's root, e.g. docs/kubelet.md,docs/zh/kubelet.md)")
)

// figure is a fact of a run as the docs write it.
type figure struct {
	text string
	// tol is how far a number the docs state may be from the run's: for
	// durations in seconds, else in the figure's own unit. A figure with
	// kind plain must match exactly.
	tol  float64
	kind figureKind
	// verbatim is a text the program prints (a log message), which a
	// Chinese page quotes as it is.
	verbatim bool
}

type figureKind int

const (
	plain    figureKind = iota // exact text
	count                      // an integer, written with thousands separators: 1,786
	duration                   // a Go duration: 5.1s, 2m31s
	number                     // a decimal: 0.99
)

// figures are the named figures, registered by the figures_*_test.go file
// of each document; a figure reads the runs it needs from d.
var figures = map[string]func(d *docRuns) (figure, error){}

func register(fs map[string]func(d *docRuns) (figure, error)) {
	for name, f := range fs {
		if _, dup := figures[name]; dup {
			panic("figure " + name + " registered twice")
		}
		figures[name] = f
	}
}

// Constructors of figures.

// exact is a text that must match as it is: a name, a list.
func exact(s string) figure { return figure{text: s, kind: plain} }

// quoted is a text the program prints, that every language quotes as it is.
func quoted(s string) figure { return figure{text: s, kind: plain, verbatim: true} }

// countOf is an integer that may differ by rel (a fraction) between runs.
func countOf(n int, rel float64) figure {
	return figure{text: thousands(n), tol: math.Max(rel*float64(n), 0), kind: count}
}

// about is countOf written with two significant digits (4,088 → 4,100),
// for a figure the docs give as "about N".
func about(n int, rel float64) figure {
	f := countOf(roundTo2(n), rel)
	f.tol = math.Max(f.tol, math.Abs(float64(n-roundTo2(n))))
	return f
}

func roundTo2(n int) int {
	step := 1
	for m := n; m >= 100; m /= 10 {
		step *= 10
	}
	return (n + step/2) / step * step
}

// exactCount is an integer that must match.
func exactCount(n int) figure { return countOf(n, 0) }

// durationOf is a duration rounded to prec, that may differ by tol.
func durationOf(d, prec, tol time.Duration) figure {
	return figure{text: d.Round(prec).String(), tol: tol.Seconds(), kind: duration}
}

// decimal is a number with digits decimals, that may differ by tol.
func decimal(x float64, digits int, tol float64) figure {
	return figure{text: strconv.FormatFloat(x, 'f', digits, 64), tol: tol, kind: number}
}

func thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// value reads a stated figure of kind k as a number.
func value(k figureKind, s string) (float64, bool) {
	switch k {
	case count:
		n, err := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
		return float64(n), err == nil
	case duration:
		d, err := time.ParseDuration(s)
		return d.Seconds(), err == nil
	case number:
		x, err := strconv.ParseFloat(s, 64)
		return x, err == nil
	}
	return 0, false
}

// chineseList writes a plain figure's list ("a, b and c") as Chinese
// does ("a、b 和 c", with a space between 和 and a Latin name, as the
// docs/zh/ pages write them).
var chineseList = strings.NewReplacer(", ", "、", " and ", " 和 ")

// chineseWords are the words a plain figure may be, in Chinese.
var chineseWords = map[string]string{"none": "无", "yes": "是", "no": "否", "its own": "它自己的"}

// in is the figure as a document in lang ("en" or "zh") writes it.
func (fig figure) in(lang string) figure {
	if lang != "zh" || fig.kind != plain || fig.verbatim {
		return fig
	}
	if w, ok := chineseWords[fig.text]; ok {
		fig.text = w
	}
	fig.text = chineseList.Replace(fig.text)
	return fig
}

// langOf is the language of a line of a document: docs/zh/ and
// README.zh.md are Chinese; in a scenario file, a line with Chinese in it.
func langOf(doc, line string) string {
	switch {
	case strings.HasPrefix(doc, "docs/zh/") || strings.HasSuffix(doc, ".zh.md"):
		return "zh"
	case strings.HasSuffix(doc, ".yaml") && strings.ContainsFunc(line, func(r rune) bool { return unicode.Is(unicode.Han, r) }):
		return "zh"
	}
	return "en"
}

// matches says whether the docs' text still states fig.
func (fig figure) matches(stated string) bool {
	if stated == fig.text {
		return true
	}
	if fig.kind == plain {
		return false
	}
	want, ok1 := value(fig.kind, fig.text)
	got, ok2 := value(fig.kind, stated)
	return ok1 && ok2 && math.Abs(want-got) <= fig.tol+1e-9
}

var (
	figMarker    = regexp.MustCompile(`<!--fig:([a-z0-9.\-/]+)-->(.*?)<!--/fig-->`)
	outputMarker = regexp.MustCompile(`^<!--output ([a-z0-9\-]+): (.+)-->$`)
)

// TestFigures checks every marked figure and output of the docs against
// runs of the built-ins (and with -update rewrites those that are stale).
func TestFigures(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	d := newDocRuns(t, root)
	used := map[string]bool{}
	skippedLarge := 0
	only := onlyDocuments()
	for _, doc := range documents(t, root) {
		if only != nil && !slices.Contains(only, doc) {
			continue
		}
		path := filepath.Join(root, doc)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(src), "\n")
		changed := false
		for i := 0; i < len(lines); i++ {
			where := fmt.Sprintf("%s:%d", doc, i+1)
			// Inline figures.
			var lineErr error
			lines[i] = figMarker.ReplaceAllStringFunc(lines[i], func(m string) string {
				sub := figMarker.FindStringSubmatch(m)
				name, stated := sub[1], sub[2]
				used[name] = true
				if raceDetector && largeFigure(name) {
					skippedLarge++
					return m // checked without -race: see largeBuiltins
				}
				make, ok := figures[name]
				if !ok {
					lineErr = fmt.Errorf("%s: no figure %q: register it in a figures_*_test.go file", where, name)
					return m
				}
				fig, err := make(d)
				if err != nil {
					lineErr = fmt.Errorf("%s: figure %s: %v", where, name, err)
					return m
				}
				fig = fig.in(langOf(doc, lines[i]))
				if *updateFigures && fig.text != stated {
					// The docs state what the reader's run gives, exactly.
					changed = true
					return "<!--fig:" + name + "-->" + fig.text + "<!--/fig-->"
				}
				if fig.matches(stated) {
					return m
				}
				if *updateFigures {
					changed = true
					return "<!--fig:" + name + "-->" + fig.text + "<!--/fig-->"
				}
				lineErr = fmt.Errorf("%s: the docs say %q for %s, a run of the built-in gives %q: run `make docs` (and read the sentence around it)", where, stated, name, fig.text)
				return m
			})
			if lineErr != nil {
				t.Error(lineErr)
			}
			// Output blocks: the marker, then a fenced block.
			sub := outputMarker.FindStringSubmatch(strings.TrimSpace(lines[i]))
			if sub == nil {
				continue
			}
			scenario, command := sub[1], sub[2]
			if i+1 >= len(lines) || !strings.HasPrefix(strings.TrimSpace(lines[i+1]), "```") {
				t.Errorf("%s: an output marker must be followed by a ``` block", where)
				continue
			}
			end := i + 2
			for end < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[end]), "```") {
				end++
			}
			if end == len(lines) {
				t.Errorf("%s: the block after the output marker does not end", where)
				continue
			}
			stated := strings.Join(lines[i+2:end], "\n")
			got, err := d.output(scenario, command)
			if err != nil {
				t.Errorf("%s: %s: %v", where, command, err)
				continue
			}
			if sameOutput(stated, got) {
				continue
			}
			if *updateFigures {
				lines = slices.Concat(lines[:i+2], strings.Split(got, "\n"), lines[end:])
				changed = true
				continue
			}
			t.Errorf("%s: the output of %q in the docs is not what a run of %s gives now: run `make docs`\n%s", where, command, scenario, firstDifference(stated, got))
		}
		if changed {
			if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("rewrote the stale figures of %s", doc)
		}
	}
	if skippedLarge > 0 {
		t.Logf("%d figures of %v not checked under -race; `make docs-check-large` (in .ci/run) checks them", skippedLarge, largeBuiltins)
	}
	for name := range figures {
		if !used[name] && only == nil {
			t.Errorf("figure %s is registered but no document states it", name)
		}
	}
	if only == nil {
		// The runs are here already: check the views' labels on them too.
		t.Run("group labels are distinct at 80 columns", func(t *testing.T) { checkGroupLabels(t, d) })
	}
}

// onlyDocuments are the documents -only names, or nil for all.
func onlyDocuments() []string {
	if *onlyDocs == "" {
		return nil
	}
	return strings.Split(*onlyDocs, ",")
}

// documents are the files the figures may be in: the Markdown docs, and
// the built-in scenarios, whose descriptions (metadata.watchFor) state
// figures too (scenarios.BuiltinSource drops the markers).
func documents(t *testing.T, root string) []string {
	docs := []string{"README.md", "README.zh.md"}
	for _, pattern := range []string{"docs/*.md", "docs/zh/*.md", "scenarios/builtin/*.yaml"} {
		m, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m {
			rel, _ := filepath.Rel(root, p)
			docs = append(docs, rel)
		}
	}
	return docs
}

// numbers splits text into numbers (1,786 or 5.014) and the rest.
var numbers = regexp.MustCompile(`[0-9][0-9,]*(\.[0-9]+)?|[^0-9]+`)

// sameOutput compares a command's output in the docs with a fresh one: the
// same text but for spacing, and the same numbers within 10% (or one unit
// of their last place), as counts and times differ between runs.
func sameOutput(stated, got string) bool {
	if stated == got {
		return true
	}
	a, b := numbers.FindAllString(stated, -1), numbers.FindAllString(got, -1)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, okA := parseNumber(a[i])
		y, okB := parseNumber(b[i])
		switch {
		case okA != okB:
			return false
		case !okA:
			if strings.Join(strings.Fields(a[i]), " ") != strings.Join(strings.Fields(b[i]), " ") {
				return false
			}
		case math.Abs(x-y) > math.Max(0.1*math.Max(math.Abs(x), math.Abs(y)), lastPlace(a[i])):
			return false
		}
	}
	return true
}

func parseNumber(s string) (float64, bool) {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return 0, false
	}
	x, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
	return x, err == nil
}

// lastPlace is one unit of a number's last digit: 1 for 45, 0.001 for 5.014.
func lastPlace(s string) float64 {
	if _, frac, ok := strings.Cut(s, "."); ok {
		return math.Pow(10, -float64(len(frac)))
	}
	return 1
}

// firstDifference shows the first line where two outputs differ.
func firstDifference(stated, got string) string {
	a, b := strings.Split(stated, "\n"), strings.Split(got, "\n")
	for i := range max(len(a), len(b)) {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if !sameOutput(x, y) {
			var buf bytes.Buffer
			fmt.Fprintf(&buf, "line %d of the block:\n  docs: %s\n  run:  %s", i+1, x, y)
			return buf.String()
		}
	}
	return "(the lines differ in number)"
}
