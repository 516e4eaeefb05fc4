package main

import (
	"errors"
	"io"
	"os"
	"strings"

	"github.com/kubeloom/kubeloom/traces"
)

// recordingFile is the file a run records to: plain JSON Lines, or
// compressed when its name ends in .zst.
type recordingFile struct {
	io.Writer
	file       *os.File
	compressor *traces.CompressedWriter // nil for a plain file
	closed     bool
}

func createRecording(path string) (*recordingFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	rf := &recordingFile{Writer: f, file: f}
	if strings.HasSuffix(path, traces.CompressedExt) {
		rf.compressor = traces.NewCompressedWriter(f)
		rf.Writer = rf.compressor
	}
	return rf, nil
}

// Flush lets the Recorder end each batch in complete zstd blocks (a no-op
// for a plain file, which is not buffered).
func (rf *recordingFile) Flush() error {
	if rf.compressor == nil {
		return nil
	}
	return rf.compressor.Flush()
}

// Close ends the compressed stream, if any, and closes the file; a second
// Close does nothing, so that a deferred Close can back up the one that
// reports errors.
func (rf *recordingFile) Close() error {
	if rf.closed {
		return nil
	}
	rf.closed = true
	var err error
	if rf.compressor != nil {
		err = rf.compressor.Close()
	}
	return errors.Join(err, rf.file.Close())
}
