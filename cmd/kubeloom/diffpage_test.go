package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `kubeloom diff --format html` writes the comparison's page beside A
// (A's name with -diff.html) or where -o says, keeps diff's exit status,
// never writes over a recording it reads, and refuses -o without it.
func TestDiffPage(t *testing.T) {
	a := record(t, "informer-eras")
	out, stderr, err := execute(t, "diff", a, a, "--a", "classic", "--b", "modern", "--format", "html")
	page := strings.TrimSuffix(a, ".jsonl") + "-diff.html"
	if statusOf(err) != 1 || out != "" || !strings.Contains(stderr, "wrote "+page) {
		t.Fatalf("diff --format html of two eras: status %d (%v), stdout %q, stderr %q; want 1, nothing, wrote %s", statusOf(err), err, out, stderr, page)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<meta name="generator" content="kubeloom">`, `"diff":{"names":["` + jsonString(a+" (classic)"), `"A informers classic`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if !isExport(page) {
		t.Errorf("the page is not one kubeloom knows as its own: a second run could not replace it")
	}
	// Again over it (kubeloom's own file), to stdout, and the same run
	// against itself: nothing differs, exit 0.
	if _, _, err := execute(t, "diff", a, a, "--format", "html"); statusOf(err) != 0 {
		t.Errorf("diff --format html of a recording with itself, over the last page: status %d (%v), want 0", statusOf(err), err)
	}
	if out, _, _ := execute(t, "diff", a, a, "--format", "html", "-o", "-"); !strings.HasPrefix(out, "<!DOCTYPE html>") {
		t.Errorf("-o - writes %.40q to stdout, want the page", out)
	}
	// Never over an input, even with --force.
	before, _ := os.ReadFile(a)
	if _, _, err := execute(t, "diff", a, a, "--format", "html", "-o", a, "--force"); statusOf(err) != 2 || !strings.Contains(err.Error(), "which this command reads") {
		t.Errorf("-o over A: status %d (%v), want 2 and why", statusOf(err), err)
	}
	if after, _ := os.ReadFile(a); !bytes.Equal(before, after) {
		t.Errorf("-o over A changed the recording")
	}
	for _, args := range [][]string{{"-o", filepath.Join(t.TempDir(), "x.html")}, {"--format", "pdf"}} {
		if _, _, err := execute(t, append([]string{"diff", a, a}, args...)...); statusOf(err) != 2 {
			t.Errorf("diff %v: status %d (%v), want 2", args, statusOf(err), err)
		}
	}
}

// jsonString is s as encoding/json writes it, without its quotes.
func jsonString(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
}
