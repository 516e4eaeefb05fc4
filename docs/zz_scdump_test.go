package docs

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

func TestZZSCDump(t *testing.T) {
	root, _ := filepath.Abs("..")
	d := newDocRuns(t, root)
	os.MkdirAll("/tmp/scdump", 0o755)
	for _, name := range strings.Split(os.Getenv("SCDUMP"), ",") {
		r := d.of(name)
		var b strings.Builder
		spans := r.spans
		sort.SliceStable(spans, func(i, j int) bool { return spans[i].Start.Before(spans[j].Start) })
		for _, s := range spans {
			var keys []string
			for k, v := range s.Attributes {
				if k == "kubeloom.article" || strings.HasPrefix(k, "code.") || k == "goroutine.description" {
					continue
				}
				keys = append(keys, fmt.Sprintf("%s=%v", k, v))
			}
			sort.Strings(keys)
			fmt.Fprintf(&b, "%v +%v %s %s {%s}\n", r.at(s.Start), s.End.Sub(s.Start), s.Resource.String("service.instance.id"), s.Name, strings.Join(keys, " "))
			for _, e := range s.Events {
				var ek []string
				for k, v := range e.Attributes {
					ek = append(ek, fmt.Sprintf("%s=%v", k, v))
				}
				sort.Strings(ek)
				fmt.Fprintf(&b, "    EV %v %s {%s}\n", r.at(e.Time), e.Name, strings.Join(ek, " "))
			}
		}
		fmt.Fprintf(&b, "SUMMARY %+v\n", *r.sum)
		os.WriteFile("/tmp/scdump/"+name+".txt", []byte(b.String()), 0o644)
	}
}
