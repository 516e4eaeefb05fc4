package locale

import (
	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// pluralRule returns the CLDR cardinal plural category of a whole number
// in the language of tag: what a {n, plural, …} form is chosen by. The
// page's script asks its browser's Intl.PluralRules, which reads the
// same CLDR rules.
func pluralRule(tag language.Tag) func(int64) string {
	return func(n int64) string {
		if n < 0 {
			n = -n
		}
		switch plural.Cardinal.MatchPlural(tag, int(n), 0, 0, 0, 0) {
		case plural.Zero:
			return "zero"
		case plural.One:
			return "one"
		case plural.Two:
			return "two"
		case plural.Few:
			return "few"
		case plural.Many:
			return "many"
		}
		return "other"
	}
}
