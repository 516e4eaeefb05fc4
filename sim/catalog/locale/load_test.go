package locale

import (
	"strings"
	"testing"
	"testing/fstest"
)

// texts is a small set of language folders: English and Chinese, each
// with its language file and one file of words.
func texts(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{
		"en/language.yaml": {Data: []byte("name: English\nshort: EN\ntag: en\n")},
		"zh/language.yaml": {Data: []byte("name: 中文\nshort: 中文\ntag: zh-CN\n")},
		"en/words.yaml":    {Data: []byte("hello: hello {who}\nlanes: \"{n, plural, one {# lane} other {# lanes}}\"\nmore:\n  one: one\n")},
		"zh/words.yaml":    {Data: []byte("hello: 你好 {who}\nlanes: \"{n} 条泳道\"\nmore:\n  one: 一\n")},
	}
	for name, data := range files {
		if data == "" {
			delete(fsys, name)
			continue
		}
		fsys[name] = &fstest.MapFile{Data: []byte(data)}
	}
	return fsys
}

func TestIsCode(t *testing.T) {
	for name, want := range map[string]bool{"en": true, "zh": true, "pt-BR": true, "zh-Hant-TW": true, "fil": true,
		"e": false, "english": false, "EN": false, "zh-": false, "zh_CN": false, "testdata": false, "zh-x": false} {
		if isCode(name) != want {
			t.Errorf("isCode(%q) = %v", name, !want)
		}
	}
}

func TestLoad(t *testing.T) {
	ls, err := load(texts(nil))
	if err != nil {
		t.Fatal(err)
	}
	zh := ls["zh"]
	if zh.Name != "中文" || zh.Tag != "zh-CN" {
		t.Errorf("zh names itself %q %q", zh.Name, zh.Tag)
	}
	if got := zh.Format("words.hello", Args{"who": "世界"}); got != "你好 世界" {
		t.Errorf("words.hello = %q", got)
	}
	if got := ls["en"].Format("words.lanes", Args{"n": 1}); got != "1 lane" {
		t.Errorf("words.lanes = %q", got)
	}
	if got := ls["en"].Text("words.more.one"); got != "one" {
		t.Errorf("words.more.one = %q", got)
	}
	if got := ls["en"].Text("words.nothing"); got != "[words.nothing]" {
		t.Errorf("a missing key reads %q, want it in brackets", got)
	}
	if got := ls["en"].Messages("words"); len(got) != 3 || got["more.one"] != "one" || got["lanes"] != "{n, plural, one {# lane} other {# lanes}}" {
		t.Errorf("Messages(words) = %v", got)
	}
}

