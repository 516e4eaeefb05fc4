package main

import (
	"context"
	"io"
	"strings"
	"testing"
)

// BenchmarkGoroutinesCommand is kubeloom goroutines after the process has
// started: the command tree built (with every --lang flag's list of
// languages) and the catalog listed. Its texts in every language are not
// read (locale's BenchmarkIndex is what listing the languages costs once
// per process, BenchmarkLoad what the first story costs).
func BenchmarkGoroutinesCommand(b *testing.B) {
	for b.Loop() {
		cmd := newRootCmd(deps{streams: streams{in: strings.NewReader(""), out: io.Discard, err: io.Discard}})
		cmd.SetArgs([]string{"goroutines"})
		if err := cmd.ExecuteContext(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
