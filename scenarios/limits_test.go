package scenarios

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// The files of issue 30 that made validation take gigabytes, in the YAML parser, before any
// check of kubeloom's ran: each is now refused before the parser sees it, cheaply, at the
// node past the limit.
func TestParseTooDeep(t *testing.T) {
	tests := []struct {
		name  string
		input []byte
		want  string
	}{
		{"60 KB of brackets (1.4 GB before)", deepFlow(30_000), "t.yaml:6:68: "},
		{"200 KB of brackets (out of memory before)", deepFlow(100_000), "t.yaml:6:68: "},
		{"nested flow mappings", []byte(head + "spec: {duration: 1s, x: " + strings.Repeat("{a: ", 10_000) + "1" + strings.Repeat("}", 10_000) + "}\n"), "t.yaml:4:273: "},
		{"list entries on one line", []byte(head + "spec:\n  x:\n" + strings.Repeat("- ", 10_000) + "1\n"), "t.yaml:6:127: "},
		{"indented mappings", []byte(head + "spec:\n" + indented(200)), "t.yaml:68:65: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if n := allocated(func() { _, err = Parse("t.yaml", tt.input) }); n > 16<<20 {
				t.Errorf("Parse allocated %d MB; the depth must be refused before the YAML parser runs", n>>20)
			}
			want := tt.want + "nested more than 64 levels deep here (mappings, lists and brackets inside each other); a scenario is at most 64 levels deep"
			if err == nil || err.Error() != want {
				t.Errorf("got error\n%v\nwant\n%s", err, want)
			}
		})
	}
}

// indented is n mappings each inside the last by indentation, from line 5 on, a: b: c: ...
func indented(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat(" ", i+1) + "k:\n")
	}
	return b.String()
}

// The deepest file the limit lets through parses, and the built-ins are far from the limit.
func TestParseDepthLimit(t *testing.T) {
	// spec (1), x (2), then MaxDepth-2 brackets.
	if _, err := Parse("t.yaml", deepFlow(MaxDepth-2)); err == nil || !strings.Contains(err.Error(), "spec.x: unknown field") {
		t.Errorf("a file %d levels deep: got %v, want it parsed (and spec.x reported)", MaxDepth, err)
	}
	for _, sum := range Builtins() {
		src, _ := BuiltinSource(sum.Name)
		if d := maxDepth(src); d > MaxDepth/3 {
			t.Errorf("built-in %s is %d levels deep, near the limit of %d", sum.Name, d, MaxDepth)
		}
	}
}

func TestParseTooLarge(t *testing.T) {
	big := manyObjects(4000) // 100 objects more than fit
	if len(big) <= MaxFileSize {
		t.Fatalf("the test file is only %d bytes", len(big))
	}
	const want = "t.yaml: the file is larger than 256 KiB, the most a scenario file may hold (the largest built-in is 15 KB); split it, or create fewer objects"
	if _, err := Parse("t.yaml", big); err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	// Just under the limit, the file is a scenario.
	if s, err := Parse("t.yaml", big[:strings.LastIndex(string(big[:MaxFileSize]), "\n")+1]); err != nil || len(s.Spec.Objects) < 3000 {
		t.Errorf("a file just under the limit: %v", err)
	}
}

// LoadFile reads no more of a file than the limit: 100,000 objects (8 MB) needed 1.3 GB to
// validate before.
func TestLoadFileTooLarge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(path, manyObjects(100_000), 0o644); err != nil {
		t.Fatal(err)
	}
	var err error
	// Reading the whole file would allocate at least its 8 MB; reading up to the limit takes
	// about 1 MB (more under -race).
	if n := allocated(func() { _, err = LoadFile(path) }); n > 4<<20 {
		t.Errorf("LoadFile allocated %d KB reading a file over the limit", n>>10)
	}
	var serr *Error
	if !errors.As(err, &serr) || !strings.Contains(serr.Msg, "larger than 256 KiB") || serr.Pos.File != path {
		t.Errorf("got %v, want the file named and its size refused", err)
	}
}

// What looks like nesting in text is not counted (brackets in quoted and block scalars and in
// comments), and what the parser nests is (a list at its key's column, a bracket after an
// anchor). Where unsure, scanDepth counts a level more, never one less.
func TestScanDepth(t *testing.T) {
	tests := []struct {
		yaml string
		want int
	}{
		{"a: 1\n", 2},
		{"a:\n  b:\n    c: 1\n", 4},
		{"a:\n- x\n- y\nb: 1\n", 3},
		{"a: [1, [2, {b: 3}]]\n", 4},
		{"a: '[[[['\nb: \"[[\\\"[[\"\n", 2},
		{"a: 'it''s [[\n  [[' # [[[[\n", 2},
		// A block scalar counts a level more (depth.go: the parser can nest a node in it).
		{"a: |\n  [[[[\n  {{{{\nb: >-\n  [[[\n", 3},
		{"- a: |\n    [[[[\n  b: 1\n", 4},
		{"0:\r >\r: >\r:", 3},   // the parser's tree is three deep
		{"[#]\n[]]", 2},         // goccy: a comment right after a bracket leaves it open
		{"{a:#}\n{}}", 2},       // or right after a colon inside brackets
		{"{a: b#c, d: [e]}", 2}, // but "b#c" is a scalar
		{"a: see [1] and {2}\n", 2},
		{"--- [[1]]\n", 2},
		{"a: [x, 'y]]]', [z]]\n", 3},
		{"a: {0]: {}}\n", 3},           // a ] does not close a {
		{"{s: [t: {}, u]}\n", 4},       // a pair in a list is a mapping: a level
		{"a: {s:- {n: d}, t: 1}\n", 4}, // and "- " inside brackets a list
		{"#\r- [1]\r\n- 2\r", 2},       // \r ends a line, as \n does
		{"a: |\n    x\n  [[[\n", 4},    // a line indented less than the text ends a block scalar
		{"a: &x[[1]]\n", 4},            // an anchor's name ends at a bracket
		{"%TAG ! [[1]]\n", 4},          // what follows a directive counts
		{"- &a !t # c\n0:\n", 3},
		{"-\n0:\n", 2},                     // a node under a bare "-" nests in it, even at its column
		{"a:\n- x\nb:\n- y\nc:\n- z\n", 3}, // and lists at their keys' columns do not pile up
	}
	for _, tt := range tests {
		if got := maxDepth([]byte(tt.yaml)); got != tt.want {
			t.Errorf("maxDepth(%q) = %d, want %d", tt.yaml, got, tt.want)
		}
		if d, ok := treeDepth([]byte(tt.yaml)); ok && d > tt.want {
			t.Errorf("%q: the parser built %d levels (parsed: %v), more than scanDepth measures", tt.yaml, d, ok)
		}
	}
}
