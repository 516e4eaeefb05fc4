package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// cliIntro is the text above the generated CLI reference, per language.
// The commands' own help is English only: the reference quotes it as the
// program prints it.
var cliIntro = map[string]string{
	"en": `# Command-line reference

<!-- Generated from the cobra command tree (cmd/kubeloom). Do not edit: change the commands, then run ` + "`make docs`" + `. -->

Every command and flag of ` + "`kubeloom`" + `, as ` + "`bin/kubeloom help COMMAND`" + ` prints it. 中文：[zh/cli.md](zh/cli.md).

The examples paste as they are from the repository's root after ` + "`make build`" + `; most read
the recording this command makes:

` + "```sh" + `
bin/kubeloom run informer-basics --out recordings/informer-basics.jsonl
` + "```" + `
`,
	"zh": `# 命令行参考

<!-- 由 cobra 命令树（cmd/kubeloom）生成。请勿手改：修改命令后运行 ` + "`make docs`" + `。 -->

` + "`kubeloom`" + ` 的每个命令和参数。命令的帮助文字只有英文（即程序本身打印的内容），这里原样引用；
每个命令的用途见下表。English: [../cli.md](../cli.md).

` + "`make build`" + ` 之后，示例可在仓库根目录原样粘贴运行；多数示例读取下面这条命令生成的记录：

` + "```sh" + `
bin/kubeloom run informer-basics --out recordings/informer-basics.jsonl
` + "```" + `
`,
}

// cliPurposeZH is the one-line purpose of each command in Chinese, for the
// table at the top of docs/zh/cli.md.
var cliPurposeZH = map[string]string{
	"kubeloom run":                "运行一个场景并记录其 span",
	"kubeloom replay":             "在终端中把记录画成时间线",
	"kubeloom step":               "逐步讲解记录（课堂用），中英文",
	"kubeloom export":             "导出为自包含的 HTML 时间线、Jaeger JSON 或 Chrome/Perfetto 格式",
	"kubeloom push":               "通过 OTLP 把记录重新发送到采集器或 Jaeger",
	"kubeloom scenarios":          "列出、显示、校验场景",
	"kubeloom scenarios list":     "列出内置场景",
	"kubeloom scenarios show":     "显示场景：描述、看点和 YAML",
	"kubeloom scenarios validate": "像 run 一样校验场景文件",
	"kubeloom goroutines":         "列出协程目录",
	"kubeloom version":            "打印版本",
}

// writeCLIReference writes the reference of root and its subcommands.
func writeCLIReference(w io.Writer, root *cobra.Command, lang string) error {
	var b strings.Builder
	b.WriteString(cliIntro[lang])
	cmds := visibleCommands(root)
	if lang == "zh" {
		b.WriteString("\n| 命令 | 用途 |\n|---|---|\n")
	} else {
		b.WriteString("\n| command | what it does |\n|---|---|\n")
	}
	for _, c := range cmds {
		purpose := c.Short
		if lang == "zh" {
			purpose = cliPurposeZH[c.CommandPath()]
			if purpose == "" {
				return fmt.Errorf("no Chinese purpose for %q in cliPurposeZH", c.CommandPath())
			}
		}
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s |\n", c.CommandPath(), anchor(c.CommandPath()), purpose)
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
