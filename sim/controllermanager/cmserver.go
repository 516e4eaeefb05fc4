package controllermanager

import (
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"github.com/kubeloom/kubeloom/sim/informer"
)

// parse builds the era's flag set and parses a scenario's flags on it, as
// the binary parses its command line (flag.InitFlags: pflag with
// word-separator normalization, so --concurrent-rc-syncs is
// --concurrent_rc_syncs).
func parse(s *server, era informer.Era, flags map[string]string) (*pflag.FlagSet, error) {
	fs := pflag.NewFlagSet("kube-controller-manager", pflag.ContinueOnError)
	fs.SetNormalizeFunc(wordSepNormalize)
	s.addFlags(fs, era)
	names := make([]string, 0, len(flags))
	for n := range flags {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		name := strings.TrimPrefix(n, "--")
		if fs.Lookup(name) == nil {
			return nil, &FlagError{Flag: n, Err: fmt.Errorf("unknown flag: the %s kube-controller-manager has no %s", era, n)}
		}
		if err := fs.Set(name, flags[n]); err != nil {
			return nil, &FlagError{Flag: n, Err: err}
		}
	}
	if err := s.validate(era); err != nil {
		return nil, err
	}
	return fs, nil
}

// CheckFlags parses a scenario's flags for an era without running
// anything, so that bad flags are reported before a run starts.
func CheckFlags(era informer.Era, flags map[string]string) error {
	_, err := parse(newCMServer(era), era, flags)
	return err
}

// FlagError is a flag the simulated binary refuses.
type FlagError struct {
	Flag string // as written, "--port"
	Err  error
}

func (e *FlagError) Error() string { return fmt.Sprintf("%s: %v", e.Flag, e.Err) }
func (e *FlagError) Unwrap() error { return e.Err }

// wordSepNormalize is pkg/util/flag.WordSepNormalizeFunc.
func wordSepNormalize(_ *pflag.FlagSet, name string) pflag.NormalizedName {
	return pflag.NormalizedName(strings.ReplaceAll(name, "_", "-"))
}
