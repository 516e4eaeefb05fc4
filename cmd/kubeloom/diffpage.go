package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/diff"
	"github.com/kubeloom/kubeloom/traces/htmlview"
)

// diffPageName is where `diff --format html` writes by default: beside A,
// A's name with -diff.html (run.jsonl.zst → run-diff.html), which is never
// a recording's name.
func diffPageName(a string) string {
	base := strings.TrimSuffix(a, traces.CompressedExt)
	return strings.TrimSuffix(base, filepath.Ext(base)) + "-diff.html"
}

// writeDiffPage writes the comparison's page where o.out says, through a
// temporary file as export does: a failure leaves what was there.
func writeDiffPage(o *diffOptions, a, b diff.Side, r diff.Report) error {
	names := htmlview.DiffNames{A: side(o.a, o.selA), B: side(o.b, o.selB)}
	if o.out == "-" {
		return htmlview.WriteDiff(o.io.out, a, b, names, r)
	}
	tmp, err := createOutput(o.out)
	if err != nil {
		return fmt.Errorf("failed to create %s: %w", o.out, err)
	}
	defer tmp.Abort()
	if err := htmlview.WriteDiff(tmp, a, b, names, r); err != nil {
		return fmt.Errorf("failed to write the comparison of %s and %s: %w", o.a, o.b, err)
	}
	if err := tmp.Commit(); err != nil {
		return fmt.Errorf("failed to write %s: %w", o.out, err)
	}
	printf(o.io.err, "wrote %s\n", o.out) // stdout stays the report's: empty here
	return nil
}
