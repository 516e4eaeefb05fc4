package htmlview

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeloom/kubeloom/traces/htmlview/internal/bundle"
)

// The bundles are committed (go build needs only Go): a change of the
// modules without its bundles fails here.
func TestBundlesAreUpToDate(t *testing.T) {
	want, err := bundle.Build("assets")
	if err != nil {
		t.Fatalf("bundling assets/js: %v", err)
	}
	for name, b := range want {
		got, ok := Script(name)
		if !ok {
			t.Errorf("assets/dist/%s is missing: run make assets", name)
		} else if got != string(b) {
			t.Errorf("assets/dist/%s is not the bundle of assets/js/entry-%s: run make assets", name, name)
		}
	}
	have, err := filepath.Glob(filepath.Join("assets", "dist", "*.js"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range have {
		if _, ok := want[filepath.Base(f)]; !ok {
			t.Errorf("%s has no entry in assets/js: run make assets", f)
		}
	}
	if _, ok := want["export.js"]; !ok {
		t.Error("there is no export.js: assets/js/entry-export.js is the export page's entry")
	}
}

// Bundling twice gives the same bytes: a bundle that changed with every
// build would never be up to date.
func TestBundleIsDeterministic(t *testing.T) {
	a, err := bundle.Build("assets")
	if err != nil {
		t.Fatal(err)
	}
	b, err := bundle.Build("assets")
	if err != nil {
		t.Fatal(err)
	}
	for name := range a {
		if !bytes.Equal(a[name], b[name]) {
			t.Errorf("two builds of %s differ", name)
		}
	}
}

// A module that does not bundle (an import of nothing) is an error that
// names the module.
func TestBundleErrorsNameTheModule(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "js"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "js", "entry-x.js"), []byte("import { nothing } from './data.js';\nnothing();\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "js", "data.js"), []byte("export const something = 1;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := bundle.Build(dir)
	if err == nil || !strings.Contains(err.Error(), "entry-x.js:1") {
		t.Errorf("bundling an import of nothing: %v, want an error at entry-x.js:1", err)
	}
}

func TestScript(t *testing.T) {
	s, ok := Script("export.js")
	if !ok || !strings.HasPrefix(s, bundle.Banner) {
		t.Errorf(`Script("export.js") = %.40q, %v; want the export page's bundle`, s, ok)
	}
	for _, bad := range []string{"nothing.js", "../page.html", "dist/export.js", ""} {
		if _, ok := Script(bad); ok {
			t.Errorf("Script(%q) found a script", bad)
		}
	}
	if !strings.Contains(Style(), "#canvas") {
		t.Error("Style() is not the page's style sheet")
	}
}

// The live page holds the timeline's markup, page.html's own: every element
// the timeline's modules look up, once.
func TestServePageHoldsTheTimeline(t *testing.T) {
	page := ServePage()
	for _, id := range []string{`id="bar"`, `id="canvas"`, `id="narrative"`, `id="details"`, `id="follow"`, `id="live-bar"`} {
		if n := strings.Count(page, id); n != 1 {
			t.Errorf("the live page has %s %d times, want once", id, n)
		}
	}
	if strings.Contains(page, "{{TIMELINE}}") || strings.Contains(page, "kubeloom-data") {
		t.Error("the live page kept the marker, or took the export page's data script")
	}
}
