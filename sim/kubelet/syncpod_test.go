package kubelet

import (
	"regexp"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeloom/kubeloom/sim/containerruntime"
)

// TestBehaviour checks the container command conventions: how long a
// simulated container runs (0: until killed) and the code it exits with.
func TestBehaviour(t *testing.T) {
	for _, tc := range []struct {
		name          string
		command, args []string
		runFor        time.Duration
		code          int
	}{
		{name: "no command", runFor: 0, code: 0},
		{name: "a server", command: []string{"nginx", "-g", "daemon off;"}},
		{name: "sleep N", command: []string{"sleep", "30"}, runFor: 30 * time.Second},
		{name: "sleep N in args", command: []string{"sleep"}, args: []string{"45"}, runFor: 45 * time.Second},
		{name: "sh -c sleep", command: []string{"sh", "-c", "sleep 5"}, runFor: 5 * time.Second},
		{name: "sleep then exit C", command: []string{"sh", "-c", "sleep 20; exit 1"}, runFor: 20 * time.Second, code: 1},
		{name: "sleep then exit C in args", command: []string{"/bin/sh"}, args: []string{"-c", "sleep 3 && exit 42"}, runFor: 3 * time.Second, code: 42},
		{name: "exit C at once", command: []string{"sh", "-c", "exit 3"}, runFor: time.Millisecond, code: 3},
		{name: "exit 0", command: []string{"sh", "-c", "exit 0"}, runFor: time.Millisecond, code: 0},
		{name: "sleep 0", command: []string{"sleep", "0"}, runFor: time.Millisecond, code: 0},
		{name: "true", command: []string{"true"}, runFor: time.Millisecond, code: 0},
		{name: "/bin/true", command: []string{"/bin/true"}, runFor: time.Millisecond, code: 0},
		{name: "false", command: []string{"false"}, runFor: time.Millisecond, code: 1},
		{name: "/bin/false", command: []string{"/bin/false"}, runFor: time.Millisecond, code: 1},
		{name: "true with spaces", command: []string{" true "}, runFor: time.Millisecond, code: 0},
		{name: "while true loop", command: []string{"sh", "-c", "while true; do sleep 3600; done"}},
		{name: "while true loop with exit", command: []string{"sh", "-c", "while true; do sleep 1; done; exit 2"}},
		{name: "sleep infinity", command: []string{"sleep", "infinity"}},
		{name: "sleepy is not sleep", command: []string{"sleepy", "10"}},
		{name: "exit without code", command: []string{"sh", "-c", "exit"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runFor, code := behaviour(corev1.Container{Name: "c", Command: tc.command, Args: tc.args})
			if runFor != tc.runFor || code != tc.code {
				t.Errorf("behaviour(%q) = (%v, %d), want (%v, %d)", strings.Join(append(tc.command, tc.args...), " "), runFor, code, tc.runFor, tc.code)
			}
		})
	}
}

// TestNumberAfterIsTheRegexp checks the scan against the regular
// expression it stands for, on commands a learner might write and on
// edge cases of word boundaries and blanks.
func TestNumberAfterIsTheRegexp(t *testing.T) {
	for _, word := range []string{"sleep", "exit"} {
		re := regexp.MustCompile(`\b` + word + `\s+(\d+)\b`)
		for _, cmd := range []string{
			"", word, word + " ", word + " 5", word + "  \t12", word + "5", word + " 5s", word + " 5;", word + " 5 && " + word + " 6",
			"x" + word + " 5", "_" + word + " 5", word + "y 5 " + word + " 7", "-" + word + " 9", word + "\n3", word + " -1",
			word + " 1a " + word + " 2", "sh -c '" + word + " 30'", word + " 0", word + " 99999999999999999999", word + " ٣",
			word + word + " 4", word + " " + word + " 8",
		} {
			var want string
			m := re.FindStringSubmatch(cmd)
			if m != nil {
				want = m[1]
			}
			got, ok := numberAfter(cmd, word)
			if ok != (m != nil) || got != want {
				t.Errorf("numberAfter(%q, %q) = (%q, %v), want (%q, %v)", cmd, word, got, ok, want, m != nil)
			}
		}
	}
}

func TestShouldRestart(t *testing.T) {
	for _, tc := range []struct {
		policy corev1.RestartPolicy
		code   int
		want   bool
	}{
		{corev1.RestartPolicyAlways, 0, true},
		{corev1.RestartPolicyAlways, 1, true},
		{corev1.RestartPolicyAlways, 137, true},
		{"", 0, true}, // unset: the apiserver's default, Always
		{corev1.RestartPolicyOnFailure, 0, false},
		{corev1.RestartPolicyOnFailure, 1, true},
		{corev1.RestartPolicyOnFailure, 143, true},
		{corev1.RestartPolicyNever, 0, false},
		{corev1.RestartPolicyNever, 1, false},
	} {
		last := containerruntime.Container{Name: "c", State: containerruntime.StateExited, ExitCode: tc.code}
		if got := shouldRestart(tc.policy, last); got != tc.want {
			t.Errorf("shouldRestart(%q, exit %d) = %v, want %v", tc.policy, tc.code, got, tc.want)
		}
	}
}

