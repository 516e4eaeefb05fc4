// Package bubble runs a function inside a testing/synctest bubble from an
// ordinary program, outside `go test`: virtual time for kubeloom's runs.
//
// Inside a bubble, time stands still while any goroutine of the bubble can
// run and jumps to the next timer once every one of them is durably blocked
// (testing/synctest's package doc lists what counts). A simulation whose
// goroutines only wait on timers, channels and sync.Cond therefore runs as
// fast as the CPU allows and keeps every period exactly.
//
// Go offers bubbles only through synctest.Test, which takes a *testing.T.
// A program gets one the way a test binary does: testing.MainStart builds a
// testing.M whose one internal test calls synctest.Test, and M.Run runs it.
// MainStart takes a value of an unexported interface (the test binary's
// testdeps.TestDeps, whose methods fuzzing, coverage and profiles use and a
// bubble does not); Go's compatibility promise does not cover it. So the
// call goes through reflect: a Go whose MainStart takes something else
// makes Run return an error naming the Go version, not a build that breaks.
// TestRunOnThisGo and `kubeloom run`'s tests fail loudly then.
package bubble

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"runtime"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// ErrUnavailable is what Run returns (wrapped, with the details) when this
// build's Go has no way for a program to run a bubble.
var ErrUnavailable = errors.New("virtual time is not available in this build")

// mu makes runs one at a time: testing.M keeps process-wide state.
var mu sync.Mutex

// Run calls f inside a synctest bubble and returns when f and every
// goroutine it started have returned. f must not call t-like failure
// functions; it reports through its own variables. A panic in f (the
// bubble's deadlock report among them: "all goroutines in bubble are
// blocked", or goroutines still blocked when f returns) is returned as an
// error; a panic in another goroutine of the bubble ends the process, as
// it would outside one.
//
// Run must not be called inside a bubble, nor from a test binary (its
// -test.run would not select the bubble's test: tests call synctest.Test
// themselves).
func Run(f func()) error {
	mu.Lock()
	defer mu.Unlock()
	ran := false
	var panicked any
	test := testing.InternalTest{Name: "KubeloomVirtualTime", F: func(t *testing.T) {
		// The bubble reports a deadlock by panicking here, in synctest.Test's
		// caller, after its goroutines stopped moving; f's own panic comes
		// through the same way.
		defer func() {
			if r := recover(); r != nil && panicked == nil {
				panicked = r
			}
		}()
		synctest.Test(t, func(*testing.T) {
			defer func() { panicked = recover() }()
			ran = true
			f()
		})
	}}
	if err := runTest(test); err != nil {
		return err
	}
	if !ran {
		return fmt.Errorf("%w: %s's testing.M.Run did not run kubeloom's bubble (go%s)", ErrUnavailable, runtime.Version(), minGo)
	}
	if panicked != nil {
		return fmt.Errorf("the simulation panicked in virtual time: %v", panicked)
	}
	return nil
}

// minGo is the Go release whose testing.MainStart this package was written
// against, for the error messages.
const minGo = "1.26"

// runTest runs one internal test as a test binary's main would, with the
// testing package's own output (its "PASS") sent nowhere.
func runTest(test testing.InternalTest) (err error) {
	m, err := mainStart([]testing.InternalTest{test})
	if err != nil {
		return err
	}
	// M.Run parses the command line's -test.* flags, once per process:
	// give it none (kubeloom's own flags are cobra's, not the flag package's).
	if !flag.Parsed() {
		flag.CommandLine.Parse(nil) // nothing to parse: cannot fail
	}
	stdout := os.Stdout
	os.Stdout = devNull()
	defer func() { os.Stdout = stdout }()
	if code := m.Run(); code != 0 {
		return fmt.Errorf("the virtual-time run failed (testing.M.Run exit code %d)", code)
	}
	return nil
}

// mainStart calls testing.MainStart(deps{}, tests, nil, nil, nil) through
// reflect, checking that this Go's MainStart still takes what deps offers.
func mainStart(tests []testing.InternalTest) (m *testing.M, err error) {
	fn := reflect.ValueOf(testing.MainStart)
	ft := fn.Type()
	unavailable := func(why string) error {
		return fmt.Errorf("%w: kubeloom was built with %s, whose testing.MainStart is %s; %s (kubeloom's virtual time follows Go %s's); run in live mode with --speed N, or build kubeloom with Go %s",
			ErrUnavailable, runtime.Version(), ft, why, minGo, minGo)
	}
	if ft.NumIn() < 2 || ft.NumOut() != 1 || ft.Out(0) != reflect.TypeFor[*testing.M]() || ft.In(1) != reflect.TypeFor[[]testing.InternalTest]() {
		return nil, unavailable("its parameters changed")
	}
	d := reflect.ValueOf(deps{})
	if !d.Type().AssignableTo(ft.In(0)) {
		return nil, unavailable(fmt.Sprintf("kubeloom's %s does not implement its first parameter, %s", d.Type(), ft.In(0)))
	}
	args := []reflect.Value{d, reflect.ValueOf(tests)}
	for i := 2; i < ft.NumIn(); i++ {
		args = append(args, reflect.Zero(ft.In(i)))
	}
	defer func() {
		if r := recover(); r != nil {
			err = unavailable(fmt.Sprint("calling it panicked: ", r))
		}
	}()
	return fn.Call(args)[0].Interface().(*testing.M), nil
}

var devNullOnce = sync.OnceValue(func() *os.File {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return os.Stderr // never: /dev/null opens; if not, "PASS" shows
	}
	return f
})

func devNull() *os.File { return devNullOnce() }

// deps is what testing.MainStart asks of a test binary (Go 1.26's
// testing.testDeps, implemented for `go test` by
// testing/internal/testdeps.TestDeps). A bubble's one test needs none of
// it: no pattern to match (-test.run is empty), no profiles, no fuzzing,
// no coverage.
type deps struct{}

func (deps) ImportPath() string { return "" }
func (deps) ModulePath() string { return "" }

// MatchString is what -test.run and -test.skip are matched with.
func (deps) MatchString(pat, str string) (bool, error) { return regexp.MatchString(pat, str) }
func (deps) SetPanicOnExit0(bool)                      {}
func (deps) StartCPUProfile(io.Writer) error           { return errNotATest }
func (deps) StopCPUProfile()                           {}
func (deps) StartTestLog(io.Writer)                    {}
func (deps) StopTestLog() error                        { return nil }
func (deps) WriteProfileTo(string, io.Writer, int) error {
	return errNotATest
}
func (deps) CoordinateFuzzing(time.Duration, int64, time.Duration, int64, int, []corpusEntry, []reflect.Type, string, string) error {
	return errNotATest
}
func (deps) RunFuzzWorker(func(corpusEntry) error) error { return errNotATest }
func (deps) ReadCorpus(string, []reflect.Type) ([]corpusEntry, error) {
	return nil, errNotATest
}
func (deps) CheckCorpus([]any, []reflect.Type) error { return errNotATest }
func (deps) ResetCoverage()                          {}
func (deps) SnapshotCoverage()                       {}
func (deps) InitRuntimeCoverage() (string, func(string, string) (string, error), func() float64) {
	return "", nil, nil
}

// corpusEntry is testing's corpusEntry, an alias of this struct type.
type corpusEntry = struct {
	Parent     string
	Path       string
	Data       []byte
	Values     []any
	Generation int
	IsSeed     bool
}

var errNotATest = errors.New("kubeloom's virtual time is not a test binary")
