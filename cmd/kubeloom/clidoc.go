package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeloom/kubeloom/sim/catalog/locale"
)

// writeCLIReference writes the reference of root and its subcommands in
// lang: docs.yaml's intro and a table of what each command does (its
// cli.purposes), then every command's help as the program prints it,
// which is English in every language.
func writeCLIReference(w io.Writer, root *cobra.Command, lang string) error {
	l := locale.Get(lang)
	var b strings.Builder
	b.WriteString(l.Format("docs.cli.intro", locale.Args{"languages": otherLanguages(lang, "cli.md")}))
	cmds := visibleCommands(root)
	fmt.Fprintf(&b, "\n| %s | %s |\n|---|---|\n", l.Text("docs.cli.command"), l.Text("docs.cli.purpose"))
	for _, c := range cmds {
		key := purposeKey(c)
		if !l.Has(key) {
			return fmt.Errorf("no purpose of %q in sim/catalog/locale/%s/docs.yaml: add it to cli.purposes in every language", c.CommandPath(), lang)
		}
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s |\n", c.CommandPath(), anchor(c.CommandPath()), l.Text(key))
	}
	for _, c := range cmds {
		fmt.Fprintf(&b, "\n## %s\n\n", c.CommandPath())
		fmt.Fprintf(&b, "%s\n", c.Short)
		fmt.Fprintf(&b, "\n```text\n%s\n```\n", strings.TrimSpace(c.UseLine()))
		if strings.TrimSpace(c.Long) != "" {
			// As the program prints it: its line breaks and indents matter.
			fmt.Fprintf(&b, "\n```text\n%s\n```\n", strings.TrimSpace(c.Long))
		}
		if c.Example != "" {
			fmt.Fprintf(&b, "\nExamples:\n\n```sh\n%s\n```\n", strings.TrimRight(dedent(c.Example), "\n"))
		}
		if f := c.NonInheritedFlags().FlagUsages(); strings.TrimSpace(f) != "" {
			fmt.Fprintf(&b, "\nFlags:\n\n```text\n%s\n```\n", strings.TrimRight(f, "\n"))
		}
		if c.HasAvailableSubCommands() {
			b.WriteString("\nCommands:\n\n")
			for _, sub := range c.Commands() {
				if sub.IsAvailableCommand() {
					fmt.Fprintf(&b, "- [`%s`](#%s): %s\n", sub.CommandPath(), anchor(sub.CommandPath()), sub.Short)
				}
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// purposeKey is the message of what c does, in docs.yaml. English's are
// the commands' own Short help (a test keeps them equal).
func purposeKey(c *cobra.Command) string { return "docs.cli.purposes." + c.CommandPath() }

// visibleCommands lists root and every available subcommand, depth first,
// without help and completion.
func visibleCommands(root *cobra.Command) []*cobra.Command {
	var out []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if !sub.IsAvailableCommand() || sub.Name() == "help" || sub.Name() == "completion" {
				continue
			}
			out = append(out, sub)
			walk(sub)
		}
	}
	walk(root)
	return out
}

// dedent removes the two spaces cobra examples are indented by.
func dedent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "  ")
	}
	return strings.Join(lines, "\n")
}
