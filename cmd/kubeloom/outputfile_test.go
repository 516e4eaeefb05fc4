package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/engine"
)

// writeFile writes a file for a test and returns its path.
func writeFile(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// mustRead returns a file's text, failing the test if it cannot.
func mustRead(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// noLeftovers fails the test if a temporary output file is left in dir.
func noLeftovers(t *testing.T, dir string) {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(dir, ".*.partial"))
	if len(matches) > 0 {
		t.Errorf("temporary files left behind: %v", matches)
	}
}

// runShort runs informer-basics for 2 simulated seconds with the given
// flags, in a bubble.
func runShort(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var stderr string
	var err error
	synctest.Test(t, func(t *testing.T) {
		_, stderr, err = execute(t, append([]string{"run", "informer-basics", "--duration", "2s", "-q"}, args...)...)
	})
	return stderr, err
}

// scenarioText is a scenario file a user wrote: informer-basics's.
var scenarioText = func() string {
	src, _ := scenarios.BuiltinSource("informer-basics")
	return string(src)
}()

// TestRunNeverWritesOverItsScenario: `run my.yaml --out my.yaml` used to
// replace the scenario with the recording; now it is an error naming both,
// whatever --force says, and the scenario is untouched (as it is when the
// output is a link to it).
func TestRunNeverWritesOverItsScenario(t *testing.T) {
	dir := t.TempDir()
	sc := writeFile(t, filepath.Join(dir, "my.yaml"), scenarioText)
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(sc, link); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{sc, link, filepath.Join(dir, ".", "my.yaml")} {
		for _, force := range []bool{false, true} {
			args := []string{"run", sc, "--out", out}
			if force {
				args = append(args, "--force")
			}
			var err error
			synctest.Test(t, func(t *testing.T) { _, _, err = execute(t, args...) })
			want := "--out " + out + " is " + sc + ", which this command reads"
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%v: error %v\nwant one saying %s", args, err, want)
			}
			if got := mustRead(t, sc); got != scenarioText {
				t.Fatalf("%v changed the scenario to:\n%.200s", args, got)
			}
		}
	}
	noLeftovers(t, dir)
}

// TestRunReplacesOnlyItsOwnFiles: an existing recording is replaced; any
// other file needs --force; an empty file is nothing to lose.
func TestRunReplacesOnlyItsOwnFiles(t *testing.T) {
	dir := t.TempDir()
	notes := writeFile(t, filepath.Join(dir, "notes.txt"), "my notes\n")
	if _, err := runShort(t, "--out", notes); err == nil || !strings.Contains(err.Error(), "--out "+notes+" exists and is not a file kubeloom wrote; pass --force to replace it") {
		t.Errorf("run over a notes file: %v", err)
	}
	if got := mustRead(t, notes); got != "my notes\n" {
		t.Errorf("the refused run changed notes.txt to %.100q", got)
	}
	if _, err := runShort(t, "--out", notes, "--force"); err != nil {
		t.Fatalf("--force: %v", err)
	}
	if !isRecording(notes) {
		t.Errorf("--force did not put a recording in notes.txt")
	}

	for _, name := range []string{"rec.jsonl", "rec.jsonl.zst"} {
		rec := filepath.Join(dir, name)
		if _, err := runShort(t, "--out", rec); err != nil {
			t.Fatal(err)
		}
		if _, err := runShort(t, "--out", rec); err != nil {
			t.Errorf("a second run over its own recording %s: %v", name, err)
		}
	}
	empty := writeFile(t, filepath.Join(dir, "empty.jsonl"), "")
	if _, err := runShort(t, "--out", empty); err != nil {
		t.Errorf("run over an empty file: %v", err)
	}
	if _, err := runShort(t, "--out", dir); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("run --out a folder: %v", err)
	}
	noLeftovers(t, dir)
}

// TestRunReplacesALinkWithoutFollowingIt: a symbolic link at --out (one
// planted in a shared folder, say) is replaced by the recording; the file
// it points at is untouched, and a dangling link does not create its
// target.
func TestRunReplacesALinkWithoutFollowingIt(t *testing.T) {
	dir := t.TempDir()
	target := writeFile(t, filepath.Join(dir, "precious.jsonl"), "")
	if _, err := runShort(t, "--out", target); err != nil { // a recording, so the link may replace it
		t.Fatal(err)
	}
	before := mustRead(t, target)
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling.jsonl")
	nowhere := filepath.Join(dir, "nowhere.jsonl")
	if err := os.Symlink(nowhere, dangling); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{link, dangling} {
		if _, err := runShort(t, "--out", l, "--seed", "7"); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Lstat(l)
		if err != nil || fi.Mode()&os.ModeSymlink != 0 || !isRecording(l) {
			t.Errorf("%s after the run: %v, mode %v; want a recording in place of the link", l, err, fi.Mode())
		}
	}
	if mustRead(t, target) != before {
		t.Errorf("the run wrote through the link into %s", target)
	}
	if _, err := os.Lstat(nowhere); !os.IsNotExist(err) {
		t.Errorf("the run created the dangling link's target (%v)", err)
	}
	noLeftovers(t, dir)
}

