package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/kubeloom/kubeloom/internal/printable"
	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/catalog/locale"
	"github.com/kubeloom/kubeloom/sim/engine"
	"github.com/kubeloom/kubeloom/traces/stepview"
)

func newScenariosCmd(d deps) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "scenarios",
		Short: "List, show and validate scenarios",
	}
	cmd.AddCommand(newScenariosListCmd(d, nil), newScenariosShowCmd(d, nil), newScenariosValidateCmd(d, nil))
	return cmd
}

// scenariosListOptions are what `kubeloom scenarios list` is told.
type scenariosListOptions struct {
	io   streams
	lang string
}

// newScenariosListCmd builds `kubeloom scenarios list`; runF, if not nil,
// is called with the parsed options instead of runScenariosList.
func newScenariosListCmd(d deps, runF func(*scenariosListOptions) error) *cobra.Command {
	o := &scenariosListOptions{io: d.streams}
	list := &cobra.Command{
		Use:   "list",
		Short: "List the built-in scenarios",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(o)
			}
			return runScenariosList(o)
		},
	}
	addLangFlag(list.Flags(), &o.lang, "language of the descriptions: "+locale.Choices())
	return list
}

// runScenariosList prints a table of the built-ins and their descriptions.
func runScenariosList(o *scenariosListOptions) error {
	tw := tabwriter.NewWriter(o.io.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tDESCRIPTION")
	for _, b := range scenarios.Builtins() {
		d := b.Description
		if sc, err := scenarios.Builtin(b.Name); err == nil {
			d = sc.Metadata.Text(o.lang).Description
		}
		// A cell's tabs would break the columns: printable.String.
		fmt.Fprintf(tw, "%s\t%s\n", printable.String(b.Name), printable.String(d))
	}
	return tw.Flush()
}

// scenariosShowOptions are what `kubeloom scenarios show` is told.
type scenariosShowOptions struct {
	io   streams
	name string // a built-in's name or a file
	lang string
}

// newScenariosShowCmd builds `kubeloom scenarios show`; runF, if not nil,
// is called with the parsed options instead of runScenariosShow.
func newScenariosShowCmd(d deps, runF func(*scenariosShowOptions) error) *cobra.Command {
	o := &scenariosShowOptions{io: d.streams}
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
			o.name = args[0]
			if runF != nil {
				return runF(o)
			}
			return runScenariosShow(o)
		},
	}
	addLangFlag(show.Flags(), &o.lang, "language of the description and what to watch for: "+locale.Choices())
	return show
}

// runScenariosShow prints the scenario's header and its YAML as written.
func runScenariosShow(o *scenariosShowOptions) error {
	sc, err := scenarios.Resolve(o.name)
	if err != nil {
		return err
	}
	src, err := scenarios.ResolveSource(o.name)
	if err != nil {
		return err
	}
	writeScenarioHeader(o.io.out, o.io.name(), sc, o.name, o.lang)
	// The YAML as written, made printable: a file with nothing to escape
	// (tabs and CRLF line ends are kept) is written byte for byte.
	_, err = io.WriteString(o.io.out, printable.Text(string(src)))
	return err
}

// scenariosValidateOptions are what `kubeloom scenarios validate` is told.
type scenariosValidateOptions struct {
	io                 streams
	files              []string
	allowHostManifests bool
}

// newScenariosValidateCmd builds `kubeloom scenarios validate`; runF, if
// not nil, is called with the parsed options instead of
// runScenariosValidate.
func newScenariosValidateCmd(d deps, runF func(*scenariosValidateOptions) error) *cobra.Command {
	o := &scenariosValidateOptions{io: d.streams}
	cmd := &cobra.Command{
		Use:   "validate FILE...",
		Short: "Check scenario files as run would; errors name file:line:column",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.files = args
			if runF != nil {
				return runF(o)
			}
			return runScenariosValidate(o)
		},
	}
	cmd.Flags().BoolVar(&o.allowHostManifests, "allow-host-manifests", false, allowHostManifestsHelp)
	return cmd
}

// runScenariosValidate checks each file, says ok or what is wrong, and
// fails when one is invalid.
func runScenariosValidate(o *scenariosValidateOptions) error {
	bad := 0
	for _, f := range o.files {
		sc, err := scenarios.LoadFile(f)
		if err == nil {
			// What run would refuse too: flags the era's binary
			// does not take, parts not simulated yet.
			err = engine.Check(sc, engine.AllowHostManifests(o.allowHostManifests))
		}
		if err != nil {
			printf(o.io.out, "%v\n", err) // it quotes the file
			bad++
			continue
		}
		printf(o.io.out, "%s: ok\n", f) // a file name is data too
	}
	if bad > 0 {
		return fmt.Errorf("%d of %d scenario files are invalid", bad, len(o.files))
	}
	return nil
}

// writeScenarioHeader writes what show prints above the YAML: the
// scenario's description, what to watch for and the commands to run it.
// Every line starts with "# ", so that the whole output is still a
// scenario file. The scenario's texts are made printable before they are
// wrapped (Wrap turns their newlines and tabs into spaces).
func writeScenarioHeader(w io.Writer, prog string, sc *scenarios.Scenario, arg, lang string) {
	t := sc.Metadata.Text(lang)
	l := locale.Get(lang)
	heading := [3]string{l.Text("cli.scenarios.watchFor"), l.Text("cli.scenarios.run"), l.Text("cli.scenarios.then")}
	name := printable.String(sc.Metadata.Name)
	title := name
	if t.Description != "" {
		title += " — " + printable.Text(t.Description)
	}
	for _, line := range stepview.Wrap(title, 94) {
		fmt.Fprintln(w, "# "+line)
	}
	if len(t.WatchFor) > 0 {
		fmt.Fprintf(w, "#\n# %s:\n", heading[0])
		for _, item := range t.WatchFor {
			for i, line := range stepview.Wrap(printable.Text(item), 92) {
				prefix := "#   - "
				if i > 0 {
					prefix = "#     "
				}
				fmt.Fprintln(w, prefix+line)
			}
		}
	}
	out := "recordings/" + name + ".jsonl"
	printf(w, "#\n# %s:\n#   %s run %s --out %s\n", heading[1], prog, arg, out)
	step := prog + " step " + out
	if lang != locale.Reference {
		step += " --lang " + lang
	}
	printf(w, "# %s:\n#   %s replay %s\n#   %s\n#\n", heading[2], prog, out, step)
}