func TestLatestByName(t *testing.T) {
	c := func(id, name string, attempt int) containerruntime.Container {
		return containerruntime.Container{ID: id, Name: name, Attempt: attempt}
	}
	for _, tc := range []struct {
		name string
		in   []containerruntime.Container
		want map[string]string // name → ID
	}{
		{"none", nil, map[string]string{}},
		{"one", []containerruntime.Container{c("a0", "a", 0)}, map[string]string{"a": "a0"}},
		{"in order", []containerruntime.Container{c("a0", "a", 0), c("a1", "a", 1), c("a2", "a", 2)}, map[string]string{"a": "a2"}},
		{"out of order", []containerruntime.Container{c("a2", "a", 2), c("a0", "a", 0), c("a1", "a", 1)}, map[string]string{"a": "a2"}},
		{"by name", []containerruntime.Container{c("POD0", containerruntime.PodInfraContainerName, 0), c("a0", "a", 0),
			c("b0", "b", 0), c("b1", "b", 1), c("POD1", containerruntime.PodInfraContainerName, 1)},
			map[string]string{containerruntime.PodInfraContainerName: "POD1", "a": "a0", "b": "b1"}},
		// Equal attempts (never from one runtime): the later in the list wins.
		{"tie", []containerruntime.Container{c("x", "a", 1), c("y", "a", 1)}, map[string]string{"a": "y"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := latestByName(tc.in)
			if len(got) != len(tc.want) {
				t.Fatalf("latestByName = %v, want names %v", got, tc.want)
			}
			for name, id := range tc.want {
				if got[name].ID != id {
					t.Errorf("latest %s = %q, want %q", name, got[name].ID, id)
				}
			}
		})
	}
}

// TestBackoff: as flowcontrol.Backoff in v1.5's doBackOff, a container
// restarts at once after its first failure; after each later failure it
// waits, from when it finished, 10s, then double, up to 5m
// (MaxContainerBackOff), per pod UID and container name.
func TestBackoff(t *testing.T) {
	var b backoff
	t0 := time.Date(2016, 11, 1, 0, 0, 0, 0, time.UTC)
	if wait, _ := b.inBackOff("uid-1", "app", t0, t0); wait {
		t.Fatal("in back-off before any restart")
	}
	b.next("uid-1", "app", t0) // the first failure: restarted at once
	finished := t0.Add(20 * time.Second)
	for i, want := range []time.Duration{10 * time.Second, 20 * time.Second, 40 * time.Second, 80 * time.Second,
		160 * time.Second, 5 * time.Minute, 5 * time.Minute} {
		wait, until := b.inBackOff("uid-1", "app", finished, finished)
		if !wait || until.Sub(finished) != want {
			t.Errorf("failure %d: back-off %v (waiting %v), want %v", i+2, until.Sub(finished), wait, want)
		}
		if wait, _ := b.inBackOff("uid-1", "app", finished, until); wait {
			t.Errorf("failure %d: still in back-off when it ends", i+2)
		}
		b.next("uid-1", "app", finished)
		finished = until.Add(20 * time.Second) // ran 20s, failed again
	}
	// Other containers and pods have back-offs of their own.
	if wait, _ := b.inBackOff("uid-1", "sidecar", finished, finished); wait {
		t.Error("sidecar shares app's back-off")
	}
	if wait, _ := b.inBackOff(types.UID("uid-2"), "app", finished, finished); wait {
		t.Error("uid-2 shares uid-1's back-off")
	}
}

// TestBackoffResetsAfterStableRun: flowcontrol.Backoff starts over at the
// initial 10s once an entry has not been updated for twice the maximum
// (hasExpired: 10m).
func TestBackoffResetsAfterStableRun(t *testing.T) {
	var b backoff
	now := time.Date(2016, 11, 1, 0, 0, 0, 0, time.UTC)
	for range 7 {
		b.next("uid-1", "app", now)
		now = now.Add(6 * time.Minute)
	}
	if _, until := b.inBackOff("uid-1", "app", now.Add(-6*time.Minute), now); until.Sub(now.Add(-6*time.Minute)) != 5*time.Minute {
		t.Fatalf("back-off after 7 failures = %v, want 5m", until.Sub(now.Add(-6*time.Minute)))
	}
	now = now.Add(time.Hour)
	if wait, _ := b.inBackOff("uid-1", "app", now, now); wait {
		t.Error("in back-off after an hour of stable running")
	}
	b.next("uid-1", "app", now)
	later := now.Add(time.Second)
	if _, until := b.inBackOff("uid-1", "app", later, later); until.Sub(later) != 10*time.Second {
		t.Errorf("back-off after an hour of stable running = %v, want 10s", until.Sub(later))
	}
}
