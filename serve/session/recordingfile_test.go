package session

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/kubeloom/kubeloom/traces"
)

// A recording read back while it grows is whole spans only: a plain file's
// half-written last line and a compressed file's unfinished frame are left
// out, and what is written is the file's text up to its last batch.
func TestWriteRecordingWhileItGrows(t *testing.T) {
	lines := []byte("{\"Name\":\"a\"}\n{\"Name\":\"b\"}\n")
	half := []byte(`{"Name":"c","Spa`)
	dir := t.TempDir()

	plain := filepath.Join(dir, "r.jsonl")
	if err := os.WriteFile(plain, append(bytes.Clone(lines), half...), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := writeRecording(&out, plain); err != nil || !bytes.Equal(out.Bytes(), lines) {
		t.Errorf("plain, half a line at the end: %q, %v; want the two whole lines", out.Bytes(), err)
	}

	zst := filepath.Join(dir, "r.jsonl.zst")
	f, err := os.Create(zst)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z := traces.NewCompressedWriter(f)
	z.Write(lines)
	z.Flush() // a batch: whole blocks, the frame not ended
	out.Reset()
	if err := writeRecording(&out, zst); err != nil || !bytes.Equal(out.Bytes(), lines) {
		t.Errorf("compressed, frame not ended: %q, %v; want the two whole lines", out.Bytes(), err)
	}
	z.Write([]byte("{\"Name\":\"c\"}\n"))
	z.Close()
	out.Reset()
	if err := writeRecording(&out, zst); err != nil || bytes.Count(out.Bytes(), []byte("\n")) != 3 {
		t.Errorf("compressed, ended: %q, %v; want three lines", out.Bytes(), err)
	}
	if err := writeRecording(&out, ""); err == nil {
		t.Error("no file: no error")
	}
}
