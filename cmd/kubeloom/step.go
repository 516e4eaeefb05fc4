package main

import (
	"context"
	"errors"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/kubeloom/kubeloom/sim/catalog/locale"
	"github.com/kubeloom/kubeloom/traces/stepview"
)

// stepOptions are what `kubeloom step` is told: its argument and flags,
// and the streams it steps on.
type stepOptions struct {
	io streams

	file     string
	lang     string
	plain    bool
	from, to time.Duration

	against    string // --against: the recording each step is compared with
	selA, selB string // --a, --b
}

// newStepCmd builds `kubeloom step`; runF, if not nil, is called with the
// parsed options instead of runStep (tests of the flags).
func newStepCmd(d deps, runF func(context.Context, *stepOptions) error) *cobra.Command {
	o := &stepOptions{io: d.streams}
	cmd := &cobra.Command{
		Use:   "step FILE",
		Short: "Step through a recording, one goroutine event at a time, with the narrative",
		Long: `Step through a recording in front of a class: the goroutine tree so far
beside the current step's story — what happened, on which goroutine, what the
goroutine catalog says about it (in English or 中文), the article's words, the
Kubernetes source, and what changed since. The article's words are its Chinese
in both languages; in English kubeloom's rendering of them follows, marked
"(rendered in English: …)".

Keys: n, →, space next · p, ← previous · g jump to a time · / search a
goroutine · f follow the current object along its causal links · l switch
language · ↑/↓ scroll the story · q quit.

When stdin or stdout is not a terminal, or with --plain, every step is printed
as a block of text instead (for slides and notes).

With --against B, each step also says whether the recording B has the same
step, and when: "in B: at 5.19s (+4.9s)", "in B: the same instant" or "not
in B". Steps pair by what they are, not by their number: the same kind and
name (the 3rd OnAdd) on the same goroutine family of the same instance
role, as diff pairs instances (classic/informers with modern/informers).
--a and --b select an era or an instance on each side, so that the two eras
of one recording step against each other.

Chinese text is drawn with the terminal's font, which kubeloom cannot choose.
If 中文 shows as boxes, give the terminal a font that has Chinese in it:
on Debian/Ubuntu install fonts-noto-cjk (sudo apt-get install fonts-noto-cjk)
and restart the terminal; on macOS PingFang SC is built in; on Windows
Microsoft YaHei is built in (in Windows Terminal pick a font with CJK
characters, or rely on its font fallback). See docs/step.md.`,
		Example: `  kubeloom step recordings/informer-basics.jsonl
  kubeloom step recordings/informer-basics.jsonl --lang zh
  kubeloom step recordings/informer-basics.jsonl --plain --from 20s --to 25s > slides.txt
  kubeloom step recordings/informer-eras.jsonl --against recordings/informer-eras.jsonl --a classic --b modern`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.file = args[0]
			if o.against == "" && (o.selA != "" || o.selB != "") {
				return errors.New("--a and --b select what --against compares: give --against FILE")
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return runStep(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	addLangFlag(f, &o.lang, "language of the narrative: "+locale.Choices()+"; l switches it while stepping")
	f.BoolVar(&o.plain, "plain", false, "print every step as text instead of stepping interactively")
	f.DurationVar(&o.from, "from", 0, "first step to show, in simulated time since the start")
	f.DurationVar(&o.to, "to", 0, "last step to show (default: the end of the recording)")
	f.StringVar(&o.against, "against", "", "another recording: at each step, say whether it has the same step, and when")
	f.StringVar(&o.selA, "a", "", `with --against: compare only this era ("classic") or instance ("classic/cm-0") of FILE`)
	f.StringVar(&o.selB, "b", "", "with --against: compare with only this era or instance of the other recording")
	return cmd
}

// runStep steps through the recording on a terminal, or prints every step
// as text.
func runStep(ctx context.Context, o *stepOptions) error {
	s, err := readStepped(ctx, o)
	defer s.done() // on every path; calling it again does nothing
	if err != nil {
		return err
	}
	vo := stepview.Options{Lang: o.lang, From: o.from, To: o.to, Against: s.against}
	if o.plain || !readsTerminal(o.io.in) || !isTerminal(o.io.out) {
		// PlainWith builds the view and prints it: done follows it.
		return stepview.PlainWith(interruptible{ctx, o.io.out}, s.tl, vo)
	}
	vo.Spans = s.spans
	m, err := stepview.New(s.tl, vo)
	// The view is built: stepping makes garbage the collector should
	// take, for as long as the session lasts.
	s.done()
	if err != nil {
		return err
	}
	return stepview.Run(ctx, m, o.io.in, o.io.out)
}

// readsTerminal says whether r is a terminal (isTerminal, in run.go, asks
// the same of a writer).
func readsTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
