package catalog

import (
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// quoted is what the QuoteEN test needs of an Entry or a Step.
type quoted struct {
	id, quote, quoteEN, summary string
}

func everyQuote() []quoted {
	var out []quoted
	for _, e := range All() {
		out = append(out, quoted{e.Name, e.Quote, e.QuoteEN, e.Summary})
	}
	for _, s := range Steps() {
		out = append(out, quoted{"step " + s.Component + " " + s.Name, s.Quote, s.QuoteEN, s.Summary})
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

func hasHan(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) })
}

// codeToken is a run of the characters code is written in; in a quote the
// article's Chinese is between them, so they are its identifiers, numbers
// and paths (pendingNotifications, k.StartGarbageCollection, 1.main).
var codeToken = regexp.MustCompile(`[A-Za-z0-9_.]+`)

// QuoteEN is the English rendering of Quote, for readers who cannot read
// the article's Chinese: every quote has one and nothing else does; it is
// English (no CJK character), not the summary again; it renders each
// passage of the quote, in order, keeping the passages that have no
// Chinese (code, the article's English comments) exactly and the code of
// the others as it is; and a passage the catalog quotes twice reads the
// same both times.
func TestQuoteENRendersTheQuote(t *testing.T) {
	n := 0
	rendered := map[string]string{} // passage → its rendering, across the catalog
	for _, q := range everyQuote() {
		if q.quote == "" {
			if q.quoteEN != "" {
				t.Errorf("%s: QuoteEN %q renders no Quote", q.id, q.quoteEN)
			}
			continue
		}
		n++
		if q.quoteEN == "" {
			t.Errorf("%s: has a Quote, needs its English rendering QuoteEN", q.id)
			continue
		}
		for _, r := range q.quoteEN {
			if isCJK(r) {
				t.Errorf("%s: QuoteEN has the CJK character %q: %q", q.id, r, q.quoteEN)
				break
			}
		}
		if q.quoteEN == q.summary {
			t.Errorf("%s: QuoteEN is the Summary; it renders the quote, not the story", q.id)
		}
		// Quote joins the article's passages with "；"; QuoteEN joins
		// their renderings with " … ".
		passages, renderings := strings.Split(q.quote, "；"), strings.Split(q.quoteEN, " … ")
		if len(passages) != len(renderings) {
			t.Errorf("%s: Quote has %d passages, QuoteEN %d (join the renderings with \" … \"):\n%q\n%q",
				q.id, len(passages), len(renderings), q.quote, q.quoteEN)
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

func TestQuoteInEnglish(t *testing.T) {
	for _, tc := range []struct {
		e    Entry
		want string
	}{
		{Entry{Quote: "ListAndWatch先获取rsv", QuoteEN: "ListAndWatch first gets the rsv"}, "ListAndWatch first gets the rsv"},
		{Entry{Quote: "kl.pleg.Start()", QuoteEN: "kl.pleg.Start()"}, ""}, // code: nothing to render
		{Entry{}, ""},
	} {
		if got := tc.e.QuoteInEnglish(); got != tc.want {
			t.Errorf("%q: QuoteInEnglish() = %q, want %q", tc.e.Quote, got, tc.want)
		}
		s := Step{Quote: tc.e.Quote, QuoteEN: tc.e.QuoteEN}
		if got := s.QuoteInEnglish(); got != tc.want {
			t.Errorf("step %q: QuoteInEnglish() = %q, want %q", s.Quote, got, tc.want)
		}
	}
}
