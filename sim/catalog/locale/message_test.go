package locale

import (
	"strings"
	"testing"

	"golang.org/x/text/language"
)

func TestFormat(t *testing.T) {
	en, zh := pluralRule(language.English), pluralRule(language.MustParse("zh-CN"))
	for _, tc := range []struct {
		msg    string
		args   Args
		plural func(int64) string
		want   string
	}{
		{"plain text", nil, en, "plain text"},
		{"step {i} of {n}", Args{"i": 3, "n": 10}, en, "step 3 of 10"},
		{"{lanes} 个协程上的 {steps} 步", Args{"steps": 5, "lanes": 2}, zh, "2 个协程上的 5 步"},
		{"{who} said {what}", Args{"who": "x", "what": `"q"`}, en, `x said "q"`},
		{"{missing} stays", Args{}, en, "{missing} stays"},
		{"{n, plural, one {# mark} other {# marks}} here", Args{"n": 1}, en, "1 mark here"},
		{"{n, plural, one {# mark} other {# marks}} here", Args{"n": 2}, en, "2 marks here"},
		{"{n, plural, one {# mark} other {# marks}} here", Args{"n": 0}, en, "0 marks here"},
		{"{n, plural, =0 {none} one {# mark} other {# marks}}", Args{"n": 0}, en, "none"},
		{"{n, plural, one {# 个} other {# 个标记}}", Args{"n": 1}, zh, "1 个标记"},
		{"{n, plural, one {# of {total}} other {# of {total} each}}", Args{"n": 1, "total": 9}, en, "1 of 9"},
		{"{n, plural, other {# mark}}", Args{"n": "many"}, en, "many mark"},
		{"a '{' brace '}', '#' and kubeloom's own", nil, en, "a { brace }, # and kubeloom's own"},
		{"{n,plural,one{#}other{#s}}", Args{"n": int64(2)}, en, "2s"},
		{"# outside a plural", nil, en, "# outside a plural"},
	} {
		m, err := parseMessage(tc.msg)
		if err != nil {
			t.Errorf("%q: %v", tc.msg, err)
			continue
		}
		if got := m.format(tc.args, tc.plural); got != tc.want {
			t.Errorf("%q with %v = %q, want %q", tc.msg, tc.args, got, tc.want)
		}
	}
}

func TestMessageErrors(t *testing.T) {
	for msg, want := range map[string]string{
		"a } alone":                          "a } closes nothing: write '}' for a brace",
		"a {} alone":                         "a { starts no placeholder",
		"{n":                                 "placeholder {n: expected its } (or , plural, …)",
		"{n, select, a {x} other {y}}":       "the only kind is plural",
		"{n, plural, one {x}}":               "needs an other form",
		"{n, plural, eleven {x} other {y}}":  `"eleven" is not a plural category`,
		"{n, plural, one {x} one {y} other}": "the form one is there twice",
		"{n, plural, one x other {y}}":       "the form one needs its text in braces",
		"{n, plural, other {x}":              "expected a form (=1, one, other …) or the closing }",
		"{n, plural, other {x":               "a plural form is not closed",
		"{n, plural other {x}}":              "expected a , before the forms",
	} {
		_, err := parseMessage(msg)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want one saying %q", msg, err, want)
		}
	}
}

func TestPluralRules(t *testing.T) {
	for _, tc := range []struct {
		tag  string
		n    int64
		want string
	}{
		{"en", 1, "one"}, {"en", 0, "other"}, {"en", 2, "other"}, {"en", -1, "one"},
		{"zh-CN", 1, "other"}, {"fr", 0, "one"}, {"ru", 3, "few"}, {"ru", 5, "many"}, {"ar", 2, "two"},
	} {
		if got := pluralRule(language.MustParse(tc.tag))(tc.n); got != tc.want {
			t.Errorf("%s %d: %s, want %s", tc.tag, tc.n, got, tc.want)
		}
	}
}
