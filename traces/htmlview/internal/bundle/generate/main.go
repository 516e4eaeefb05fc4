// Command generate writes the HTML timeline's bundles,
// traces/htmlview/assets/dist/*.js, from its ES modules (assets/js):
// `make assets`, or `go generate ./traces/htmlview`.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/kubeloom/kubeloom/traces/htmlview/internal/bundle"
)

func main() {
	assets := flag.String("assets", "traces/htmlview/assets", "the assets folder: its js/entry-*.js are bundled into its dist/")
	flag.Parse()
	if err := bundle.Write(*assets); err != nil {
		fmt.Fprintln(os.Stderr, "bundle:", err)
		os.Exit(1)
	}
}
