package stepview

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Wrap breaks plain text (no escape sequences) into lines at most width
// cells wide, measured as every view measures text (x/ansi: a Chinese
// character or an emoji takes two cells, a combining mark none). English
// breaks at spaces; Chinese, which has none, may break between any two
// characters, except before closing punctuation and after opening
// punctuation. A word wider than a line is cut, between characters: a
// character is a grapheme cluster (a letter and its accents, an emoji
// sequence), never split.
func Wrap(s string, width int) []string {
	width = max(width, 1)
	var (
		lines []string
		line  strings.Builder
		lineW int
	)
	flush := func() {
		lines = append(lines, strings.TrimRight(line.String(), " "))
		line.Reset()
		lineW = 0
	}
	for _, tok := range tokens(s) {
		w := ansi.StringWidth(tok)
		space := tok == " "
		if space && lineW == 0 {
			continue
		}
		if lineW+w > width && lineW > 0 {
			flush()
			if space {
				continue
			}
		}
		for w > width { // a word that fits no line
			cut := ansi.Truncate(tok, width, "")
			if cut == "" { // a character wider than the line
				cut, _, _, _ = ansi.FirstGraphemeCluster(tok, -1)
			}
			lines = append(lines, cut)
			tok = tok[len(cut):]
			w = ansi.StringWidth(tok)
		}
		line.WriteString(tok)
		lineW += w
	}
	if lineW > 0 || len(lines) == 0 {
		flush()
	}
	return lines
}

// tokens splits s into the units wrap keeps together: single spaces, wide
// (CJK) characters with any closing punctuation after them, and runs of
// other characters. It reads s by grapheme clusters, so that an accent or
// a joined emoji stays with its character.
func tokens(s string) []string {
	var out []string
	var cur strings.Builder
	lastWide := false // cur ends with a wide character
	emit := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	opened := false // cur ends with opening punctuation: the next character joins it
	for state := -1; s != ""; {
		var c string
		c, s, _, state = ansi.FirstGraphemeCluster(s, state)
		r, _ := utf8.DecodeRuneInString(c)
		wide := ansi.StringWidth(c) > 1
		switch {
		case unicode.IsSpace(r):
			emit()
			out = append(out, " ")
		case closing(r):
			cur.WriteString(c) // stays with what it closes
		case opening(r):
			if !opened {
				emit()
			}
			cur.WriteString(c) // stays with what it opens
			opened, lastWide = true, false
			continue
		case wide:
			if !opened {
				emit()
			}
			cur.WriteString(c)
		default:
			if !opened && lastWide {
				emit()
			}
			cur.WriteString(c)
		}
		opened, lastWide = false, wide
	}
	emit()
	return out
}

// opening is punctuation that must not end a line.
func opening(r rune) bool {
	return strings.ContainsRune("（「『《〈“‘", r)
}

// closing is punctuation that must not begin a line.
func closing(r rune) bool {
	return strings.ContainsRune("，。、；：？！）」』》〉”’,.;:?!)]}", r)
}
