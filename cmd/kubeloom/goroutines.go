package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/kubeloom/kubeloom/sim/catalog"
)

func newGoroutinesCmd(s streams) *cobra.Command {
	var long bool
	cmd := &cobra.Command{
		Use:   "goroutines",
		Short: "List the goroutine catalog as this kubeloom knows it",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if long {
				for _, e := range catalog.All() {
					fmt.Fprintf(s.out, "%s  (%s, %s)\n", e.Name, e.Kind, period(e))
					fmt.Fprintf(s.out, "  started by  %s\n  in          %s\n", e.Function, e.File)
					if e.Article != "" {
						fmt.Fprintf(s.out, "  article     %s\n", e.Article)
					}
					fmt.Fprintf(s.out, "  %s\n  %s\n", e.Summary, e.SummaryZH)
					if e.Quote != "" {
						fmt.Fprintf(s.out, "  「%s」\n", e.Quote)
					}
					if e.Now != "" {
						fmt.Fprintf(s.out, "  today: %s\n", e.Now)
					}
					fmt.Fprintln(s.out)
				}
				return nil
			}
			tw := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tKIND\tPERIOD\tKUBERNETES SOURCE")
			for _, e := range catalog.All() {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", e.Name, e.Kind, period(e), e.File)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVarP(&long, "long", "l", false, "also print what each goroutine does (English and 中文), the article's words and today's differences")
	return cmd
}

func period(e catalog.Entry) string {
	if e.Period == 0 {
		return "event-driven"
	}
	return e.Period.String()
}
