// Package stepview tells a recording step by step, for `kubeloom step`: an
// interactive terminal view (a bubbletea Model) with the goroutine tree so
// far beside the current step's story — what happened, the goroutine
// catalog's narrative in any language of sim/catalog/locale (English,
// Chinese), the article's words, the Kubernetes source and what changed
// since — and a plain-text mode that prints the same story one block per
// step, for slides and pipes.
package stepview
