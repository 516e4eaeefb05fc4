package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is set at link time (-ldflags "-X main.version=v0.1.0").
var version = "dev"

// versionOptions are what `kubeloom version` is told: nothing but where to
// print.
type versionOptions struct {
	io streams
}

// newVersionCmd builds `kubeloom version`; runF, if not nil, is called
// with the options instead of runVersion.
func newVersionCmd(d deps, runF func(*versionOptions) error) *cobra.Command {
	o := &versionOptions{io: d.streams}
	return &cobra.Command{
		Use:   "version",
		Short: "Print the kubeloom version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(o)
			}
			return runVersion(o)
		},
	}
}

// runVersion prints kubeloom's version, Go's, and the versions of the two
// libraries a recording depends on most.
func runVersion(o *versionOptions) error {
	fmt.Fprintf(o.io.out, "kubeloom %s (%s, %s/%s)\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			switch d.Path {
			case "k8s.io/client-go", "go.opentelemetry.io/otel/sdk":
				fmt.Fprintf(o.io.out, "  %s %s\n", d.Path, d.Version)
			}
		}
	}
	return nil
}
