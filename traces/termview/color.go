package termview

import (
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// ColorMode says when to colour the output: `kubeloom replay --color`.
// The zero value is ColorAuto.
type ColorMode int

// Colour modes.
const (
	// ColorAuto colours when the output is a terminal, NO_COLOR is unset
	// or empty, and TERM is not "dumb".
	ColorAuto ColorMode = iota
	// ColorAlways colours whatever the output and the environment say.
	ColorAlways
	// ColorNever never colours.
	ColorNever
)

var colorModes = []string{ColorAuto: "auto", ColorAlways: "always", ColorNever: "never"}

// String returns "auto", "always" or "never".
func (m ColorMode) String() string {
	if int(m) < len(colorModes) && m >= 0 {
		return colorModes[m]
	}
	return fmt.Sprintf("ColorMode(%d)", int(m))
}

// Set parses "auto", "always" or "never" (also "yes"/"no", "true"/"false",
// "on"/"off"); with String and Type it makes *ColorMode a command-line flag
// value (pflag.Value).
func (m *ColorMode) Set(s string) error {
	switch strings.ToLower(s) {
	case "auto", "":
		*m = ColorAuto
	case "always", "yes", "true", "on", "force":
		*m = ColorAlways
	case "never", "no", "false", "off", "none":
		*m = ColorNever
	default:
		return fmt.Errorf("%q is not a colour mode: use auto, always or never", s)
	}
	return nil
}

// Type names the flag's value type in help output.
func (m *ColorMode) Type() string { return "auto|always|never" }

// UseColor reports whether output written to w should be coloured in mode
// m. In ColorAuto that is when w is a terminal, the NO_COLOR environment
// variable is unset or empty (https://no-color.org: any other value, even
// "0", turns colour off) and TERM is not "dumb". ColorAlways and
// ColorNever ignore w and the environment: a flag on the command line wins
// over NO_COLOR.
func UseColor(m ColorMode, w io.Writer) bool {
	return useColor(m, isTerminal(w), os.Getenv)
}

func useColor(m ColorMode, terminal bool, getenv func(string) string) bool {
	switch m {
	case ColorAlways:
		return true
	case ColorNever:
		return false
	}
	return terminal && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(int(f.Fd()))
}
