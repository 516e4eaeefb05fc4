package locale

import (
	"strings"
	"testing"
)

// The embedded language folders load: every language has English's files
// and keys, every message parses and names only English's arguments. A
// problem is listed with its file and line.
func TestEmbeddedTextsLoad(t *testing.T) {
	ls, err := load(files)
	if err != nil {
		t.Fatalf("the language folders of %s do not load:\n%v", dir, err)
	}
	if ls[Reference] == nil || ls[Articles] == nil {
		t.Fatalf("languages %v: want at least %s (the reference) and %s (the articles')", Codes(), Reference, Articles)
	}
}

func TestLanguages(t *testing.T) {
	codes := Codes()
	if len(codes) < 2 || codes[0] != Reference {
		t.Fatalf("Codes() = %v: English first", codes)
	}
	if got := Choices(); !strings.HasPrefix(got, "en (English)") || !strings.Contains(got, "zh (中文)") || !strings.Contains(got, " or ") {
		t.Errorf("Choices() = %q", got)
	}
	if len(all()) != len(codes) {
		t.Errorf("the index has %d languages, the texts %d", len(codes), len(all()))
	}
	for _, c := range codes {
		l := Get(c)
		if l.Code != c || l.Name == "" || l.Short == "" || l.Tag == "" || l.Name != names[c] {
			t.Errorf("%s: %+v (named %q in the index)", c, l, names[c])
		}
		if got, err := Check(c); got != c || err != nil {
			t.Errorf("Check(%q) = %q, %v", c, got, err)
		}
	}
	if got, err := Check(""); got != Reference || err != nil {
		t.Errorf(`Check("") = %q, %v: the reference`, got, err)
	}
	// qaa is reserved for local use: never a language of the folders.
	if _, err := Check("qaa"); err == nil || err.Error() != `unknown language "qaa": expected `+Choices() {
		t.Errorf(`Check("qaa") = %v`, err)
	}
	if Get("qaa") != Get(Reference) {
		t.Error(`Get("qaa") is not the reference`)
	}
	// Next goes round every language once.
	seen := map[string]bool{}
	l := Get(Reference)
	for range codes {
		seen[l.Code] = true
		l = l.Next()
	}
	if l.Code != Reference || len(seen) != len(codes) {
		t.Errorf("Next from %s visits %v and ends at %s", Reference, seen, l.Code)
	}
}

// The stories keep their braces: they are told as written, not formatted.
func TestStoriesAreText(t *testing.T) {
	en := Get(Reference)
	found := false
	for _, name := range en.Keys("goroutines") {
		s, _ := en.Lookup("goroutines", name, "summary")
		if strings.Contains(s, "{") {
			found = true
		}
	}
	if !found {
		t.Error("no summary has a brace: the test no longer shows that stories are not messages")
	}
	if _, ok := en.Lookup("goroutines"); ok {
		t.Error(`Lookup("goroutines") is a text`)
	}
	if where := en.Where("goroutines", en.Keys("goroutines")[0], "summary"); !strings.HasPrefix(where, dir+"/en/goroutines.yaml:") {
		t.Errorf("Where = %q", where)
	}
}

// BenchmarkIndex is what every command pays for listing the languages in
// its flags' help: the folders and their language.yaml.
func BenchmarkIndex(b *testing.B) {
	for b.Loop() {
		if codes, _ := readIndex(files); len(codes) == 0 {
			b.Fatal("no languages")
		}
	}
}

// BenchmarkLoad is what the first story a command tells costs: reading
// every language folder.
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, err := load(files); err != nil {
			b.Fatal(err)
		}
	}
}
