package catalog

import (
	"strings"
	"unicode"
)

// QuoteInEnglish is the English rendering an English view shows beside
// the article's sentence (which it always shows): QuoteEN, or "" when the
// quote has no Chinese in it, since its code reads the same in English and
// showing it twice would only say it again.
func (e Entry) QuoteInEnglish() string { return inEnglish(e.Quote, e.QuoteEN) }

// QuoteInEnglish is the English rendering to show beside the step's quote,
// as Entry.QuoteInEnglish.
func (s Step) QuoteInEnglish() string { return inEnglish(s.Quote, s.QuoteEN) }

func inEnglish(quote, quoteEN string) string {
	if !strings.ContainsFunc(quote, func(r rune) bool { return unicode.Is(unicode.Han, r) }) {
		return ""
	}
	return quoteEN
}
