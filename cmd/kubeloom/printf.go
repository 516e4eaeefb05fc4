package main

import (
	"fmt"
	"io"

	"github.com/kubeloom/kubeloom/internal/printable"
)

// printf is fmt.Fprintf for a message that quotes data (a scenario's
// names, a recording's services, an error from a reader): the message is
// made printable (internal/printable.Text) before it reaches the
// terminal, so that no name can write escape sequences to it. Only text
// kubeloom styles itself (run's status line) writes with fmt directly.
func printf(w io.Writer, format string, a ...any) {
	io.WriteString(w, printable.Text(fmt.Sprintf(format, a...)))
}
