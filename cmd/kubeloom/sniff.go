package main

import (
	"bytes"
	"io"
	"os"

	"github.com/kubeloom/kubeloom/traces"
)

// What kubeloom may replace without --force is a file of the kind the
// command writes, recognised by its first bytes (and last, for the JSON
// exports, whose kubeloom marks come at the end): a recording for run, an
// export for export, a Go execution trace for --go-trace. Anything else (a
// scenario, a notes file, a page someone else made) needs --force.

// sniffSize is how much of a file is read to recognise it: more than the
// first line of any recording (one span) needs, and a few reads at most.
const sniffSize = 1 << 20

// isRecording reports whether the file at path begins with a span, as a
// kubeloom recording (plain or compressed) does.
func isRecording(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	text, err := traces.Decompress(io.LimitReader(f, sniffSize))
	if err != nil {
		return false
	}
	defer text.Close()
	head, _ := io.ReadAll(io.LimitReader(text, sniffSize))
	head = bytes.TrimLeft(head, " \t\r\n")
	line, _, complete := bytes.Cut(head, []byte("\n"))
	if !complete {
		return false
	}
	spans, err := traces.Read(bytes.NewReader(line), path)
	return err == nil && len(spans) == 1
}

// isExport reports whether the file at path is a page or a JSON file that
// `kubeloom export` wrote, in any of its formats.
func isExport(path string) bool {
	head, tail, err := headTail(path, 4<<10)
	if err != nil {
		return false
	}
	switch {
	case bytes.Contains(head, []byte(`<meta name="generator" content="kubeloom">`)):
		return true
	case bytes.HasPrefix(head, []byte(`{"data":[`)):
		// Jaeger JSON: each trace's processes carry kubeloom's tags.
		return bytes.Contains(tail, []byte(`"key":"kubeloom.`))
	case bytes.HasPrefix(head, []byte(`{"traceEvents":[`)):
		return bytes.Contains(tail, []byte(`"otherData":{"generator":"kubeloom"`))
	}
	return false
}

// isGoTrace reports whether the file at path is a Go execution trace
// (runtime/trace writes "go 1.N trace" and NULs first).
func isGoTrace(path string) bool {
	head, _, err := headTail(path, 16)
	return err == nil && bytes.HasPrefix(head, []byte("go 1.")) && bytes.Contains(head, []byte(" trace\x00"))
}

// headTail returns up to n bytes from the start and from the end of the
// file at path.
func headTail(path string, n int64) (head, tail []byte, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	head = make([]byte, min(n, fi.Size()))
	if _, err := io.ReadFull(f, head); err != nil {
		return nil, nil, err
	}
	tail = make([]byte, min(n, fi.Size()))
	if _, err := f.ReadAt(tail, fi.Size()-int64(len(tail))); err != nil && err != io.EOF {
		return nil, nil, err
	}
	return head, tail, nil
}
