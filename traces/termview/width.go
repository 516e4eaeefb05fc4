package termview

import (
	"io"
	"os"
	"strconv"

	"golang.org/x/term"
)

// DefaultWidth is the width used when neither the terminal nor $COLUMNS tells one.
const DefaultWidth = 100

// TerminalWidth returns the width to draw for w: the terminal's columns if
// w is a terminal (an ioctl on its file descriptor), else $COLUMNS if it is
// a positive number, else DefaultWidth.
func TerminalWidth(w io.Writer) int {
	if f, ok := w.(interface{ Fd() uintptr }); ok {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return cols
		}
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return DefaultWidth
}
