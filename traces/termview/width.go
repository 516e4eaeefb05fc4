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

// TerminalLanes returns how many lanes fit on w's screen, when w is a
// terminal tall enough to say (its rows, less the title, axes, headings
// and legend), else 0 (DefaultMaxLanes).
func TerminalLanes(w io.Writer) int {
	if f, ok := w.(interface{ Fd() uintptr }); ok {
		if _, rows, err := term.GetSize(int(f.Fd())); err == nil && rows > 20 {
			return rows - 12
		}
	}
	return 0
}
