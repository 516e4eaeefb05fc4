// Package diff compares two recordings, or two instances of one: which
// goroutines only one has, how each family of goroutines ran (iterations,
// period, first start, spans, errors), the startup steps' order and times,
// and how long each scenario action took to reach its first effect. It
// reads timelines only (traces/timeline), so a recording of an older
// kubeloom compares too; `kubeloom diff` prints the Report and its page
// draws it.
package diff
