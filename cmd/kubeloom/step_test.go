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
)

// executeStep runs `kubeloom step` with args and returns stdout, stderr and
// the error. Buffers are no terminal, so it never starts the interactive
// program.
func executeStep(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := newStepCmd(deps{streams: streams{in: strings.NewReader(""), out: &out, err: &errOut}}, nil)
	cmd.SetArgs(args)
	cmd.SetOut(&errOut)
	cmd.SetErr(&errOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.ExecuteContext(context.Background())
	return out.String(), errOut.String(), err
}

func TestStepPlainOfARealRecording(t *testing.T) {
	file := filepath.Join(t.TempDir(), "basics.jsonl")
	synctest.Test(t, func(t *testing.T) {
		if _, stderr, err := execute(t, "run", "informer-basics", "--out", file); err != nil {
			t.Fatalf("run: %v\n%s", err, stderr)
		}
	})

	out, stderr, err := executeStep(t, file, "--plain")
	if err != nil || stderr != "" {
		t.Fatalf("step --plain: %v\n%s", err, stderr)
	}
	for _, want := range []string{
		"kubeloom step · informer-basics · ",
		"goroutine started · informer/listener-run",
		"iteration · OnAdd #1",
		"object default/web-0",
		"What it does\n  One per handler.",
		"The article says\n  「",
		"Kubernetes source\n  sharedProcessor.run → go listener.run(stopCh)\n  pkg/client/cache/shared_informer.go",
		"Then vs now\n  ",
		"goroutine stopped · informer/listener-pop",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("step --plain lacks %q", want)
		}
	}
	blocks := strings.Count(out, "\n── step ")
	if blocks < 50 {
		t.Errorf("step --plain printed %d steps", blocks)
	}

	// Output that is no terminal gets the plain text without asking.
	if same, _, err := executeStep(t, file); err != nil || same != out {
		t.Errorf("step to a buffer without --plain: %v; same output: %v", err, same == out)
	}

	zh, _, err := executeStep(t, file, "--lang", "zh", "--from", "20s", "--to", "25s")
	if err != nil {
		t.Fatalf("step --lang zh: %v", err)
	}
	if !strings.Contains(zh, "它做什么\n  ") || !strings.Contains(zh, "action/breakWatches") || strings.Contains(zh, "What it does") {
		t.Errorf("step --lang zh --from 20s --to 25s:\n%s", zh)
	}
	if n := strings.Count(zh, "\n── 第 "); n == 0 || n >= blocks {
		t.Errorf("the 20s-25s window has %d steps of %d", n, blocks)
	}

	// A recording cut in the middle of a line still steps, with a warning.
	data, _ := os.ReadFile(file)
	cut := filepath.Join(t.TempDir(), "cut.jsonl")
	os.WriteFile(cut, data[:len(data)-40], 0o644)
	out, stderr, err = executeStep(t, cut, "--plain")
	if err != nil || !strings.Contains(stderr, "cut.jsonl:") || !strings.Contains(out, "informer/run") {
		t.Errorf("step of a truncated file: %v\nstderr %q", err, stderr)
	}
}

func TestStepErrors(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	notJSON := filepath.Join(dir, "notes.txt")
	os.WriteFile(notJSON, []byte("these are my notes\n"), 0o644)
	good := filepath.Join(dir, "good.jsonl")
	os.WriteFile(good, []byte(`{"Name":"run","SpanContext":{"TraceID":"0123456789abcdef0123456789abcdef","SpanID":"0123456789abcdef"},"StartTime":"2026-01-01T00:00:00Z","EndTime":"2026-01-01T00:00:10Z","Resource":[{"Key":"service.name","Value":{"Type":"STRING","Value":"kubelet"}}]}`+"\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "accepts 1 arg(s), received 0"},
		{[]string{good, "--lang", "qaa"}, `invalid argument "qaa" for "--lang" flag: unknown language "qaa": expected en (English)`},
		{[]string{good, "--from", "soon"}, `invalid argument "soon" for "--from"`},
		{[]string{good, "--from", "-1s"}, "cannot be negative"},
		{[]string{good, "--from", "20s", "--to", "10s"}, "--to must be after --from"},
		{[]string{good, "--from", "1m"}, "no step between 1m0s and 0s: the recording runs from 0s to 10s"},
		{[]string{filepath.Join(dir, "missing.jsonl")}, "no such file"},
		{[]string{empty}, "no spans in the recording: expected a JSON Lines file written by kubeloom run --out"},
		{[]string{notJSON}, "notes.txt:1:"},
	} {
		_, _, err := executeStep(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("step %v: error %v, want it to mention %q", tc.args, err, tc.want)
		}
	}
	if out, _, err := executeStep(t, good); err != nil || !strings.Contains(out, "call · run") {
		t.Errorf("step of a one-span recording: %v\n%s", err, out)
	}
}

func TestNewStepCmd(t *testing.T) {
	checkFlags(t, withoutContext(newStepCmd), deps{}, []flagCase[stepOptions]{{
		name: "defaults",
		args: []string{"run.jsonl"},
		want: stepOptions{file: "run.jsonl", lang: "en"},
	}, {
		name: "every flag",
		args: []string{"run.jsonl", "--lang", "zh", "--plain", "--from", "20s", "--to", "25s"},
		want: stepOptions{file: "run.jsonl", lang: "zh", plain: true, from: 20 * time.Second, to: 25 * time.Second},
	}, {
		name: "no file",
		err:  "accepts 1 arg(s), received 0",
	}, {
		name: "from not a duration",
		args: []string{"run.jsonl", "--from", "soon"},
		err:  `invalid argument "soon" for "--from" flag: time: invalid duration "soon"`,
	}, {
		name: "a language kubeloom does not speak",
		args: []string{"run.jsonl", "--lang", "qaa"},
		err:  `invalid argument "qaa" for "--lang" flag: unknown language "qaa": expected en (English) or zh (中文)`,
	}, {
		name: "an empty language",
		args: []string{"run.jsonl", "--lang", ""},
		err:  `invalid argument "" for "--lang" flag: expected en (English) or zh (中文)`,
	}})
}