// A problem with a data file names the file and the line, and says what
// to do.
func TestLoadProblems(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"not YAML", map[string]string{"zh/words.yaml": "hello: 你好\nlanes: [oops\n"},
			[]string{"sim/catalog/locale/zh/words.yaml:2:8: not valid YAML: sequence end token ']' not found"}},
		{"a key missing", map[string]string{"zh/words.yaml": "hello: 你好 {who}\nmore:\n  one: 一\n"},
			[]string{`sim/catalog/locale/zh/words.yaml:1:1: words: "lanes" is missing (en has it at sim/catalog/locale/en/words.yaml:2:1): translate it`}},
		{"a key English lacks", map[string]string{"zh/words.yaml": "hello: 你好 {who}\nlanes: \"{n} 条泳道\"\nmore:\n  one: 一\n  two: 二\n"},
			[]string{`sim/catalog/locale/zh/words.yaml:5:3: words.more: "two" is not in en, the reference: remove it, or add it to English first`}},
		{"a text for a mapping", map[string]string{"zh/words.yaml": "hello: 你好 {who}\nlanes: \"{n} 条泳道\"\nmore: 一\n"},
			[]string{"sim/catalog/locale/zh/words.yaml:3:1: words.more: expected a mapping of keys, as in sim/catalog/locale/en/words.yaml:3:1"}},
		{"a file missing", map[string]string{"zh/words.yaml": ""},
			[]string{"sim/catalog/locale/zh/words.yaml: missing: every language has the files of sim/catalog/locale/en/ (copy words.yaml and translate it)"}},
		{"a file English lacks", map[string]string{"zh/extra.yaml": "x: y\n"},
			[]string{"sim/catalog/locale/zh/extra.yaml:1:1: extra.yaml is not in sim/catalog/locale/en/"}},
		{"a number", map[string]string{"zh/words.yaml": "hello: 你好 {who}\nlanes: 5\nmore:\n  one: 一\n"},
			[]string{"sim/catalog/locale/zh/words.yaml:2:8: 5 is read as a number, not a text: put it in quotes"}},
		{"no text", map[string]string{"zh/words.yaml": "hello:\nlanes: \"{n} 条泳道\"\nmore:\n  one: 一\n"},
			[]string{"sim/catalog/locale/zh/words.yaml:1:7: no text: write it"}},
		{"a list", map[string]string{"zh/words.yaml": "hello: [a, b]\nlanes: \"{n} 条泳道\"\nmore:\n  one: 一\n"},
			[]string{"sim/catalog/locale/zh/words.yaml:1:8: expected a text or a mapping: data files hold no lists"}},
		{"an alias", map[string]string{"zh/words.yaml": "hello: &h 你好 {who}\nlanes: *h\nmore:\n  one: 一\n"},
			[]string{"zh/words.yaml:1:8: anchors and aliases (&a, *a) are not supported", "zh/words.yaml:2:8: anchors and aliases"}},
		{"a key twice", map[string]string{"zh/words.yaml": "hello: 你好 {who}\nlanes: \"{n} 条泳道\"\nmore:\n  one: 一\nhello: 又\n"},
			[]string{`sim/catalog/locale/zh/words.yaml:5:1: "hello" is there twice (first at line 1)`}},
		{"a broken message", map[string]string{"zh/words.yaml": "hello: 你好 {who\nlanes: \"{n} 条泳道\"\nmore:\n  one: 一\n"},
			[]string{"sim/catalog/locale/zh/words.yaml:1:1: words.hello: at byte", "placeholder {who: expected its }"}},
		{"an argument English lacks", map[string]string{"zh/words.yaml": "hello: 你好 {name}\nlanes: \"{n} 条泳道\"\nmore:\n  one: 一\n"},
			[]string{"sim/catalog/locale/zh/words.yaml:1:1: words.hello: {name} is not an argument of this message (en has {who})"}},
		{"a dot in a key", map[string]string{"en/words.yaml": "hello: hello {who}\nlanes: x\nmore:\n  one.two: one\n", "zh/words.yaml": "hello: 你好 {who}\nlanes: x\nmore:\n  one.two: 一\n"},
			[]string{`sim/catalog/locale/en/words.yaml:4:3: words.more.one.two: the key "one.two" of a message may not hold a dot`}},
		{"no tag", map[string]string{"zh/language.yaml": "name: 中文\nshort: 中文\n"},
			[]string{`zh/language.yaml:1:1: language: "tag" is missing`, "zh/language.yaml: a language names itself: language.yaml needs name, short and tag"}},
		{"a bad tag", map[string]string{"zh/language.yaml": "name: 中文\nshort: 中文\ntag: chinese-simplified-x\n"},
			[]string{`zh/language.yaml:3:1: tag "chinese-simplified-x" is not a BCP 47 language tag`}},
		{"a folder that is no language", map[string]string{"Chinese/words.yaml": "x: y\n"},
			[]string{`a language folder is named by its code (en, zh, pt-BR), not "Chinese"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := load(texts(tc.files))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error\n%v\nsays nothing like\n%s", err, w)
				}
			}
		})
	}
	if _, err := load(fstest.MapFS{"zh/language.yaml": {Data: []byte("name: 中文\nshort: 中文\ntag: zh\n")}}); err == nil || !strings.Contains(err.Error(), "has no en folder") {
		t.Errorf("without English: %v", err)
	}
}
