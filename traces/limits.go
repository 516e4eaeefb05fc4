package traces

// The limits a reader puts on a line, so that no file, however made, can
// make it buffer without end, recurse until its stack overflows or take
// time out of proportion to the file (docs/trace-file.md, "Limits").

import (
	"errors"
	"fmt"
)

const (
	// maxLineLength is the longest line read, in bytes without its
	// newline: a longer one is a LineError, skipped without being held in
	// memory. A Recorder's lines are far shorter: the longest of the
	// built-in lessons is 63 KB, and a span can carry at most 1,024 events
	// of 32 attributes (sim/tracing's span limits), a few MB.
	maxLineLength = 16 << 20
	// maxNesting is how deep the JSON of a line may nest, counting each
	// value: a Recorder's nests 6 deep (span, Attributes, attribute, Value,
	// SLICE, element). It bounds the recursion of the JSON reader.
	maxNesting = 64
	// maxAttributeDepth is how deep SLICE and MAP attribute values may
	// hold one another. Each level reads its elements' text once more, so
	// it also bounds the time a value takes to a constant times its size.
	maxAttributeDepth = 8
	// maxLineErrors is how many bad lines Read describes; it counts the
	// others. A LineError takes a hundred bytes or more: a compressed
	// file of 18 KB holding 100 M bad lines asked for gigabytes of them.
	maxLineErrors = 100
)

// ErrLineTooLong is wrapped by the LineError of a line longer than a
// reader accepts. Test for it with errors.Is.
var ErrLineTooLong = errors.New("line too long")

// limitLineErrors returns the first maxLineErrors of the errors of the
// bad lines of file name, in order, and one more that says how many were
// left out: the n errors not in errs, and those past maxLineErrors.
func limitLineErrors(name string, errs []error, n int) []error {
	if len(errs) > maxLineErrors {
		n += len(errs) - maxLineErrors
		errs = errs[:maxLineErrors:maxLineErrors]
	}
	if n > 0 {
		errs = append(errs, fmt.Errorf("%s: %d more lines could not be read (only the first %d are listed)", name, n, maxLineErrors))
	}
	return errs
}

// lineTooLong is the error of a line longer than limit bytes.
func lineTooLong(limit int) error {
	return fmt.Errorf("%w: longer than %d bytes, the most a line may have (a recording's lines are at most a few MB); the line is skipped", ErrLineTooLong, limit)
}
