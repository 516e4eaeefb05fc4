package serve

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/kubeloom/kubeloom/traces"
)

// A diskRecording is the file a session records to as it runs:
// DIR/<scenario>-<UTC time>.jsonl, or .jsonl.zst. Unlike `kubeloom run`'s,
// it is written in place under its final name, not renamed there at the
// end: it must be a valid recording while it grows, so that Ctrl-C, a
// crash or a closed tab leaves what was recorded. It is created only where
// no file is (O_EXCL): an existing file is never written over; the name
// takes -2, -3, … instead.
type diskRecording struct {
	io.Writer
	path       string
	f          *os.File
	compressor *traces.CompressedWriter // nil for plain JSON Lines
	closed     bool
}

// maxNameTries bounds the -2, -3, … suffixes tried for a free name.
const maxNameTries = 100

func createDiskRecording(dir, scenario string, now time.Time, compress bool) (*diskRecording, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("failed to create the recordings folder: %w", err)
	}
	ext := ".jsonl"
	if compress {
		ext += traces.CompressedExt
	}
	base := scenario + "-" + now.UTC().Format("20060102-150405")
	for i := 1; i <= maxNameTries; i++ {
		name := base
		if i > 1 {
			name = fmt.Sprintf("%s-%d", base, i)
		}
		path := filepath.Join(dir, name+ext)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("failed to create the recording: %w", err)
		}
		d := &diskRecording{Writer: f, path: path, f: f}
		if compress {
			d.compressor = traces.NewCompressedWriter(f)
			d.Writer = d.compressor
		}
		return d, nil
	}
	return nil, fmt.Errorf("failed to create the recording: %s%s and %d other names are taken in %s", base, ext, maxNameTries-1, dir)
}

// Flush lets the recorder end each batch in complete zstd blocks, so that
// the file is readable up to its last batch while it grows (a no-op for
// plain JSON Lines, which is not buffered).
func (d *diskRecording) Flush() error {
	if d.compressor == nil {
		return nil
	}
	return d.compressor.Flush()
}

// Close ends the compressed stream, if any, and the file.
func (d *diskRecording) Close() error {
	if d.closed {
		return nil
	}
	d.closed = true
	var cerr error
	if d.compressor != nil {
		cerr = d.compressor.Close()
	}
	return errors.Join(cerr, d.f.Close())
}
