package traces

import (
	"bytes"
	"errors"
	"io"
	"sync/atomic"

	"github.com/klauspost/compress/zstd"
)

// CompressedExt ends the name of a compressed recording
// (FILE.jsonl.zst): `kubeloom run` compresses when --out ends in it.
// Readers do not go by the name but by the first bytes (see Decompress).
const CompressedExt = ".zst"

// zstdMagic starts every zstd frame (RFC 8878, section 3.1.1).
var zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}

// IsCompressed reports whether data, the start of a file, is zstd.
func IsCompressed(data []byte) bool { return bytes.HasPrefix(data, zstdMagic) }

// compressionLevel: SpeedDefault makes about 10% bigger files than
// SpeedBetterCompression for half the encoding CPU (see docs/design.md,
// "Compressed recordings").
var compressionLevel = zstd.SpeedDefault

// CompressedWriter compresses a recording with zstd as it is written. The
// Recorder calls Flush after each batch of spans, so that every batch it
// has written is in complete zstd blocks: a run that is killed leaves a
// file that reads up to its last batch. Close ends the stream; it does not
// close the underlying writer.
type CompressedWriter struct {
	enc *zstd.Encoder
}

// NewCompressedWriter returns a CompressedWriter writing to w.
func NewCompressedWriter(w io.Writer) *CompressedWriter {
	return newCompressedWriter(w, compressionLevel)
}

func newCompressedWriter(w io.Writer, level zstd.EncoderLevel) *CompressedWriter {
	// Only options that cannot fail: the error is always nil.
	enc, err := zstd.NewWriter(w, zstd.WithEncoderLevel(level))
	if err != nil {
		panic(err)
	}
	return &CompressedWriter{enc: enc}
}

// Write compresses p; the encoder works on the last block while the caller
// fills the next.
func (c *CompressedWriter) Write(p []byte) (int, error) { return c.enc.Write(p) }

// Flush writes out everything written so far as complete blocks.
func (c *CompressedWriter) Flush() error { return c.enc.Flush() }

// Close flushes and ends the zstd frame (with its checksum).
func (c *CompressedWriter) Close() error { return c.enc.Close() }

// Decompress returns the text of a recording read from r: r itself when it
// is plain JSON Lines, or r decompressed when it starts with zstd's magic
// number, whatever the file is called. Close the result when done (it stops
// the decoder's goroutines; it does not close r). Read names the file and
// line of an error decompressing; a truncated stream is ErrTruncated.
func Decompress(r io.Reader) (io.ReadCloser, error) {
	head := make([]byte, len(zstdMagic))
	n, err := io.ReadFull(r, head)
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return io.NopCloser(bytes.NewReader(head[:n])), nil
	case err != nil:
		return nil, err
	}
	rest := io.MultiReader(bytes.NewReader(head), r)
	if !IsCompressed(head) {
		return io.NopCloser(rest), nil
	}
	// Blocks are decoded ahead on other goroutines (up to 4, or
	// GOMAXPROCS) while the caller parses what is decoded.
	d := &decompressor{}
	in := &countingReader{r: rest, n: &d.read}
	if d.dec, err = zstd.NewReader(in, zstd.WithDecoderLowmem(false)); err != nil {
		return nil, err
	}
	return d, nil
}

// decompressor reads a compressed recording, counting bytes in and out.
type decompressor struct {
	dec     *zstd.Decoder
	read    atomic.Int64 // compressed bytes the decoder has read (on its goroutines)
	written int64        // bytes of text returned
}

// estimate is how much text the compressed bytes left would give, at the
// ratio so far (a recording's spans are much alike throughout).
func (d *decompressor) estimate(compressedLeft int64) int64 {
	read := d.read.Load()
	if read == 0 || compressedLeft <= 0 {
		return 0
	}
	return int64(float64(compressedLeft) * float64(d.written) / float64(read))
}

type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

func (d *decompressor) Read(p []byte) (int, error) {
	n, err := d.dec.Read(p)
	d.written += int64(n)
	if err != nil && err != io.EOF {
		err = &compressedError{err}
	}
	return n, err
}

func (d *decompressor) Close() error {
	d.dec.Close()
	return nil
}

// compressedError is an error decompressing a recording. One that ends
// early is ErrTruncated, as a plain recording cut in the middle of a line
// is: the file was cut off while it was written.
type compressedError struct{ err error }

func (e *compressedError) Error() string {
	if e.truncated() {
		return "the compressed recording ends early, cut off while it was written (" + e.err.Error() + ")"
	}
	return "corrupt compressed recording: " + e.err.Error()
}

func (e *compressedError) truncated() bool { return errors.Is(e.err, io.ErrUnexpectedEOF) }

func (e *compressedError) Is(target error) bool { return target == ErrTruncated && e.truncated() }

func (e *compressedError) Unwrap() error { return e.err }
