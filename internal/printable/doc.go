// Package printable is the one place where text from data (a recording, a
// scenario file, an error quoting either) is made safe to write to a
// terminal. A terminal takes some characters as commands: ESC starts a
// sequence that can retitle the window (OSC 0), write the clipboard (OSC
// 52) or clear the screen (CSI 2J), and so does the C1 byte 0x9b; a
// carriage return overwrites what a line said; bidirectional controls
// reorder what a reader sees. Every view that writes such text passes it
// through String (a single-line field) or Text (a message of several
// lines) first, so that those characters show as visible escapes instead.
//
// What is escaped, and how:
//
//   - C0 controls (U+0000–U+001F) and DEL (U+007F): \t, \n and \r for
//     those three, \xNN for the others (ESC is \x1b). Text, for text of
//     several lines, keeps \n, \t and the \r of a \r\n line end.
//   - C1 controls (U+0080–U+009F), written as \u0080 to \u009f.
//   - Bytes that are not UTF-8, one \xNN each (a lone 0x9b is \x9b).
//   - Format characters (Unicode's category Cf), which do not show but
//     change what is around them: the bidirectional controls U+202A–U+202E
//     and U+2066–U+2069, U+200E, U+200F and U+061C, the zero-width space
//     U+200B, the soft hyphen, U+FEFF; the line and paragraph separators
//     U+2028 and U+2029; the noncharacters (U+FDD0–U+FDEF, U+FFFE, U+FFFF
//     and their like in every plane). They are written \uXXXX, or
//     \UXXXXXXXX above U+FFFF.
//
// Three kinds of format character are kept, because text people write
// needs them and a terminal draws them as part of what they join: the
// zero-width joiner and non-joiner U+200D and U+200C (👩‍💻, Persian and
// Indic scripts) and the tag characters U+E0020–U+E007F (the flags of
// England, Scotland and Wales). Everything else is kept as it is: Chinese,
// emoji, variation selectors, combining marks, every kind of space, and
// private-use and unassigned code points, which no terminal obeys (an
// emoji newer than Go's Unicode tables is unassigned to them). Escaped
// text is measured by the same width rule as any text (docs/design.md,
// "Terminal text: one width rule").
//
// A backslash is not escaped: the output is read by people, not decoded,
// and errors that quote Go strings would double every one of theirs. So a
// name spelt with the four characters \x1b reads like one holding ESC;
// both are harmless, which is what matters here.
//
// The views' own escape sequences (lipgloss colours) are added after the
// data is made printable, and are not touched. The HTML page escapes for
// HTML instead and shows the real characters.
package printable
