package session

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/kubeloom/kubeloom/traces"
)

// writeRecording writes the recording so far, plain JSON Lines, from the
// file the run writes (path): plain or zstd-compressed, read back as it
// grows. The recorder writes whole lines per batch and flushes compressed
// blocks after each, so the file always holds whole spans up to its last
// batch; a batch being written (half a line, a block not yet whole) is left
// out, so that what is written is always a valid recording.
//
// Reading the file back costs nothing while the run goes on. A copy kept in
// memory for downloads did, even compressed: a 100-node session took a
// quarter longer with it (docs/design.md, "A live session").
func writeRecording(w io.Writer, path string) error {
	if path == "" {
		return errors.New("this session's recording is not in a file")
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r, err := traces.Decompress(f)
	if err != nil {
		return err
	}
	defer r.Close()
	br := bufio.NewReaderSize(r, 1<<16)
	bw := bufio.NewWriterSize(w, 1<<16)
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A line longer than the buffer: copy it whole or not at all.
			long := bytes.Clone(line)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err != nil {
			// The end of what is written so far: a last line without its
			// newline, or a compressed frame not yet ended, is a batch
			// being written.
			if err == io.EOF || errors.Is(err, traces.ErrTruncated) || errors.Is(err, io.ErrUnexpectedEOF) {
				return bw.Flush()
			}
			return fmt.Errorf("reading the recording %s: %w", path, err)
		}
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
}
