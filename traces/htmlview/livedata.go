package htmlview

import (
	"bufio"
	"errors"
	"io"

	"github.com/kubeloom/kubeloom/traces/timeline"
)

// WriteData writes tl as the page's data alone (the JSON that Write puts in
// the page's #kubeloom-data element): what `kubeloom serve` sends a page
// that is already open, a snapshot of a live run or a recording it opened.
func WriteData(w io.Writer, tl *timeline.Timeline) error {
	if tl == nil {
		return errors.New("htmlview: no timeline")
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	if err := writeData(bw, encode(tl)); err != nil {
		return err
	}
	return bw.Flush()
}
