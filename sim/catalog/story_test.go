package catalog

import (
	"fmt"
	"testing"

	"github.com/kubeloom/kubeloom/sim/catalog/locale"
)

// The keys a story may have, by file.
var storyKeys = map[string]map[string]bool{
	"goroutines": {"summary": true, "quote": true, "now": true},
	"steps":      {"summary": true, "quote": true},
}

// Every entry and step has its story in every language, and no language
// tells a story of a name the code does not know. (That every language
// has English's keys, no more and no fewer, the locale package checks.)
func TestEveryStoryIsThere(t *testing.T) {
	for _, code := range locale.Codes() {
		l := locale.Get(code)
		file := func(name string) string { return fmt.Sprintf("sim/catalog/locale/%s/%s.yaml", code, name) }
		for _, e := range All() {
			if _, ok := l.Lookup("goroutines", e.Name, "summary"); !ok {
				t.Errorf("%s: no summary of %s: add it", file("goroutines"), e.Name)
			}
		}
		for _, name := range l.Keys("goroutines") {
			if _, ok := Lookup(name); !ok {
				t.Errorf("%s: a story of %s, which the catalog does not know: remove it, or register the entry", l.Where("goroutines", name), name)
			}
			checkStoryKeys(t, l, "goroutines", name)
		}
		for _, s := range Steps() {
			if _, ok := l.Lookup("steps", s.Component, s.Name, "summary"); !ok {
				t.Errorf("%s: no summary of the step %s of %s: add it", file("steps"), s.Name, s.Component)
			}
		}
		for _, component := range l.Keys("steps") {
			for _, name := range l.Keys("steps", component) {
				if _, ok := LookupStep(component, name); !ok {
					t.Errorf("%s: a story of the step %s of %s, which the catalog does not know: remove it, or register the step", l.Where("steps", component, name), name, component)
				}
				checkStoryKeys(t, l, "steps", component, name)
			}
		}
	}
}

func checkStoryKeys(t *testing.T, l *locale.Language, path ...string) {
	t.Helper()
	if _, ok := l.Lookup(path...); ok {
		t.Errorf("%s: expected the keys of a story (summary, …), not a text", l.Where(path...))
		return
	}
	for _, k := range l.Keys(path...) {
		if !storyKeys[path[0]][k] {
			t.Errorf("%s: a story of %s has no %q", l.Where(append(path, k)...), path[0], k)
		}
	}
}

// A story in another language than English is translated: its summary and
// then-vs-now are not English's.
func TestStoriesAreTranslated(t *testing.T) {
	for _, code := range locale.Codes() {
		if code == locale.Reference {
			continue
		}
		for _, e := range All() {
			got, ref := e.Story(code), e.Story(locale.Reference)
			if got.Summary == ref.Summary || got.Now != "" && got.Now == ref.Now {
				t.Errorf("%s: %s tells the English story of %s", locale.Get(code).Where("goroutines", e.Name), code, e.Name)
			}
		}
		for _, s := range Steps() {
			if s.Story(code).Summary == s.Story(locale.Reference).Summary {
				t.Errorf("%s: %s tells the English story of the step %s", locale.Get(code).Where("steps", s.Component, s.Name), code, s.Name)
			}
		}
	}
}
