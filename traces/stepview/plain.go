package stepview

import (
	"bufio"
	"fmt"
	"io"
	"time"

	"github.com/kubeloom/kubeloom/internal/printable"
	"github.com/kubeloom/kubeloom/sim/catalog/locale"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// Plain writes the steps of tl between from and to (offsets from the start
// of the recording; to 0 means the end) as text, one block per step in
// lang (a code of locale.Codes: "en", "zh"), blocks separated by a blank line: the step's place
// and time, what happened, and the catalog's narrative, the article's
// words, the Kubernetes source and what changed since. It is the story the
// interactive view tells, for slides and for output that is no terminal.
func Plain(w io.Writer, tl *timeline.Timeline, lang string, from, to time.Duration) error {
	return PlainWith(w, tl, Options{Lang: lang, From: from, To: to})
}

// PlainWith is Plain with the options of the interactive view: o.Lang,
// o.From, o.To, and o.Against, which adds to each step whether the other
// recording has it and when. o.Spans, o.Width and o.Height are not used.
func PlainWith(w io.Writer, tl *timeline.Timeline, o Options) error {
	if tl == nil {
		return fmt.Errorf("stepview: no timeline")
	}
	lang, err := checkLang(o.Lang)
	if err != nil {
		return err
	}
	d := newData(tl, nil)
	if err := d.compare(o.Against); err != nil {
		return err
	}
	lo, hi, err := d.window(o.From, o.To)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	name := printable.String(tl.Scenario)
	if name == "" {
		name = "recording"
	}
	summary := wordsOf(lang).f("summary", locale.Args{"steps": len(d.steps), "lanes": tl.LaneCount(), "duration": formatOffset(tl.Duration())})
	fmt.Fprintf(bw, "kubeloom step · %s · %s\n", name, summary)
	for i := lo; i <= hi; i++ {
		st := d.tell(i, lang)
		bw.WriteString("\n" + rule(st.header) + "\n")
		// A write that failed (a closed pipe, or the command's writer
		// after Ctrl-C) ends the loop: the steps left could take seconds.
		if _, err := bw.WriteString(st.plain()); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// rule sets a step's header off as a line of its own.
func rule(header string) string { return "── " + header + " ──" }
