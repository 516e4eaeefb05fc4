package traces

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// recordBatches records batches of testSpans, each span renamed with
// random digits (so that no batch repeats the one before, as a run's do
// not), one ExportSpans call each, into plain text and, through a
// CompressedWriter, into compressed bytes; ends[i] is the compressed size
// after batch i. The compressed stream is closed only if closeIt: else it
// is as a killed run leaves it.
func recordBatches(t *testing.T, batches int, closeIt bool) (plain, compressed []byte, ends []int, perBatch int) {
	t.Helper()
	base := testSpans(t)
	rnd := rand.New(rand.NewPCG(1, 2))
	var text, out bytes.Buffer
	cw := NewCompressedWriter(&out)
	plainRec, rec := NewRecorder(&text), NewRecorder(cw)
	for range batches {
		spans := make([]sdktrace.ReadOnlySpan, len(base))
		for i, s := range base {
			spans[i] = renamed{s, fmt.Sprintf("%s-%016x%016x", s.Name(), rnd.Uint64(), rnd.Uint64())}
		}
		if err := plainRec.ExportSpans(context.Background(), spans); err != nil {
			t.Fatal(err)
		}
		if err := rec.ExportSpans(context.Background(), spans); err != nil {
			t.Fatal(err)
		}
		ends = append(ends, out.Len())
	}
	if closeIt {
		if err := cw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return text.Bytes(), out.Bytes(), ends, len(base)
}

func TestCompressedRecordingReadsAsThePlainOne(t *testing.T) {
	plain, compressed, _, _ := recordBatches(t, 3, true)
	if !IsCompressed(compressed) || IsCompressed(plain) {
		t.Fatalf("IsCompressed: %v for the compressed bytes, %v for the plain ones", IsCompressed(compressed), IsCompressed(plain))
	}
	if len(compressed)*4 > len(plain) {
		t.Errorf("compressed %d bytes of %d: want at least 4 times smaller", len(compressed), len(plain))
	}
	want, err := Read(bytes.NewReader(plain), "rec.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Read(bytes.NewReader(compressed), "rec.jsonl.zst")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the compressed recording reads as %d spans unlike the plain one's %d", len(got), len(want))
	}
}

// The first bytes decide, not the name: a plain file called .zst, a
// compressed one called .jsonl, a file too short to hold a magic number.
func TestReadGoesByTheBytesNotTheName(t *testing.T) {
	plain, compressed, _, _ := recordBatches(t, 2, true)
	want, err := Read(bytes.NewReader(plain), "rec.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, data := range map[string][]byte{"plain.jsonl.zst": plain, "compressed.jsonl": compressed} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(path)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %d spans, error %v; want the %d spans of the recording", name, len(got), err, len(want))
		}
	}
	for _, short := range []string{"", "\n", "\x28\xb5\n"} {
		spans, err := Read(strings.NewReader(short), "short.jsonl")
		if len(spans) > 0 || (err == nil) != (strings.TrimSpace(short) == "") {
			t.Errorf("Read(%q): %d spans, error %v; want none, and an error for the line that is no JSON", short, len(spans), err)
		}
	}
}

// A run killed while it writes leaves a compressed file cut anywhere after
// its last flushed batch: it reads up to that batch, and says the file is
// cut off at the line after.
func TestCutCompressedRecordingReadsToItsLastBatch(t *testing.T) {
	_, compressed, ends, perBatch := recordBatches(t, 5, false)
	for k := range len(ends) {
		at, wantAtLeast := ends[k], (k+1)*perBatch // cut right after batch k: never closed
		if k+1 < len(ends) {
			at = (ends[k] + ends[k+1]) / 2 // cut inside batch k+1's blocks
		}
		spans, err := Read(bytes.NewReader(compressed[:at]), "cut.jsonl.zst")
		if len(spans) < wantAtLeast || len(spans) > wantAtLeast+perBatch {
			t.Errorf("cut at %d bytes (after batch %d): %d spans, want %d to %d", at, k+1, len(spans), wantAtLeast, wantAtLeast+perBatch)
		}
		var le *LineError
		if !errors.As(err, &le) || le.File != "cut.jsonl.zst" || le.Line != len(spans)+1 || !errors.Is(err, ErrTruncated) {
			t.Errorf("cut at %d bytes: error %v; want ErrTruncated at line %d of cut.jsonl.zst", at, err, len(spans)+1)
		}
	}
}

func TestCorruptCompressedRecordingNamesTheFile(t *testing.T) {
	_, compressed, _, _ := recordBatches(t, 4, true)
	dir := t.TempDir()
	for name, data := range map[string][]byte{
		"junk.jsonl.zst":    append(append([]byte(nil), zstdMagic...), bytes.Repeat([]byte{0xff}, 64)...),
		"garbled.jsonl.zst": garble(compressed, len(compressed)/2, 64),
		"nocrc.jsonl.zst":   garble(compressed, len(compressed)-2, 1), // the checksum at the end
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadFile(path)
		if err == nil || !strings.Contains(err.Error(), path+":") {
			t.Errorf("%s: error %v, want one naming the file and line", name, err)
		}
	}
}

type renamed struct {
	sdktrace.ReadOnlySpan
	name string
}

func (r renamed) Name() string { return r.name }

// garble returns a copy of data with n bytes from at overwritten.
func garble(data []byte, at, n int) []byte {
	out := append([]byte(nil), data...)
	for i := at; i < at+n && i < len(out); i++ {
		out[i] ^= 0xa5
	}
	return out
}

// flushCounter is a writer that buffers: the Recorder must flush it.
type flushCounter struct {
	bytes.Buffer
	flushes int
}

func (f *flushCounter) Flush() error { f.flushes++; return nil }

func TestRecorderFlushesABufferingWriterAfterEachBatch(t *testing.T) {
	spans := testSpans(t)
	var w flushCounter
	rec := NewRecorder(&w)
	for range 3 {
		if err := rec.ExportSpans(context.Background(), spans); err != nil {
			t.Fatal(err)
		}
	}
	if w.flushes != 3 {
		t.Errorf("%d flushes for 3 batches, want 3", w.flushes)
	}
}
