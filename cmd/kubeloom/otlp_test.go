package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeloom/kubeloom/internal/deadend"
	"github.com/kubeloom/kubeloom/traces"
)

// TestRunWithADeadCollector: a collector that refuses or never answers
// costs one warning; the run succeeds and its recording is complete.
func TestRunWithADeadCollector(t *testing.T) {
	for _, tc := range []struct {
		name     string
		endpoint func(*testing.T) string
		// what the warning says, live (the exporter, as spans end) and in
		// virtual time (the push when the run has ended)
		live, virtual string
	}{
		{"refused over HTTP", func(t *testing.T) string { return "http://" + deadend.Refused(t) }, "connection refused", "connection refused"},
		{"hung over HTTP", func(t *testing.T) string { return "http://" + deadend.Hung(t) }, "failed: no answer within 500ms", "gave up after 500ms"},
		{"hung over gRPC", func(t *testing.T) string { return "grpc://" + deadend.Hung(t) }, "failed: no answer within 500ms", "gave up after 500ms"},
	} {
		for _, mode := range []string{"live", "virtual time"} {
			t.Run(tc.name+", "+mode, func(t *testing.T) {
				t.Parallel()
				want := tc.live
				if mode != "live" {
					want = tc.virtual
				}
				checkDeadCollector(t, mode, tc.endpoint(t), want)
			})
		}
	}
}

// checkDeadCollector runs informer-basics exporting to endpoint: live in
// this process, and in virtual time as a user does (the built binary,
// which pushes the recording when the run ends).
func checkDeadCollector(t *testing.T, mode, endpoint, want string) {
	file := filepath.Join(t.TempDir(), "run.jsonl")
	args := []string{"run", "informer-basics", "-q", "--duration", "10s", "--out", file, "--otlp-endpoint", endpoint, "--otlp-timeout", "500ms"}
	var stderr string
	var err error
	if mode == "live" {
		_, stderr, err = execute(t, append(args, "--speed", "200")...)
	} else {
		r := runProcess(t, builtBinary(t), "", args...)
		stderr, err = r.stderr, r.exitErr
	}
	if err != nil {
		t.Fatalf("the run failed: %v\n%s", err, stderr)
	}
	if n := strings.Count(stderr, "warning:"); n != 1 {
		t.Errorf("%d warnings, want one:\n%s", n, stderr)
	}
	if w := "warning: the OTLP export to " + endpoint + " failed"; !strings.Contains(stderr, w) {
		t.Errorf("the warning does not say %q:\n%s", w, stderr)
	}
	if !strings.Contains(stderr, want) {
		t.Errorf("the warning does not say %q:\n%s", want, stderr)
	}
	if !strings.Contains(stderr, "the recording is complete") {
		t.Errorf("the output does not say the recording is complete:\n%s", stderr)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	spans, err := traces.Read(f, file)
	if err != nil || len(spans) == 0 {
		t.Errorf("the recording: %d spans, %v", len(spans), err)
	}
}

// TestRunChecksTheEndpointFirst: a bad endpoint, from the flag or the
// environment, stops the run before it creates the recording.
func TestRunChecksTheEndpointFirst(t *testing.T) {
	for _, tc := range []struct {
		name, flag, env, want string
	}{
		{"flag", "127.0.0.1:4318", "", `--otlp-endpoint: invalid OTLP endpoint "127.0.0.1:4318"`},
		{"environment", "", "127.0.0.1:4318", `OTEL_EXPORTER_OTLP_ENDPOINT="127.0.0.1:4318" is not a URL`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "")
			t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", tc.env)
			file := filepath.Join(t.TempDir(), "run.jsonl")
			args := []string{"run", "informer-basics", "-q", "--out", file}
			if tc.flag != "" {
				args = append(args, "--otlp-endpoint", tc.flag)
			}
			_, _, err := execute(t, args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one with %q", err, tc.want)
			}
			if _, err := os.Stat(file); !os.IsNotExist(err) {
				t.Errorf("the failed run left %s behind (%v)", file, err)
			}
		})
	}
}

// TestStdoutInBothModes: --stdout prints every span of the recording as
// stdouttrace does, live and in virtual time (as a user runs it: the built
// binary, whose exporter writes outside the run's bubble).
func TestStdoutInBothModes(t *testing.T) {
	for _, mode := range []string{"live", "virtual time"} {
		t.Run(mode, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "run.jsonl")
			args := []string{"run", "informer-basics", "-q", "--duration", "10s", "--out", file, "--stdout"}
			var stdout, stderr string
			var err error
			if mode == "live" {
				stdout, stderr, err = execute(t, append(args, "--speed", "200")...)
			} else {
				cmd := exec.Command(builtBinary(t), args...)
				var out, errOut strings.Builder
				cmd.Stdout, cmd.Stderr = &out, &errOut
				err = cmd.Run()
				stdout, stderr = out.String(), errOut.String()
			}
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			spans, err := traces.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(stdout, "\n"+`{"Name":`) + 1; n != len(spans) || !strings.Contains(stdout, `"Name":"informer/run"`) {
				t.Errorf("--stdout printed %d spans, the recording has %d", n, len(spans))
			}
		})
	}
}
