package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestSignalsEndReadsWith130And143 starts each command that reads a
// recording on one that never ends (a named pipe fed blank lines for as
// long as the command reads), sends SIGINT or SIGTERM once it has read
// megabytes, and checks that it ends with 130 or 143: the signal reaches
// the reader's loop. The real latency is far below the bound here (30 s),
// which only keeps a loaded machine from failing the test.
func TestSignalsEndReadsWith130And143(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := builtBinary(t)
	dir := t.TempDir()
	commands := [][]string{
		{"replay", "--summary"},
		{"replay"},
		{"step", "--plain"},
		{"export", "--format", "jaeger", "-o", filepath.Join(dir, "out.json")},
		{"push", "--otlp-endpoint", "http://127.0.0.1:9"},
	}
	for i, args := range commands {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			fifo := filepath.Join(dir, "endless-"+string(rune('a'+i))+sig.String()[:3]+".jsonl")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, append(args, fifo)...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			// Feed blank lines until the command stops reading (the
			// write fails), signalling it after 8 MiB.
			fed := make(chan struct{})
			go func() {
				defer close(fed)
				blank := bytes.Repeat([]byte("\n"), 64<<10)
				for n := 0; ; n++ {
					if n == 128 {
						cmd.Process.Signal(sig)
					}
					if _, err := w.Write(blank); err != nil {
						return
					}
				}
			}()
			code := exitAfterSignal(t, cmd, args, sig)
			w.Close()
			<-fed
			if want := 128 + int(sig); code != want {
				t.Errorf("%v after %v: exit status %d, want %d\n%s", args, sig, code, want, stderr.String())
			}
		}
	}
}

// TestSignalsEndABlockedRead: a read blocked in the kernel (a named pipe
// whose writer never writes) cannot see the cancelled context, so the
// command is ended signalPatience after the signal, with the same status.
// run is not ended so (it stops gracefully; TestCtrlCEndsRunWith130).
func TestSignalsEndABlockedRead(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := builtBinary(t)
	dir := t.TempDir()
	for i, args := range [][]string{{"replay", "--summary"}, {"step", "--plain"}, {"export", "--format", "html", "-o", filepath.Join(dir, "out.html")}} {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			fifo := filepath.Join(dir, "silent-"+string(rune('a'+i))+sig.String()[:3]+".jsonl")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, append(args, fifo)...)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Opening the writing end returns once the command has opened
			// the reading end: it is past its start, and then blocks
			// reading.
			w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			cmd.Process.Signal(sig)
			code := exitAfterSignal(t, cmd, args, sig)
			w.Close()
			if want := 128 + int(sig); code != want {
				t.Errorf("%v after %v: exit status %d, want %d", args, sig, code, want)
			}
		}
	}
	if matches, _ := filepath.Glob(filepath.Join(dir, ".*.partial")); len(matches) > 0 {
		t.Errorf("left behind: %v", matches)
	}
}

// exitAfterSignal waits for a command that was sent sig and returns its
// exit status (-1 if a signal killed it). The bound, 30 s, only keeps a
// loaded machine from failing the test: a command that is still running
// then is killed and reported.
func exitAfterSignal(t *testing.T, cmd *exec.Cmd, args []string, sig syscall.Signal) int {
	t.Helper()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var err error
	select {
	case err = <-exited:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		err = <-exited
		t.Errorf("%v: still running 30 s after %v", args, sig)
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.ExitCode()
	}
	t.Errorf("%v: %v", args, err)
	return -1
}
