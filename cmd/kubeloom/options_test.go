package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/spf13/cobra"
	"k8s.io/utils/clock"
)

// The tests of each command's flags build the command alone with a run
// function that keeps the options instead of running, as cli/cli's do
// (pkg/cmd/issue/close/close_test.go): the command line parsed and checked
// is tested apart from the run, which its own tests call with the options
// and buffers.

// parse runs the command newCmd builds on args and returns the options its
// run function was given, or the error of parsing and checking args.
func parse[O any](t *testing.T, newCmd func(deps, func(*O) error) *cobra.Command, d deps, args ...string) (*O, error) {
	t.Helper()
	var got *O
	var out, errOut bytes.Buffer
	d.in, d.out, d.err = strings.NewReader(""), &out, &errOut
	cmd := newCmd(d, func(o *O) error { got = o; return nil })
	cmd.SetArgs(args)
	cmd.SetIn(d.in)
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	if err := cmd.ExecuteContext(context.Background()); err != nil {
		if got != nil {
			t.Errorf("the command failed (%v) after calling its run function", err)
		}
		return nil, err
	}
	if got == nil {
		t.Fatalf("%v: the command neither failed nor called its run function", args)
	}
	return got, nil
}

// withoutContext adapts the constructor of a command whose run function
// takes a context (run, step, push) to parse.
func withoutContext[O any](newCmd func(deps, func(context.Context, *O) error) *cobra.Command) func(deps, func(*O) error) *cobra.Command {
	return func(d deps, runF func(*O) error) *cobra.Command {
		return newCmd(d, func(_ context.Context, o *O) error { return runF(o) })
	}
}

// flagsOnly compares options by their arguments and flags, leaving out
// their dependencies (streams, network, clock: the test's own).
func flagsOnly[O any]() cmp.Option {
	var o O
	return cmp.Options{
		cmp.AllowUnexported(o),
		cmpopts.IgnoreTypes(streams{}, network{}),
		cmpopts.IgnoreInterfaces(struct{ clock.PassiveClock }{}),
	}
}

// flagCase is one command line of a command's flag tests: the options the
// run function gets, or the error.
type flagCase[O any] struct {
	name string
	args []string
	want O
	err  string // the whole message, when the command line is refused
}

// checkFlags runs the cases of a command's flag table.
func checkFlags[O any](t *testing.T, newCmd func(deps, func(*O) error) *cobra.Command, d deps, cases []flagCase[O]) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parse(t, newCmd, d, tc.args...)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("%q: error %v\nwant %s", tc.args, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("%q: %v", tc.args, err)
			}
			if diff := cmp.Diff(tc.want, *got, flagsOnly[O]()); diff != "" {
				t.Errorf("%q: options (-want +got):\n%s", tc.args, diff)
			}
		})
	}
}
