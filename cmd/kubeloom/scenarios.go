package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/catalog/locale"
	"github.com/kubeloom/kubeloom/sim/engine"
	"github.com/kubeloom/kubeloom/traces/stepview"
)

func newScenariosCmd(s streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "scenarios",
		Short: "List, show and validate scenarios",
	}
	var listLang string
	list := &cobra.Command{
		Use:   "list",
		Short: "List the built-in scenarios",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkLang(listLang); err != nil {
				return err
			}
			tw := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tDESCRIPTION")
			for _, b := range scenarios.Builtins() {
				d := b.Description
				if sc, err := scenarios.Builtin(b.Name); err == nil {
					d = sc.Metadata.Text(listLang).Description
				}
				fmt.Fprintf(tw, "%s\t%s\n", b.Name, d)
			}
			return tw.Flush()
		},
	}
	list.Flags().StringVar(&listLang, "lang", locale.Reference, "language of the descriptions: "+locale.Choices())
	cmd.AddCommand(list)

	var showLang string
	show := &cobra.Command{
		Use:   "show NAME|FILE",
		Short: "Print a scenario: its description, what to watch for, and its YAML as written (a built-in's source, with its comments)",
		Long: `Print a scenario: what it shows, what to watch for in its recording and how
to run it (in English, or in Chinese with --lang zh), then its YAML as written:
for a built-in, its source with its comments, which is the file run would run.`,
		Example: `  kubeloom scenarios show kubelet-startup
  kubeloom scenarios show informer-basics --lang zh
  kubeloom scenarios show goroutine-leak > my-scenario.yaml && kubeloom scenarios show my-scenario.yaml`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkLang(showLang); err != nil {
				return err
			}
			sc, err := scenarios.Resolve(args[0])
			if err != nil {
				return err
			}
			src, err := scenarios.ResolveSource(args[0])
			if err != nil {
				return err
			}
			writeScenarioHeader(s.out, s.name(), sc, args[0], showLang)
			_, err = s.out.Write(src)
			return err
		},
	}
	show.Flags().StringVar(&showLang, "lang", locale.Reference, "language of the description and what to watch for: "+locale.Choices())
	cmd.AddCommand(show)
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

// checkLang accepts the languages of sim/catalog/locale, a folder each.
func checkLang(lang string) error {
	if _, err := locale.Check(lang); err != nil || lang == "" {
		return fmt.Errorf("--lang %q: expected %s", lang, locale.Choices())
	}
	return nil
}

// writeScenarioHeader writes what show prints above the YAML: the
// scenario's description, what to watch for and the commands to run it.
// Every line starts with "# ", so that the whole output is still a
// scenario file.
func writeScenarioHeader(w io.Writer, prog string, sc *scenarios.Scenario, arg, lang string) {
	t := sc.Metadata.Text(lang)
	l := locale.Get(lang)
	heading := [3]string{l.Text("cli.scenarios.watchFor"), l.Text("cli.scenarios.run"), l.Text("cli.scenarios.then")}
	title := sc.Metadata.Name
	if t.Description != "" {
		title += " — " + t.Description
	}
	for _, line := range stepview.Wrap(title, 94) {
		fmt.Fprintln(w, "# "+line)
	}
	if len(t.WatchFor) > 0 {
		fmt.Fprintf(w, "#\n# %s:\n", heading[0])
		for _, item := range t.WatchFor {
			for i, line := range stepview.Wrap(item, 92) {
				prefix := "#   - "
				if i > 0 {
					prefix = "#     "
				}
				fmt.Fprintln(w, prefix+line)
			}
		}
	}
	out := "recordings/" + sc.Metadata.Name + ".jsonl"
	fmt.Fprintf(w, "#\n# %s:\n#   %s run %s --out %s\n", heading[1], prog, arg, out)
	step := prog + " step " + out
	if lang != locale.Reference {
		step += " --lang " + lang
	}
	fmt.Fprintf(w, "# %s:\n#   %s replay %s\n#   %s\n#\n", heading[2], prog, out, step)
}
