package catalog

import (
	"strings"
	"testing"
)

func TestEveryEntryExplainsItself(t *testing.T) {
	if len(All()) == 0 {
		t.Fatal("empty catalog")
	}
	kinds := map[string]bool{KindGo: true, KindUntil: true, KindJitterUntil: true, KindForever: true, KindMain: true}
	for _, e := range All() {
		if !strings.Contains(e.Name, "/") {
			t.Errorf("%q: catalog names are component/goroutine", e.Name)
		}
		if !kinds[e.Kind] {
			t.Errorf("%s: kind %q", e.Name, e.Kind)
		}
		if e.Function == "" || !strings.HasPrefix(e.File, "pkg/") && !strings.HasPrefix(e.File, "cmd/") {
			t.Errorf("%s: needs the Kubernetes function and file (got %q, %q)", e.Name, e.Function, e.File)
		}
		if e.Summary == "" || e.SummaryZH == "" {
			t.Errorf("%s: needs a summary in English and Chinese", e.Name)
		}
		// wait.Until(f, 0, stop) is back-to-back calls, so an until loop may
		// have period 0; the jittered and forever loops always have one.
		if (e.Kind == KindJitterUntil || e.Kind == KindForever) && e.Period == 0 {
			t.Errorf("%s: a %s loop needs its default period", e.Name, e.Kind)
		}
		if got, ok := Lookup(e.Name); !ok || got.Name != e.Name {
			t.Errorf("Lookup(%q) failed", e.Name)
		}
	}
}
