package htmlview

import (
	"bufio"
	"encoding/json"
	"strconv"
)

// writeData writes d as encoding/json would, byte for byte, but a piece at
// a time: the lanes one by one and the steps and flows number by number,
// so that the page's data (tens of megabytes for a million spans) is never
// held whole in memory besides d. The fields are those of data, in order.
func writeData(w *bufio.Writer, d *data) error {
	var err error
	field := func(name string, v any) {
		if err != nil {
			return
		}
		w.WriteString(name)
		var b []byte
		if b, err = json.Marshal(v); err == nil {
			w.Write(b)
		}
	}
	field(`{"v":`, d.Version)
	field(`,"scenario":`, d.Scenario)
	field(`,"start":`, d.Start)
	field(`,"duration":`, d.Duration)
	field(`,"spans":`, d.Spans)
	field(`,"orphans":`, d.Orphans)
	field(`,"links":`, d.Links)
	field(`,"langs":`, d.Langs)
	field(`,"articles":`, d.Articles)
	field(`,"strings":`, d.Strings)
	field(`,"values":`, d.Values)
	field(`,"attrs":`, d.Attrs)
	field(`,"entries":`, d.Entries)
	field(`,"startup":`, d.Startup)
	field(`,"stepStartup":`, d.StepStartup)
	field(`,"instances":`, d.Instances)
	field(`,"groups":`, d.Groups)
	if err != nil {
		return err
	}
	w.WriteString(`,"lanes":`)
	if d.Lanes == nil {
		w.WriteString("null")
	} else {
		w.WriteByte('[')
		for i := range d.Lanes {
			if i > 0 {
				w.WriteByte(',')
			}
			b, err := json.Marshal(&d.Lanes[i])
			if err != nil {
				return err
			}
			w.Write(b)
		}
		w.WriteByte(']')
	}
	w.WriteString(`,"steps":`)
	writeInts(w, d.Steps)
	w.WriteString(`,"flows":`)
	writeInts(w, d.Flows)
	field(`,"strides":`, d.Strides)
	field(`,"podStarts":`, d.PodStarts)
	if d.Diff != nil { // omitempty
		field(`,"diff":`, d.Diff)
	}
	if err != nil {
		return err
	}
	return w.WriteByte('}')
}

// writeInts writes a []int64 as encoding/json does.
func writeInts(w *bufio.Writer, ns []int64) {
	if ns == nil {
		w.WriteString("null")
		return
	}
	w.WriteByte('[')
	var buf [24]byte
	for i, n := range ns {
		if i > 0 {
			w.WriteByte(',')
		}
		w.Write(strconv.AppendInt(buf[:0], n, 10))
	}
	w.WriteByte(']')
}
