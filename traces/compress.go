package traces

import (
	"bytes"
	"errors"
	"io"

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

// compressionLevel is zstd's fastest: on a 100-node run its files are no
// bigger than SpeedDefault's (52 bytes a span against 53) for four fifths
// of the CPU, and 9% bigger than SpeedBetterCompression's for a third
// (docs/design.md, "Compressed recordings"; BenchmarkCompress).
const compressionLevel = zstd.SpeedFastest

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
	// One goroutine: the caller's. The encoder's asynchronous mode (a
	// goroutine per block in flight) took 1.7 times the CPU for the same
	// bytes, and the Recorder already runs on the recording's own
	// goroutine, off the simulated ones. These options cannot fail.
	enc, err := zstd.NewWriter(w, zstd.WithEncoderLevel(level), zstd.WithEncoderConcurrency(1))
	if err != nil {
		panic(err)
	}
	return &CompressedWriter{enc: enc}
}

// Write compresses p, a block at a time.
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
	// Decoded on the reader's goroutine, as Read's chunk reader asks for
	// text, while its workers parse the chunks before: the decoder's own
	// asynchronous mode (goroutines decoding blocks ahead) took 1.7 times
	// the CPU and was slower on two cores.
	d := &decompressor{}
	in := &countingReader{r: rest, n: &d.read}
	if d.dec, err = zstd.NewReader(in, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(false)); err != nil {
		return nil, err
	}
	return d, nil
}

// decompressor reads a compressed recording, counting bytes in and out.
type decompressor struct {
	dec     *zstd.Decoder
	read    int64 // compressed bytes the decoder has read
	written int64 // bytes of text returned
}

// estimate is how much text the compressed bytes left would give, at the
// ratio so far (a recording's spans are much alike throughout), but at most
// maxEstimatedRatio: a file of blank lines compresses thousands of times,
// and Read sizes its array of spans from the estimate.
func (d *decompressor) estimate(compressedLeft int64) int64 {
	read := d.read
	if read == 0 || compressedLeft <= 0 {
		return 0
	}
	ratio := min(float64(d.written)/float64(read), maxEstimatedRatio)
	return int64(float64(compressedLeft) * ratio)
}

// maxEstimatedRatio is more than a recording compresses (about 30 times:
// docs/design.md, "Compressed recordings").
const maxEstimatedRatio = 64

type countingReader struct {
	r io.Reader
	n *int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	*c.n += int64(n)
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
