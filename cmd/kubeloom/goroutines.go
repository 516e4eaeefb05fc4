package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/kubeloom/kubeloom/internal/printable"
	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/catalog/locale"
)

// goroutinesOptions are what `kubeloom goroutines` is told.
type goroutinesOptions struct {
	io           streams
	long         bool
	format, lang string
}

// newGoroutinesCmd builds `kubeloom goroutines`; runF, if not nil, is
// called with the parsed options instead of runGoroutines.
func newGoroutinesCmd(d deps, runF func(*goroutinesOptions) error) *cobra.Command {
	o := &goroutinesOptions{io: d.streams}
	cmd := &cobra.Command{
		Use:   "goroutines",
		Short: "List the goroutine catalog as this kubeloom knows it",
		Long: `List every goroutine kubeloom can start: its catalog name, mechanism, period
and Kubernetes source. --long adds what it does (English and 中文), the
article's words (with kubeloom's English rendering of their Chinese) and how
today's Kubernetes differs. --format markdown writes
the whole catalog as the reference page docs/goroutines.md (--lang zh:
docs/zh/goroutines.md).`,
		Example: `  kubeloom goroutines
  kubeloom goroutines --long
  kubeloom goroutines --format markdown --lang zh > goroutines.zh.md`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(o)
			}
			return runGoroutines(o)
		},
	}
	cmd.Flags().BoolVarP(&o.long, "long", "l", false, "also print what each goroutine does (English and 中文), the article's words and today's differences")
	cmd.Flags().StringVar(&o.format, "format", "text", "text, or markdown: the whole catalog as a reference page")
	addLangFlag(cmd.Flags(), &o.lang, "language of --format markdown: "+locale.Choices())
	return cmd
}

// runGoroutines prints the catalog: a table, every entry at length, or
// the reference page in markdown.
func runGoroutines(o *goroutinesOptions) error {
	switch o.format {
	case "text":
	case "markdown":
		return writeCatalogMarkdown(o.io.out, o.lang)
	default:
		return fmt.Errorf("--format %q: expected text or markdown", o.format)
	}
	// The catalog is compiled in, yet its texts go through printable as
	// every view's do (printf), so that no entry can slip a control
	// character past the rule.
	if o.long {
		for _, e := range catalog.All() {
			printf(o.io.out, "%s  (%s, %s)\n", e.Name, e.Kind, period(e))
			printf(o.io.out, "  started by  %s\n  in          %s\n", e.Function, e.File)
			if e.PeriodFrom != "" {
				printf(o.io.out, "  period      %s\n", e.PeriodFrom)
			}
			if e.Article != "" {
				printf(o.io.out, "  article     %s\n", e.Article)
			}
			// What it does in every language; the rest in English.
			for _, code := range locale.Codes() {
				printf(o.io.out, "  %s\n", e.Story(code).Summary)
			}
			st := e.Story(locale.Reference)
			if st.Quote != "" {
				printf(o.io.out, "  「%s」\n", st.Quote)
			}
			if st.Rendering != "" {
				printf(o.io.out, "  (rendered in English: %s)\n", st.Rendering)
			}
			if st.Now != "" {
				printf(o.io.out, "  today: %s\n", st.Now)
			}
			printf(o.io.out, "\n")
		}
		return nil
	}
	tw := tabwriter.NewWriter(o.io.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tKIND\tPERIOD\tKUBERNETES SOURCE")
	for _, e := range catalog.All() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", printable.String(e.Name), printable.String(e.Kind), period(e), printable.String(e.File))
	}
	return tw.Flush()
}

func period(e catalog.Entry) string {
	if e.Period == 0 {
		return "event-driven"
	}
	return e.Period.String()
}
