package catalog

import (
	"strings"
	"unicode"

	"github.com/kubeloom/kubeloom/sim/catalog/locale"
)

// Story is what the catalog tells of a goroutine or a startup step in one
// language: the texts of its language folder (sim/catalog/locale/<lang>/
// goroutines.yaml and steps.yaml), by catalog name.
type Story struct {
	Summary string // what it does; for a loop, what one iteration does
	// Quote is the article's words, verbatim: the articles are Chinese,
	// so a view shows them as they are in every language. "" if the
	// articles do not quote it.
	Quote string
	// Rendering is kubeloom's rendering of Quote in the story's language,
	// for a reader who cannot read the article's: a view shows it beside
	// Quote, never instead of it, and labels it as kubeloom's. "" in the
	// articles' own language, and for a quote with no Chinese in it (its
	// code reads the same in every language, so showing it twice would
	// only say it again).
	Rendering string
	Now       string // how today's Kubernetes differs; "" for a step
}

// Story returns what the catalog tells of the goroutine in lang (a
// language code of locale.Codes; another one reads as English).
func (e Entry) Story(lang string) Story { return story(lang, "goroutines", e.Name) }

// Story returns what the catalog tells of the step in lang, as
// Entry.Story.
func (s Step) Story(lang string) Story { return story(lang, "steps", s.Component, s.Name) }

func story(lang, file string, key ...string) Story {
	l := locale.Get(lang)
	at := func(l *locale.Language, field string) string {
		s, _ := l.Lookup(append(append([]string{file}, key...), field)...)
		return s
	}
	st := Story{Summary: at(l, "summary"), Quote: at(locale.Get(locale.Articles), "quote"), Now: at(l, "now")}
	if l.Code != locale.Articles && hasHan(st.Quote) {
		st.Rendering = at(l, "quote")
	}
	return st
}

func hasHan(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) })
}
