package locale

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"
)

// Reference is the language every other one is checked against, file for
// file and key for key: English.
const Reference = "en"

// Articles is the language of the two articles kubeloom quotes. In its
// stories a quote is the articles' own words, verbatim; in every other
// language it is kubeloom's rendering of them, which a view shows beside
// the original, never instead of it.
const Articles = "zh"

// A Language is the texts of one language folder.
type Language struct {
	Code  string // the folder's name, as --lang takes it: "en", "zh"
	Name  string // its name in itself, as a language switch offers it: "English", "中文"
	Short string // a short label of it for a title bar: "EN", "中文"
	Tag   string // its BCP 47 tag, for HTML's lang and the plural rules: "en", "zh-CN"

	files    map[string]*node    // by file name without .yaml
	messages map[string]*message // by dotted key, "stepview.what"; not the plainText files'
	plural   func(int64) string  // the CLDR plural category of a number
}

// The texts are the files of the language folders beside this file. The
// pattern takes any folder, so that a language is added by adding one.
//
//go:embed */*.yaml
var files embed.FS

var (
	loadOnce  sync.Once
	languages map[string]*Language

	indexOnce sync.Once
	names     map[string]string // language code → its name in itself
	codes     []string          // English, then the others by code
)

// all loads every language the first time a text is asked for: a command
// that shows none (kubeloom goroutines, run) parses no data file. The
// files are embedded and a test loads them, so a problem here is a broken
// build.
func all() map[string]*Language {
	loadOnce.Do(func() {
		ls, err := load(files)
		if err != nil {
			panic(fmt.Sprintf("locale: the embedded texts do not load (go test ./sim/catalog/locale says where):\n%v", err))
		}
		languages = ls
	})
	return languages
}

// index reads which languages there are and their names, the first time
// it is asked: the folders and their language.yaml, without the rest, so
// that a flag's help lists them at no cost.
func index() {
	indexOnce.Do(func() { codes, names = readIndex(files) })
}

func readIndex(fsys fs.FS) ([]string, map[string]string) {
	var cs []string
	ns := map[string]string{}
	dirs, _ := fs.ReadDir(fsys, ".")
	for _, d := range dirs {
		src, err := fs.ReadFile(fsys, d.Name()+"/language.yaml")
		if err != nil {
			continue
		}
		n, _ := parseFile(d.Name()+"/language.yaml", src)
		if n == nil || n.kids["name"] == nil {
			continue
		}
		ns[d.Name()] = n.kids["name"].text
		cs = append(cs, d.Name())
	}
	slices.SortFunc(cs, func(a, b string) int {
		switch {
		case a == Reference:
			return -1
		case b == Reference:
			return 1
		}
		return strings.Compare(a, b)
	})
	return cs, ns
}

// Codes returns the codes of the languages kubeloom speaks: English, then
// the others by code.
func Codes() []string {
	index()
	return slices.Clone(codes)
}

// Get returns the language of code, or the reference for a code that is
// not one: Check first what a user typed.
func Get(code string) *Language {
	ls := all()
	if l, ok := ls[code]; ok {
		return l
	}
	return ls[Reference]
}

// Check returns the language a user asked for ("" is the reference), or
// an error that lists the languages there are.
func Check(code string) (string, error) {
	if code == "" {
		return Reference, nil
	}
	index()
	if _, ok := names[code]; !ok {
		return "", fmt.Errorf("unknown language %q: expected %s", code, Choices())
	}
	return code, nil
}

// Choices lists the languages for a flag's help or an error: "en
// (English) or zh (中文)".
func Choices() string {
	var parts []string
	for _, c := range Codes() {
		parts = append(parts, fmt.Sprintf("%s (%s)", c, names[c]))
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// Next is the language after l, back to the first after the last: what a
// view's language switch changes to.
func (l *Language) Next() *Language {
	cs := Codes()
	i := slices.Index(cs, l.Code)
	return Get(cs[(i+1)%len(cs)])
}

// Has says whether key is a message of l.
func (l *Language) Has(key string) bool { return l.messages[key] != nil }

// Text returns the message of key ("stepview.what"), which has no
// arguments.
func (l *Language) Text(key string) string { return l.Format(key, nil) }

// Format returns the message of key with args. A key that is not one
// comes back in brackets, so that a typo shows where it is used.
func (l *Language) Format(key string, args Args) string {
	m := l.messages[key]
	if m == nil {
		return "[" + key + "]"
	}
	return m.format(args, l.plural)
}

// Messages returns the messages of a file as they are written, by key
// inside it ("what", "kinds.started"): what the HTML page embeds and
// formats with its own copy of Format.
func (l *Language) Messages(file string) map[string]string {
	out := map[string]string{}
	prefix := file + "."
	for key, m := range l.messages {
		if rest, ok := strings.CutPrefix(key, prefix); ok {
			out[rest] = m.src
		}
	}
	return out
}

// Lookup returns the text at a path of keys of a file told as it is (the
// catalog's stories: "goroutines", "kubelet/log-flush", "summary").
func (l *Language) Lookup(path ...string) (string, bool) {
	n := l.lookup(path)
	if n == nil || n.kids != nil {
		return "", false
	}
	return n.text, true
}

// Keys returns the keys under a path, in the order the file has them.
func (l *Language) Keys(path ...string) []string {
	n := l.lookup(path)
	if n == nil {
		return nil
	}
	return slices.Clone(n.keys)
}

// Where says where the key at path is written: file, line and column.
func (l *Language) Where(path ...string) string {
	n := l.lookup(path)
	if n == nil {
		return ""
	}
	return n.pos.String()
}

func (l *Language) lookup(path []string) *node {
	if len(path) == 0 {
		return nil
	}
	n := l.files[path[0]]
	for _, k := range path[1:] {
		if n == nil || n.kids == nil {
			return nil
		}
		n = n.kids[k]
	}
	return n
}
