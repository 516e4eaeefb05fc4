// Package termview draws a timeline.Timeline as text for `kubeloom replay`:
// one row per goroutine lane, grouped by instance, with the goroutine's
// lifetime, loop iterations, calls and events laid on a shared axis of
// simulated time (Render), or a table of the lanes' iterations and spans
// (Summary). Both take a window of time and a timeline.Filter, and colour
// with lipgloss styles when asked (UseColor decides as users expect: a
// terminal, NO_COLOR, --color). The output is deterministic and every line
// fits the width asked for, measured in terminal cells as every view
// measures it (x/ansi), so it can be compared with golden files and pasted
// into notes.
package termview
