package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/engine"
)

func newScenariosCmd(s streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "scenarios",
		Short: "List, show and validate scenarios",
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "List the built-in scenarios",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			tw := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tDESCRIPTION")
			for _, b := range scenarios.Builtins() {
				fmt.Fprintf(tw, "%s\t%s\n", b.Name, b.Description)
			}
			return tw.Flush()
		},
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "show NAME|FILE",
		Short: "Print a scenario's YAML as written (a built-in's source, with its comments); the one run would run",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := scenarios.ResolveSource(args[0])
			if err != nil {
				return err
			}
			_, err = s.out.Write(src)
			return err
		},
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "validate FILE...",
		Short: "Check scenario files as run would; errors name file:line:column",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			bad := 0
			for _, f := range args {
				sc, err := scenarios.LoadFile(f)
				if err == nil {
					// What run would refuse too: flags the era's binary
					// does not take, parts not simulated yet.
					err = engine.Check(sc)
				}
				if err != nil {
					fmt.Fprintln(s.out, err)
					bad++
					continue
				}
				fmt.Fprintf(s.out, "%s: ok\n", f)
			}
			if bad > 0 {
				return fmt.Errorf("%d of %d scenario files are invalid", bad, len(args))
			}
			return nil
		},
	})
	return cmd
}
