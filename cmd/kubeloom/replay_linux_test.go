package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// TestReplayColorOnATerminal writes to a real terminal (a pseudo-terminal):
// colour by default, none with NO_COLOR set.
func TestReplayColorOnATerminal(t *testing.T) {
	file := writeRecording(t, twoNodes())
	for _, tc := range []struct {
		noColor string
		color   bool
	}{{"", true}, {"1", false}, {"anything", false}} {
		t.Run("NO_COLOR="+tc.noColor, func(t *testing.T) {
			t.Setenv("NO_COLOR", tc.noColor)
			t.Setenv("TERM", "xterm")
			out := onTerminal(t, func(tty *os.File) error {
				return runReplay(&replayOptions{io: streams{out: tty, err: io.Discard}, file: file, width: 80})
			})
			if !strings.Contains(out, "pleg-relist") {
				t.Fatalf("no timeline on the terminal:\n%s", out)
			}
			if got := strings.Contains(out, "\x1b["); got != tc.color {
				t.Errorf("colour %v, want %v:\n%q", got, tc.color, out)
			}
		})
	}
}

// onTerminal runs write with a pseudo-terminal's terminal end and returns
// what it wrote.
func onTerminal(t *testing.T, write func(tty *os.File) error) string {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no pseudo-terminal to write to: %v (CI=true: this test must not be skipped)", err)
		}
		t.Skipf("no pseudo-terminal to write to: %v", err)
	}
	defer ptmx.Close()
	ioctl := func(req uintptr, arg unsafe.Pointer) error {
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, ptmx.Fd(), req, uintptr(arg)); e != 0 {
			return e
		}
		return nil
	}
	var unlock int32
	var n uint32
	if err := ioctl(syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)); err != nil {
		t.Fatalf("unlocking the pseudo-terminal: %v", err)
	}
	if err := ioctl(syscall.TIOCGPTN, unsafe.Pointer(&n)); err != nil {
		t.Fatalf("naming the pseudo-terminal: %v", err)
	}
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	read := make(chan string)
	go func() {
		b, _ := io.ReadAll(ptmx) // ends with EIO once the terminal end is closed
		read <- strings.ReplaceAll(string(b), "\r\n", "\n")
	}()
	werr := write(tty)
	tty.Close()
	out := <-read
	if werr != nil {
		t.Fatal(werr)
	}
	return out
}
