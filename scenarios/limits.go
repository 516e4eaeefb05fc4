package scenarios

import (
	"fmt"
	"io"
	"os"
	"unicode/utf8"
)

// Limits on the file itself, checked before the YAML parser sees it. A scenario file may come
// from anyone (a classmate, a web page), and the parser's cost is not linear: nested brackets
// or block levels cost memory quadratic in their depth (16,000 levels, 32 KB of brackets: 410
// MB), and every token costs a few hundred bytes (512 KiB of "a," nearly 240 MB). With these
// limits any file validates in well under 2 s and 256 MiB (docs/scenarios.md, "Limits").
const (
	// MaxFileSize is the largest scenario file: 17 times the largest built-in (cm-startup,
	// 15 KB), room for about 3,000 small objects.
	MaxFileSize = 256 << 10
	// MaxDepth is the deepest nesting of mappings, lists and flow brackets. The deepest
	// Kubernetes object a lesson would write (a CronJob's pod affinity) is about 20 levels
	// inside the scenario; at 64 the parser's quadratic cost is still a few kilobytes.
	MaxDepth = 64
)

// LoadFile reads and parses the scenario file at path. It reads at most one byte past
// MaxFileSize, so that a huge file is refused without being read into memory.
func LoadFile(path string) (*Scenario, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// readFile reads at most one byte more than MaxFileSize of a scenario file: enough for Parse
// to say it is too large.
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("failed to read scenario file: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("failed to read scenario file: %w", err)
	}
	return data, nil
}

// checkLimits reports a file over MaxFileSize or nested deeper than MaxDepth, before it is
// parsed. It returns false when the file must not be parsed.
func (d *decoder) checkLimits(data []byte) bool {
	if len(data) > MaxFileSize {
		d.errs.add(Position{File: d.file}, "", "the file is larger than %d KiB, the most a scenario file may hold (the largest built-in is 15 KB); split it, or create fewer objects", MaxFileSize>>10)
		return false
	}
	if line, col, msg := checkText(data); msg != "" {
		d.errs.add(Position{File: d.file, Line: line, Column: col}, "", "%s", msg)
		return false
	}
	if line, col, deep := scanDepth(data, MaxDepth); deep {
		d.errs.add(Position{File: d.file, Line: line, Column: col}, "",
			"nested more than %d levels deep here (mappings, lists and brackets inside each other); a scenario is at most %d levels deep", MaxDepth, MaxDepth)
		return false
	}
	return true
}

// checkText finds the first character YAML does not allow in a file (its c-printable set: no
// control characters but tab and line breaks) or the first byte that is not UTF-8, and says
// what is wrong with it. A raw escape sequence is thus refused where it is written, and the
// parser, which reads a NUL byte as the end of the text, never sees one; scanDepth's reading of
// the text then agrees with the parser's.
func checkText(data []byte) (line, col int, msg string) {
	line, col = 1, 1
	for len(data) > 0 {
		r, size := utf8.DecodeRune(data)
		switch {
		case r == utf8.RuneError && size == 1:
			return line, col, fmt.Sprintf("the byte %#x is not UTF-8; a scenario file is UTF-8 text", data[0])
		case !yamlPrintable(r):
			return line, col, fmt.Sprintf("the control character %+q is not allowed in YAML; in a double-quoted string, write it as an escape such as \\e or \\x00", r)
		}
		data = data[size:]
		if r == '\n' || (r == '\r' && (len(data) == 0 || data[0] != '\n')) {
			line, col = line+1, 1
		} else if r != '\r' {
			col++
		}
	}
	return 0, 0, ""
}

// yamlPrintable reports whether YAML 1.2 allows r in a file (c-printable).
func yamlPrintable(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return true
	case r < 0x20 || r == 0x7f:
		return false
	case r >= 0x80 && r < 0xa0:
		return r == 0x85
	case r >= 0xd800 && r < 0xe000, r == 0xfffe, r == 0xffff:
		return false
	}
	return true
}
