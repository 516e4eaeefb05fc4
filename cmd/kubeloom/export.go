package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/export"
	"github.com/kubeloom/kubeloom/traces/htmlview"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// exportFormats are the formats of `kubeloom export`, with the file
// suffix each gets by default.
var exportFormats = map[string]string{
	"html":   ".html",
	"jaeger": ".jaeger.json",
	"chrome": ".chrome.json",
}

// exportOptions are what `kubeloom export` is told: its argument and
// flags, and the streams it reports on (and writes to with -o -).
type exportOptions struct {
	io  streams
	ctx context.Context // the command's, done after SIGINT or SIGTERM; nil: none

	file, format, out string
	force             bool
}

// newExportCmd builds `kubeloom export`; runF, if not nil, is called with
// the parsed options instead of runExport (tests of the flags).
func newExportCmd(d deps, runF func(*exportOptions) error) *cobra.Command {
	o := &exportOptions{io: d.streams}
	cmd := &cobra.Command{
		Use:   "export FILE --format html|jaeger|chrome [-o OUT]",
		Short: "Write a recording as a self-contained HTML timeline, Jaeger JSON or a Chrome/Perfetto trace",
		Long: `Write a recording in another format:

  html    one self-contained page (no network): the lanes on a canvas in groups
          (folded above 60 lanes; click, e or E to unfold), a search over
          goroutines, objects and components, zoom at the pointer and z to the
          current step, an overview strip, arrows from causes to effects, a
          step-through with each goroutine's story in English or 中文, and a URL
          that keeps the view for a bookmark. Open it in any browser.
  jaeger  Jaeger JSON (the shape of Jaeger's /api/traces), which Jaeger UI's
          "Upload JSON" opens.
  chrome  Chrome trace JSON for ui.perfetto.dev or chrome://tracing: goroutines
          as threads, iterations as slices, causal links as flows.

Lines of the recording that cannot be read are reported; the rest is exported.`,
		Example: `  kubeloom export recordings/informer-basics.jsonl --format html                     # writes recordings/informer-basics.html
  kubeloom export recordings/informer-basics.jsonl --format html -o timeline.html
  kubeloom export recordings/informer-basics.jsonl --format jaeger                   # writes recordings/informer-basics.jaeger.json
  kubeloom export recordings/informer-basics.jsonl --format chrome -o - > trace.json # to stdout`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.file = args[0]
			if _, ok := exportFormats[o.format]; !ok {
				return fmt.Errorf("--format %q: expected html, jaeger or chrome", o.format)
			}
			if runF != nil {
				return runF(o)
			}
			o.ctx = cmd.Context()
			return runExport(o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "", "html, jaeger or chrome (required)")
	f.BoolVar(&o.force, "force", false, "replace an existing output file that is not a kubeloom export; never the recording itself")
	f.StringVarP(&o.out, "out", "o", "", "output file, - for stdout (default: FILE with the format's suffix: .html, .jaeger.json, .chrome.json)")
	return cmd
}

// runExport writes the recording in the format asked, beside it or where
// -o says.
func runExport(o *exportOptions) error {
	out := o.out
	if out == "" {
		base := strings.TrimSuffix(o.file, traces.CompressedExt) // run.jsonl.zst → run.html
		out = strings.TrimSuffix(base, filepath.Ext(base)) + exportFormats[o.format]
	}
	if out != "-" {
		// Checked before reading: a big recording takes a while, and the
		// answer does not depend on it.
		c := outputCheck{flag: "-o", reads: []string{o.file}, force: o.force, ours: isExport}
		if err := c.check(out); err != nil {
			return err
		}
	}
	ctx := cmp.Or(o.ctx, context.Background())
	spans, done, err := readShown(ctx, o.file, traces.ReadOptions{}, o.io.err, "; exporting the rest")
	defer done()
	if err != nil {
		return err
	}
	n := len(spans)
	var write func(w io.Writer) error
	switch o.format {
	case "jaeger":
		write = func(w io.Writer) error { return export.Jaeger(w, spans) }
	case "chrome":
		write = func(w io.Writer) error { return export.Chrome(w, spans) }
	default:
		// The page is made from the timeline alone: once it is built, the
		// spans (a third of what a big recording takes) are garbage, and
		// the collector may have them back while the page is encoded,
		// which takes one goroutine and leaves it the other CPUs.
		tl, err := timeline.BuildContext(ctx, spans)
		if err != nil {
			return err
		}
		spans = nil
		done()
		write = func(w io.Writer) error { return htmlview.Write(w, tl) }
	}
	if out == "-" {
		return write(o.io.out)
	}
	tmp, err := createOutput(out)
	if err != nil {
		return fmt.Errorf("failed to create %s: %w", out, err)
	}
	defer tmp.Abort()
	if err := write(tmp); err != nil {
		return fmt.Errorf("failed to export %s as %s: %w", o.file, o.format, err)
	}
	if err := tmp.Commit(); err != nil {
		return fmt.Errorf("failed to write %s: %w", out, err)
	}
	printf(o.io.out, "wrote %s (%s, %d spans)\n", out, o.format, n) // out may be named after the recording
	return nil
}
