package stepview

import (
	"github.com/kubeloom/kubeloom/sim/catalog/locale"
)

// The narrative's language is one of the folders of sim/catalog/locale
// (locale.Codes), English by default: the catalog's stories in it, and
// the words of stepview.yaml around them. The article quotes are the
// article's Chinese in every language; the others add kubeloom's
// rendering of them under them (Story.Rendering).

// English is the narrative's language unless another is asked for.
const English = locale.Reference

// checkLang returns the language to use for lang ("" is English).
func checkLang(lang string) (string, error) { return locale.Check(lang) }

// words are the fixed texts of a story in one language: its
// stepview.yaml.
type words struct{ l *locale.Language }

func wordsOf(lang string) words { return words{locale.Get(lang)} }

// t is the message key of stepview.yaml, which has no arguments.
func (w words) t(key string) string { return w.l.Text("stepview." + key) }

// f is the message key of stepview.yaml with args.
func (w words) f(key string, args locale.Args) string { return w.l.Format("stepview."+key, args) }