// TestRunWritesBesideTheTarget: while the run records, what was at --out
// is still there (a run killed at that point loses nothing); the recording
// takes its place only when the run ends.
func TestRunWritesBesideTheTarget(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "rec.jsonl")
	if _, err := runShort(t, "--out", out); err != nil {
		t.Fatal(err)
	}
	old := mustRead(t, out)
	var during string
	var partial []string
	synctest.Test(t, func(t *testing.T) {
		d := deps{runVirtual: func(ctx context.Context, o engine.Options) (*engine.Summary, error) {
			sum, err := inTestBubble(ctx, o)
			during = mustRead(t, out)
			partial, _ = filepath.Glob(filepath.Join(dir, ".rec.jsonl.*.partial"))
			return sum, err
		}}
		if _, _, err := executeIn(t, d, "run", "informer-basics", "--duration", "3s", "-q", "--out", out); err != nil {
			t.Fatal(err)
		}
	})
	if during != old {
		t.Errorf("--out changed while the run was recording")
	}
	if len(partial) != 1 {
		t.Errorf("while recording, the folder held %v; want one .rec.jsonl.*.partial", partial)
	}
	if mustRead(t, out) == old {
		t.Errorf("the new recording did not replace the old one")
	}
	noLeftovers(t, dir)
}

// TestRunGoTraceIsAnOutputToo: --go-trace is checked as --out is.
func TestRunGoTraceIsAnOutputToo(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "rec.jsonl")
	if _, err := runShort(t, "--out", out, "--go-trace", out); err == nil || !strings.Contains(err.Error(), "is also where another output of this command goes") {
		t.Errorf("--go-trace = --out: %v", err)
	}
	notes := writeFile(t, filepath.Join(dir, "notes.txt"), "notes\n")
	if _, err := runShort(t, "--out", out, "--go-trace", notes); err == nil || !strings.Contains(err.Error(), "--go-trace "+notes+" exists and is not a file kubeloom wrote") {
		t.Errorf("--go-trace over notes: %v", err)
	}
	if mustRead(t, notes) != "notes\n" {
		t.Errorf("notes changed")
	}
}

// TestExportNeverWritesOverItsRecording: `export r.jsonl -o r.jsonl` and
// `export rec.html --format html` (whose default output is its input) used
// to replace the recording with the page and exit 0.
func TestExportNeverWritesOverItsRecording(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "r.jsonl")
	if _, err := runShort(t, "--out", rec); err != nil {
		t.Fatal(err)
	}
	asHTML := filepath.Join(dir, "rec.html")
	if err := os.WriteFile(asHTML, []byte(mustRead(t, rec)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"export", rec, "--format", "jaeger", "-o", rec},
		{"export", rec, "--format", "html", "-o", rec, "--force"},
		{"export", asHTML, "--format", "html"},
	} {
		before := mustRead(t, args[1])
		_, _, err := execute(t, args...)
		if err == nil || !strings.Contains(err.Error(), "which this command reads") {
			t.Errorf("%v: error %v", args, err)
		}
		if mustRead(t, args[1]) != before {
			t.Errorf("%v changed its input", args)
		}
	}
	noLeftovers(t, dir)
}

// TestExportReplacesOnlyExports: an export replaces an earlier export of
// any format; any other file needs --force.
func TestExportReplacesOnlyExports(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "r.jsonl")
	if _, err := runShort(t, "--out", rec); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	for _, format := range []string{"html", "jaeger", "chrome", "html"} {
		if _, _, err := execute(t, "export", rec, "--format", format, "-o", out); err != nil {
			t.Errorf("export --format %s over the previous export: %v", format, err)
		}
		if !isExport(out) {
			t.Errorf("the %s export is not recognised as one", format)
		}
	}
	other := writeFile(t, filepath.Join(dir, "index.html"), "<html>the class's own page</html>\n")
	_, _, err := execute(t, "export", rec, "--format", "html", "-o", other)
	if err == nil || !strings.Contains(err.Error(), "-o "+other+" exists and is not a file kubeloom wrote; pass --force to replace it") {
		t.Errorf("export over a page kubeloom did not write: %v", err)
	}
	// A recording is kubeloom's, but not an export: export does not
	// replace it without --force either.
	if _, _, err := execute(t, "export", rec, "--format", "html", "-o", filepath.Join(dir, "r2.jsonl")); err != nil {
		t.Fatal(err) // nothing there yet
	}
	rec2 := filepath.Join(dir, "r3.jsonl")
	if _, err := runShort(t, "--out", rec2); err != nil {
		t.Fatal(err)
	}
	if _, _, err := execute(t, "export", rec, "--format", "html", "-o", rec2); err == nil {
		t.Errorf("export replaced another recording without --force")
	}
	if _, _, err := execute(t, "export", rec, "--format", "html", "-o", other, "--force"); err != nil || !isExport(other) {
		t.Errorf("--force: %v", err)
	}
	noLeftovers(t, dir)
}
