package catalog

import (
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/kubeloom/kubeloom/sim/catalog/locale"
)

// quoted is what the rendering test needs of an Entry or a Step in one
// language: the article's words, and the language's rendering of them as
// its data file has it (Story.Rendering leaves out the ones not shown).
type quoted struct {
	id, quote, rendering, summary string
}

func everyQuote(lang string) []quoted {
	l := locale.Get(lang)
	raw := func(path ...string) string {
		s, _ := l.Lookup(path...)
		return s
	}
	var out []quoted
	for _, e := range All() {
		st := e.Story(lang)
		out = append(out, quoted{e.Name, st.Quote, raw("goroutines", e.Name, "quote"), st.Summary})
	}
	for _, s := range Steps() {
		st := s.Story(lang)
		out = append(out, quoted{"step " + s.Component + " " + s.Name, st.Quote, raw("steps", s.Component, s.Name, "quote"), st.Summary})
	}
	return out
}

// isCJK says whether r is a Chinese, Japanese or Korean character or
// punctuation mark ("，", "；", "：" and "「」" included), none of which a
// reader without CJK fonts can be sure to see.
func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Bopomofo) ||
		r >= 0x3000 && r <= 0x303f || // CJK Symbols and Punctuation
		r >= 0xff00 && r <= 0xffef // Halfwidth and Fullwidth Forms
}

// codeToken is a run of the characters code is written in; in a quote the
// article's Chinese is between them, so they are its identifiers, numbers
// and paths (pendingNotifications, k.StartGarbageCollection, 1.main).
var codeToken = regexp.MustCompile(`[A-Za-z0-9_.]+`)

// A language other than the articles' renders every quote, for readers who
// cannot read the article's Chinese: every quote has a rendering and
// nothing else does; it is not the summary again; it renders each passage
// of the quote, in order, keeping the passages that have no Chinese (code,
// the article's English comments) exactly and the code of the others as it
// is; and a passage the catalog quotes twice reads the same both times.
// The English one has no CJK character at all.
func TestRenderingsRenderTheQuote(t *testing.T) {
	for _, lang := range locale.Codes() {
		if lang == locale.Articles {
			continue
		}
		t.Run(lang, func(t *testing.T) { checkRenderings(t, lang) })
	}
}

func checkRenderings(t *testing.T, lang string) {
	n := 0
	rendered := map[string]string{} // passage → its rendering, across the catalog
	for _, q := range everyQuote(lang) {
		if q.quote == "" {
			if q.rendering != "" {
				t.Errorf("%s: the quote %q renders no quote of the articles", q.id, q.rendering)
			}
			continue
		}
		n++
		if q.rendering == "" {
			t.Errorf("%s: has a quote in %s, needs its rendering", q.id, locale.Articles)
			continue
		}
		if lang == locale.Reference {
			for _, r := range q.rendering {
				if isCJK(r) {
					t.Errorf("%s: the rendering has the CJK character %q: %q", q.id, r, q.rendering)
					break
				}
			}
		}
		if q.rendering == q.summary {
			t.Errorf("%s: the quote is the summary; it renders the article's words, not the story", q.id)
		}
		// The quote joins the article's passages with "；"; the
		// rendering joins their renderings with " … ".
		passages, renderings := strings.Split(q.quote, "；"), strings.Split(q.rendering, " … ")
		if len(passages) != len(renderings) {
			t.Errorf("%s: the quote has %d passages, its rendering %d (join the renderings with \" … \"):\n%q\n%q",
				q.id, len(passages), len(renderings), q.quote, q.rendering)
			continue
		}
		for i, p := range passages {
			r := renderings[i]
			if !hasHan(p) && r != p {
				t.Errorf("%s: passage %d has no Chinese, so its rendering is the passage itself:\n%q\n%q", q.id, i+1, p, r)
			}
			// The rendering puts spaces where English needs them
			// (configsif → "configs if"), so code is looked for with
			// white space ignored.
			for _, tok := range codeToken.FindAllString(p, -1) {
				if !strings.Contains(noSpace(r), tok) {
					t.Errorf("%s: passage %d: the rendering lost the code %q:\n%q\n%q", q.id, i+1, tok, p, r)
				}
			}
			if prev, ok := rendered[p]; ok && prev != r {
				t.Errorf("%s: passage %q is rendered %q here and %q elsewhere", q.id, p, r, prev)
			}
			rendered[p] = r
		}
	}
	if n == 0 {
		t.Fatal("no quotes in the catalog")
	}
}

// A view shows the rendering of a quote that has Chinese in it, in every
// language but the articles'; a quote that is only code has none to show.
func TestStoryRendering(t *testing.T) {
	var prose, code Entry
	for _, e := range All() {
		q := e.Story(locale.Articles).Quote
		switch {
		case q != "" && hasHan(q) && prose.Name == "":
			prose = e
		case q != "" && !hasHan(q) && code.Name == "":
			code = e
		}
	}
	if prose.Name == "" || code.Name == "" {
		t.Fatalf("the catalog has no quote with Chinese (%q) or none that is only code (%q)", prose.Name, code.Name)
	}
	en, _ := locale.Get(locale.Reference).Lookup("goroutines", prose.Name, "quote")
	if got := prose.Story(locale.Reference).Rendering; got != en || got == "" {
		t.Errorf("%s in English: rendering %q, want %q", prose.Name, got, en)
	}
	if got := prose.Story(locale.Articles).Rendering; got != "" {
		t.Errorf("%s in %s: rendering %q, want none: it is the article's language", prose.Name, locale.Articles, got)
	}
	if got := code.Story(locale.Reference).Rendering; got != "" {
		t.Errorf("%s (quote %q) in English: rendering %q, want none: code reads the same", code.Name, code.Story(locale.Reference).Quote, got)
	}
	for _, lang := range locale.Codes() {
		if got, want := prose.Story(lang).Quote, prose.Story(locale.Articles).Quote; got != want {
			t.Errorf("%s in %s: quote %q, want the article's %q in every language", prose.Name, lang, got, want)
		}
	}
}
