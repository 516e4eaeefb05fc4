package main

import (
	"fmt"
	"io"

	"github.com/kubeloom/kubeloom/internal/printable"
)

// printf is fmt.Fprintf for a message that quotes data (a scenario's
// names, a recording's services, an error from a reader): each argument
// is made printable (internal/printable) before it is formatted, so that
// no name can write escape sequences to the terminal. A string or a
// Stringer is one field of a line (printable.String: a newline in a name
// shows as \n); an error may be several lines (printable.Text). The
// format is kubeloom's own. Only text kubeloom styles itself (run's
// status line) is written with fmt directly.
func printf(w io.Writer, format string, a ...any) {
	safe := make([]any, len(a))
	for i, v := range a {
		switch v := v.(type) {
		case string:
			safe[i] = printable.String(v)
		case error:
			safe[i] = printable.Text(v.Error())
		case fmt.Stringer:
			safe[i] = printable.String(v.String())
		default:
			safe[i] = v
		}
	}
	fmt.Fprintf(w, format, safe...)
}
