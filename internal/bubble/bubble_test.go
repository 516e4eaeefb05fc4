package bubble

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// childEnv makes this test binary, run again by TestRunOnThisGo, act as a
// program that uses Run: in TestMain, before the testing package has run
// anything, as kubeloom's main does.
const childEnv = "KUBELOOM_BUBBLE_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(child())
	}
	goleak.VerifyTestMain(m)
}

// child runs ten simulated minutes of a 100 ms ticker in a bubble, a
// deadlocked bubble and a bubble that leaves a goroutine behind, and
// prints what it saw for TestRunOnThisGo to check.
func child() int {
	start := time.Now()
	ticks := 0
	var simulated time.Duration
	err := Run(func() {
		t0 := time.Now()
		tk := time.NewTicker(100 * time.Millisecond)
		defer tk.Stop()
		for range 6000 {
			<-tk.C
			ticks++
		}
		simulated = time.Since(t0)
	})
	fmt.Printf("ticker: err=%v ticks=%d simulated=%s real-under-a-minute=%v\n", err, ticks, simulated, time.Since(start) < time.Minute)
	fmt.Printf("deadlock: err=%v\n", Run(func() { <-make(chan int) }))
	fmt.Printf("leftover: err=%v\n", Run(func() { go func() { <-make(chan int) }() }))
	fmt.Printf("panic: err=%v\n", Run(func() { panic("boom") }))
	return 0
}

// TestRunOnThisGo is the guard of kubeloom's virtual time: it runs Run as a
// program does (this test binary again, as a child whose TestMain calls it
// before the testing package runs anything) and checks that a bubble runs
// and reports what goes wrong in one. A Go release that changes
// testing.MainStart or testing.M.Run so that a program can no longer run a
// bubble fails here, naming the Go version, before any user meets it.
func TestRunOnThisGo(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), childEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the child: %v\n%s", err, out)
	}
	got := string(out)
	if strings.Contains(got, ErrUnavailable.Error()) {
		t.Fatalf("virtual time does not work with %s: update internal/bubble for this Go's testing.MainStart (kubeloom follows Go %s's):\n%s", runtime.Version(), minGo, got)
	}
	for _, want := range []string{
		"ticker: err=<nil> ticks=6000 simulated=10m0s real-under-a-minute=true",
		"deadlock: err=the simulation panicked in virtual time: deadlock: all goroutines in bubble are blocked",
		"leftover: err=the simulation panicked in virtual time: deadlock: main bubble goroutine has exited but blocked goroutines remain",
		"panic: err=the simulation panicked in virtual time: boom",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("with %s, the child did not say %q; it said:\n%s", runtime.Version(), want, got)
		}
	}
}

// TestMainStartTakesDeps pins the one thing the mechanism needs of this
// Go's testing.MainStart: that kubeloom's deps value is what it takes.
func TestMainStartTakesDeps(t *testing.T) {
	if _, err := mainStart(nil); err != nil {
		t.Fatalf("with %s: %v", runtime.Version(), err)
	}
}
