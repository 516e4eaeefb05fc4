package scenarios

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestVerbFiles: every verb is a file of its own, verb_<name in lower case>.go, and every such
// file's verb is in the table (a verb missing from it could not be decoded).
func TestVerbFiles(t *testing.T) {
	files, err := filepath.Glob("verb_*.go")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			got = append(got, strings.TrimSuffix(strings.TrimPrefix(f, "verb_"), ".go"))
		}
	}
	var want []string
	for _, k := range verbs {
		want = append(want, strings.ToLower(k.name))
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("verb files %v\nthe table's verbs %v", got, want)
	}
}
