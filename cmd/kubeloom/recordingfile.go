package main

import (
	"io"
	"strings"

	"github.com/kubeloom/kubeloom/traces"
)

// recordingFile is the file a run records to: plain JSON Lines, or
// compressed when its name ends in .zst. It is written under a temporary
// name beside its path and takes the path when the run closes it
// (outputFile), so a run that fails to start or is killed leaves what was
// at the path.
type recordingFile struct {
	io.Writer
	file       *outputFile
	compressor *traces.CompressedWriter // nil for a plain file
	closed     bool
}

func createRecording(path string) (*recordingFile, error) {
	f, err := createOutput(path)
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

// Close ends the compressed stream, if any, and puts the recording at its
// path; if that fails, what was at the path stays. A second Close, or a
// Discard after it, does nothing.
func (rf *recordingFile) Close() error {
	if rf.closed {
		return nil
	}
	rf.closed = true
	if rf.compressor != nil {
		if err := rf.compressor.Close(); err != nil {
			rf.file.Abort()
			return err
		}
	}
	return rf.file.Commit()
}

// Discard removes a recording that was not closed: a deferred Discard
// backs up the returns of a run that ends before it has recorded.
func (rf *recordingFile) Discard() {
	if rf.closed {
		return
	}
	rf.closed = true
	if rf.compressor != nil {
		rf.compressor.Close()
	}
	rf.file.Abort()
}
