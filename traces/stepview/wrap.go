package stepview

import (
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

// Wrap breaks plain text (no escape sequences) into lines of at most width
// columns. English breaks at spaces; Chinese, which has none, may break
// between any two characters, except before closing punctuation and after
// opening punctuation. A word
// wider than a line is cut.
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
// other characters.
func tokens(s string) []string {
	var out []string
	var cur []rune
	emit := func() {
		if len(cur) > 0 {
			out = append(out, string(cur))
			cur = cur[:0]
		}
	}
	opened := false // cur ends with opening punctuation: the next character joins it
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			emit()
			out = append(out, " ")
		case closing(r):
			cur = append(cur, r) // stays with what it closes
		case opening(r):
			if !opened {
				emit()
			}
			cur = append(cur, r) // stays with what it opens
			opened = true
			continue
		case wide(r):
			if !opened {
				emit()
			}
			cur = append(cur, r)
		default:
			if !opened && len(cur) > 0 && wide(cur[len(cur)-1]) {
				emit()
			}
			cur = append(cur, r)
		}
		opened = false
	}
	emit()
	return out
}

func wide(r rune) bool { return ansi.StringWidth(string(r)) > 1 }

// opening is punctuation that must not end a line.
func opening(r rune) bool {
	return strings.ContainsRune("（「『《〈“‘", r)
}

// closing is punctuation that must not begin a line.
func closing(r rune) bool {
	return strings.ContainsRune("，。、；：？！）」』》〉”’,.;:?!)]}", r)
}
