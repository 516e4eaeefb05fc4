package scenarios

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/kubeloom/kubeloom/internal/printable"
)

// Position is a place in a scenario file. Line and Column start at 1; they are 0 when unknown.
type Position struct {
	File         string
	Line, Column int
}

// String returns "file:line:column", or just the file when the line is unknown.
func (p Position) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column)
}

// Error is one problem found in a scenario file. Parse returns all of them, sorted by
// position and joined with errors.Join; use errors.As to get the first, or the joined error's
// Unwrap() []error to get each one.
type Error struct {
	Pos  Position
	Path string // the field, e.g. spec.informers[0].handlers; empty for YAML syntax errors
	Msg  string // what is wrong and what was expected
}

// Error returns "file:line:column: path: message", with what does not print written as
// visible escapes (internal/printable): a field path holds the file's keys as written, and the
// parser's messages quote what it found, so a scenario from someone else must not reach the
// terminal's control sequences through an error.
func (e *Error) Error() string {
	if e.Path == "" {
		return printable.String(e.Pos.String() + ": " + e.Msg)
	}
	return printable.String(e.Pos.String() + ": " + e.Path + ": " + e.Msg)
}

// errorList collects the problems of one file.
type errorList struct {
	errs []*Error
}

func (l *errorList) add(pos Position, path, format string, args ...any) {
	l.errs = append(l.errs, &Error{Pos: pos, Path: path, Msg: fmt.Sprintf(format, args...)})
}

// err returns the errors sorted by position (stable, so that errors at one place keep the
// order they were found in) and joined, or nil.
func (l *errorList) err() error {
	if len(l.errs) == 0 {
		return nil
	}
	slices.SortStableFunc(l.errs, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Column, b.Pos.Column))
	})
	errs := make([]error, 0, len(l.errs))
	for i, e := range l.errs {
		// The same problem can be found twice (e.g. a bad node reached by two checks).
		if i > 0 && *e == *l.errs[i-1] {
			continue
		}
		errs = append(errs, e)
	}
	return errors.Join(errs...)
}
