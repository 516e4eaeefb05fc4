package timelinetest

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
)

// Controls are what a hostile recording or scenario names things with:
// sequences a terminal obeys (issue 30), each starting with the character
// whose visible escape Escaped lists at the same index.
var Controls = []string{
	"\x1b]0;pwned\x07",       // OSC 0: retitles the window
	"\x1b]52;c;ZXZpbA==\x07", // OSC 52: writes the clipboard
	"\x1b[2J",                // CSI 2J: clears the screen
	"\u009b2J",               // the C1 CSI, as UTF-8
	"\x9b2J",                 // the C1 CSI as a raw byte: not UTF-8
	"\u202eevil",             // a bidirectional override: reorders the line
}

// Escaped are the visible escapes (internal/printable) that Controls'
// first characters show as.
var Escaped = []string{`\x1b]0;pwned\x07`, `\x1b]52;c;ZXZpbA==\x07`, `\x1b[2J`, `\u009b2J`, `\x9b2J`, `\u202eevil`}

// hostile is a name made of every control.
func hostile(name string) string { return name + strings.Join(Controls, "") }

// Hostile returns a recording that carries Controls in every string a
// view shows: the scenario's name, an instance's service and ID, goroutine
// names and the qualifiers of lane labels, span and event names, attribute
// keys and values, an object key and an event type.
func Hostile() []traces.Span {
	r := New(hostile("scenario")).Instance(hostile("kubelet"), hostile("node-1"))
	run := r.Span(Root, "run", 0, 60)
	act := r.Span(run, "action/"+hostile("create"), 1, 1, catalog.AttrObjectKey, hostile("default/web-0"))
	for i, inf := range []string{hostile("pods"), hostile("nodes")} {
		g := r.Goroutine(run, "informer/run", catalog.KindUntil, 0.5, 60, catalog.AttrInformer, inf, catalog.AttrGoroutinePeriod, 1.0)
		it := r.Iteration(g, "informer/run", hostile("processLoop"), 1, 2, 2.5,
			hostile("key"), hostile("value"), catalog.AttrObjectKey, hostile("default/web-0"))
		r.Event(it, hostile("event"), 2.1, catalog.AttrEventType, hostile("ADDED"), hostile("k"), hostile("v"))
		if i == 0 {
			r.Link(it, act)
		}
	}
	g := r.Goroutine(run, hostile("lesson/unknown"), hostile("go"), 3, 4)
	r.Span(g, hostile("call"), 3.5, 3.6, hostile("reason"), hostile("error: "))
	return r.Spans()
}

// Unsafe describes the first character of out that a terminal could take
// as a command: a C0 control other than '\n', DEL, a C1 control, a
// bidirectional control, U+2028 or U+2029, or a byte that is not UTF-8;
// "" when out has none. Tests of views assert it of what they print.
func Unsafe(out string) string {
	line := 1
	for i, r := range out {
		bad := ""
		switch {
		case r == '\n':
			line++
		case r == utf8.RuneError && !strings.HasPrefix(out[i:], "\ufffd"):
			bad = fmt.Sprintf("byte %#x (not UTF-8)", out[i])
		case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c,
			r == 0x2028, r == 0x2029:
			bad = fmt.Sprintf("%U", r)
		}
		if bad != "" {
			lo, hi := max(i-20, 0), min(i+20, len(out))
			return fmt.Sprintf("%s on line %d, at byte %d: %q", bad, line, i, out[lo:hi])
		}
	}
	return ""
}
