package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// isCompressedFile reports whether the file at path starts with zstd's magic.
func isCompressedFile(t *testing.T, path string) bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	head := make([]byte, 4)
	n, _ := f.Read(head)
	return traces.IsCompressed(head[:n])
}

// TestCompressedRunReplays: --out FILE.jsonl.zst and --compress record
// the run zstd-compressed, the same run as a plain recording; replay, step
// and export read it.
func TestCompressedRunReplays(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "basics.jsonl")
	for _, tc := range []struct{ args []string }{
		{[]string{"--out", plain}},
		{[]string{"--out", filepath.Join(dir, "named.jsonl.zst")}},
		{[]string{"--out", filepath.Join(dir, "flag.jsonl"), "--compress"}},     // .zst added
		{[]string{"--out", filepath.Join(dir, "both.jsonl.zst"), "--compress"}}, // not twice
	} {
		synctest.Test(t, func(t *testing.T) {
			args := append([]string{"run", "informer-basics", "-q"}, tc.args...)
			if _, stderr, err := executeInBubble(t, args...); err != nil {
				t.Fatalf("%v: %v\n%s", args, err, stderr)
			}
		})
	}
	want := shapeOf(t, plain)
	if len(want) == 0 {
		t.Fatal("the plain recording has no shape")
	}
	plainSize := fileSize(t, plain)
	for _, name := range []string{"named.jsonl.zst", "flag.jsonl.zst", "both.jsonl.zst"} {
		path := filepath.Join(dir, name)
		if !isCompressedFile(t, path) || fileSize(t, path)*4 > plainSize {
			t.Errorf("%s: compressed %v, %d bytes (the plain recording has %d); want zstd, at least 4 times smaller",
				name, isCompressedFile(t, path), fileSize(t, path), plainSize)
			continue
		}
		if got := shapeOf(t, path); !slices.Equal(got, want) {
			t.Errorf("%s: the compressed run has another shape than the plain one", name)
		}
	}

	rec := filepath.Join(dir, "named.jsonl.zst")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"replay", rec, "--width", "100"}, "reflector/list-watch"},
		{[]string{"step", rec, "--plain"}, "reflector/list-watch"},
		{[]string{"export", rec, "--format", "chrome"}, "wrote " + filepath.Join(dir, "named.chrome.json")},
	} {
		out, stderr, err := execute(t, tc.args...)
		if err != nil || stderr != "" || !strings.Contains(out, tc.want) {
			t.Errorf("%v: error %v, stderr %q, output has %q: %v", tc.args, err, stderr, tc.want, strings.Contains(out, tc.want))
		}
	}
}

// A compressed recording cut off while it was written (the run killed)
// replays up to its last flushed batch, warning about the file and line;
// one whose bytes are garbled is an error naming the file.
func TestCutAndCorruptCompressedRecordings(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "run.jsonl.zst")
	synctest.Test(t, func(t *testing.T) {
		if _, stderr, err := executeInBubble(t, "run", "informer-basics", "-q", "--out", rec); err != nil {
			t.Fatalf("run: %v\n%s", err, stderr)
		}
	})
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.jsonl.zst")
	if err := os.WriteFile(cut, data[:len(data)*3/4], 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := execute(t, "replay", cut, "--width", "80")
	if err != nil || !strings.Contains(stderr, cut+":") || !strings.Contains(stderr, "cut off") || !strings.Contains(out, "listener-pop") {
		t.Errorf("replay of a cut compressed recording: error %v, stderr %q, timeline drawn: %v", err, stderr, strings.Contains(out, "listener-pop"))
	}

	garbled := filepath.Join(dir, "garbled.jsonl.zst")
	bad := append([]byte(nil), data[:16]...)
	bad = append(bad, make([]byte, 64)...)
	if err := os.WriteFile(garbled, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := execute(t, "replay", garbled); err == nil || !strings.Contains(err.Error(), garbled+":") {
		t.Errorf("replay of a garbled compressed recording: error %v, want one naming the file", err)
	}
}

func shapeOf(t *testing.T, path string) []string {
	t.Helper()
	spans, err := traces.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return timeline.Shape(timeline.Build(spans))
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}
