package catalog

import (
	"sort"
	"time"
)

// Entry describes one goroutine of the catalog (the reference catalog the
// project was built from, kept outside the repository; docs/goroutines.md
// is this package's own rendering of it): the facts, which are the same
// in every language. What it tells of the goroutine is its Story, in the
// language folders of sim/catalog/locale.
type Entry struct {
	Name      string        // stable catalog name, e.g. "informer/listener-pop"
	Component string        // "informer", "kube-controller-manager", "kubelet"
	Kind      string        // KindGo, KindUntil, ...
	Period    time.Duration // default period (0 when event driven)
	// PeriodFrom names where Period comes from in the Kubernetes source:
	// the constant, the literal or the flag (with its default).
	PeriodFrom string
	Function   string // Kubernetes function that starts it (v1.5 era)
	File       string // Kubernetes file of that function
	Article    string // article file and section, "" if the articles do not name it
	// PerCall marks a short-lived goroutine started once per call of a
	// loop's body (the poller of each wait.Poll in a renewal): like the
	// loop's iterations, how many a run has follows its timing, and a run
	// in real time may have one more or one fewer.
	PerCall bool
}

var entries = map[string]Entry{}

func register(es ...Entry) {
	for _, e := range es {
		if _, dup := entries[e.Name]; dup {
			panic("catalog: duplicate entry " + e.Name)
		}
		entries[e.Name] = e
	}
}

// Lookup returns the entry of a catalog name.
func Lookup(name string) (Entry, bool) {
	e, ok := entries[name]
	return e, ok
}

// All returns every entry, sorted by component then name.
func All() []Entry {
	out := make([]Entry, 0, len(entries))
	for _, e := range entries {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Component != out[j].Component {
			return out[i].Component < out[j].Component
		}
		return out[i].Name < out[j].Name
	})
	return out
}
