package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
)

func TestExportFormats(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "run.jsonl")
	synctest.Test(t, func(t *testing.T) {
		if _, _, err := executeInBubble(t, "run", "informer-basics", "--duration", "10s", "--out", rec, "-q"); err != nil {
			t.Fatal(err)
		}
	})
	for format, file := range map[string]string{"html": "run.html", "jaeger": "run.jaeger.json", "chrome": "run.chrome.json"} {
		out, _, err := execute(t, "export", rec, "--format", format)
		if err != nil || !strings.Contains(out, "wrote "+filepath.Join(dir, file)) {
			t.Errorf("export --format %s: %v %q", format, err, out)
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(filepath.Join(dir, file)); err != nil || fi.Mode().Perm() != 0o644 {
			t.Errorf("export --format %s: the file's mode is %v, want -rw-r--r-- (a document to share)", format, fi.Mode().Perm())
		}
		switch format {
		case "html":
			if !strings.Contains(string(data), "<html") || strings.Contains(string(data), "http://") && strings.Contains(string(data), "<script src=") {
				t.Errorf("the HTML export is not a self-contained page")
			}
		default:
			if !json.Valid(data) {
				t.Errorf("%s export is not valid JSON", format)
			}
		}
	}
	if _, _, err := execute(t, "export", rec, "--format", "svg"); err == nil || !strings.Contains(err.Error(), "expected html, jaeger or chrome") {
		t.Errorf("a bad format: %v", err)
	}
}

func TestNewExportCmd(t *testing.T) {
	checkFlags(t, newExportCmd, deps{}, []flagCase[exportOptions]{{
		name: "html beside the recording",
		args: []string{"run.jsonl", "--format", "html"},
		want: exportOptions{file: "run.jsonl", format: "html"},
	}, {
		name: "to stdout",
		args: []string{"run.jsonl", "--format", "chrome", "-o", "-"},
		want: exportOptions{file: "run.jsonl", format: "chrome", out: "-"},
	}, {
		name: "jaeger to a file",
		args: []string{"run.jsonl", "--format", "jaeger", "--out", "trace.json"},
		want: exportOptions{file: "run.jsonl", format: "jaeger", out: "trace.json"},
	}, {
		name: "no format",
		args: []string{"run.jsonl"},
		err:  `--format "": expected html, jaeger or chrome`,
	}, {
		name: "unknown format",
		args: []string{"run.jsonl", "--format", "svg"},
		err:  `--format "svg": expected html, jaeger or chrome`,
	}, {
		name: "no file",
		args: []string{"--format", "html"},
		err:  "accepts 1 arg(s), received 0",
	}})
}
