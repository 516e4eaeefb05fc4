package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubeloom/kubeloom/internal/memnet"
)

func TestNewRunCmd(t *testing.T) {
	const timeout = 5 * time.Second // --otlp-timeout's default
	newCmd := withoutContext(newRunCmd)
	noEnv := deps{otlpEnv: func() string { return "" }}
	checkFlags(t, newCmd, noEnv, []flagCase[runOptions]{{
		name: "defaults",
		args: []string{"informer-basics"},
		want: runOptions{scenario: "informer-basics", otlpTimeout: timeout},
	}, {
		name: "every flag",
		args: []string{"my.yaml", "-o", "r.jsonl", "--compress", "--speed", "30", "--duration", "2m", "--seed", "7", "--era", "modern",
			"--stdout", "--otlp-endpoint", "grpc://127.0.0.1:4317", "--otlp-timeout", "2s", "--go-trace", "run.trace", "--all-iterations", "-q", "--strict"},
		want: runOptions{scenario: "my.yaml", out: "r.jsonl", compress: true, speed: 30, duration: 2 * time.Minute, seed: 7, era: "modern",
			stdout: true, otlpEndpoint: "grpc://127.0.0.1:4317", otlpTimeout: 2 * time.Second, goTrace: "run.trace", allIterations: true, quiet: true, strict: true},
	}, {
		name: "long names",
		args: []string{"cm-startup", "--out", "r.jsonl", "--quiet", "--era", "classic"},
		want: runOptions{scenario: "cm-startup", out: "r.jsonl", quiet: true, era: "classic", otlpTimeout: timeout},
	}, {
		name: "no scenario",
		args: nil,
		err:  "accepts 1 arg(s), received 0",
	}, {
		name: "two scenarios",
		args: []string{"informer-basics", "cm-startup"},
		err:  "accepts 1 arg(s), received 2",
	}, {
		name: "speed not a number",
		args: []string{"informer-basics", "--speed", "fast"},
		err:  `invalid argument "fast" for "--speed" flag: strconv.ParseFloat: parsing "fast": invalid syntax`,
	}, {
		name: "negative duration",
		args: []string{"informer-basics", "--duration", "-5s"},
		err:  "--speed and --duration must not be negative",
	}, {
		name: "negative speed",
		args: []string{"informer-basics", "--speed", "-1"},
		err:  "--speed and --duration must not be negative",
	}, {
		name: "negative OTLP timeout",
		args: []string{"informer-basics", "--otlp-timeout", "-1s"},
		err:  "--otlp-timeout must not be negative",
	}, {
		name: "unknown era",
		args: []string{"informer-basics", "--era", "ancient"},
		err:  `invalid argument "ancient" for "--era" flag: unknown era "ancient": expected classic or modern`,
	}, {
		name: "unknown flag",
		args: []string{"informer-basics", "--fast"},
		err:  "unknown flag: --fast",
	}})

	// The OTEL_EXPORTER_OTLP_* variables turn the export on when the
	// flag is not given; the flag, even empty, wins.
	env := deps{otlpEnv: func() string { return "http://127.0.0.1:4318" }}
	checkFlags(t, newCmd, env, []flagCase[runOptions]{{
		name: "endpoint from the environment",
		args: []string{"informer-basics"},
		want: runOptions{scenario: "informer-basics", otlpEndpoint: "env", otlpTimeout: timeout},
	}, {
		name: "the flag wins",
		args: []string{"informer-basics", "--otlp-endpoint", "http://collector:4318"},
		want: runOptions{scenario: "informer-basics", otlpEndpoint: "http://collector:4318", otlpTimeout: timeout},
	}, {
		name: "an empty flag turns the export off",
		args: []string{"informer-basics", "--otlp-endpoint", ""},
		want: runOptions{scenario: "informer-basics", otlpTimeout: timeout},
	}})
}

// TestRunRefusesBeforeCreating: what the run function refuses (a scenario
// it cannot find, an endpoint it cannot use) it refuses before it creates
// the recording.
func TestRunRefusesBeforeCreating(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		o    runOptions
		want string
	}{
		{"no such scenario", runOptions{scenario: "no-such-scenario"}, `unknown scenario "no-such-scenario": no such file, and no built-in of that name; the built-ins are cluster-basics,`},
		{"bad endpoint scheme", runOptions{scenario: "informer-basics", otlpEndpoint: "ftp://127.0.0.1:1"},
			`--otlp-endpoint: invalid OTLP endpoint "ftp://127.0.0.1:1": the scheme must be http, https, grpc or grpcs`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			o := tc.o
			o.io, o.clock = streams{out: &bytes.Buffer{}, err: &stderr}, clocktesting.NewFakePassiveClock(time.Now())
			o.out = filepath.Join(dir, tc.name+".jsonl")
			err := runRun(context.Background(), &o)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %v\nwant one starting %s", err, tc.want)
			}
			if _, statErr := os.Stat(o.out); !os.IsNotExist(statErr) {
				t.Errorf("a refused run left %s behind (%v)", o.out, statErr)
			}
			if stderr.Len() > 0 {
				t.Errorf("a refused run printed:\n%s", stderr.String())
			}
		})
	}
}

// TestRunNamesTheRecordingByItsClock: without --out, the recording is
// recordings/<scenario>-<time the run starts>.jsonl, and the summary says
// where it is.
func TestRunNamesTheRecordingByItsClock(t *testing.T) {
	t.Chdir(t.TempDir())
	var stderr bytes.Buffer
	synctest.Test(t, func(t *testing.T) {
		n := memnet.New()
		o := &runOptions{
			io:      streams{out: &bytes.Buffer{}, err: &stderr},
			network: network{listen: n.Listen, dial: n.Dial},
			clock:   clocktesting.NewFakePassiveClock(time.Date(2026, 3, 4, 5, 6, 7, 0, time.Local)),

			runVirtual: inTestBubble,

			scenario: "informer-basics", duration: 5 * time.Second, quiet: true,
		}
		if err := runRun(context.Background(), o); err != nil {
			t.Fatal(err)
		}
	})
	want := filepath.Join("recordings", "informer-basics-20260304-050607.jsonl")
	if _, err := os.Stat(want); err != nil {
		t.Errorf("no recording named by the clock: %v", err)
	}
	// The fake clock stands still: the run took no real time.
	for _, line := range []string{"finished informer-basics: 5s simulated in 0s real", "recording: " + want, "replay it:  kubeloom replay " + want} {
		if !strings.Contains(stderr.String(), line) {
			t.Errorf("the summary lacks %q:\n%s", line, stderr.String())
		}
	}
}
