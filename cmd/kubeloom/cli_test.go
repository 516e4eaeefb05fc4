package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"k8s.io/utils/clock"

	"github.com/kubeloom/kubeloom/internal/memnet"
	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/engine"
	"github.com/kubeloom/kubeloom/traces"
)

// execute runs the CLI with args and returns stdout, stderr and the error.
func execute(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	return executeIn(t, deps{}, args...)
}

// executeInBubble is execute for a test inside a synctest bubble: run's
// servers are on an in-memory network, where a goroutine waiting for a
// connection lets the bubble's clock move (on a real socket it would not).
func executeInBubble(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	n := memnet.New()
	return executeIn(t, deps{network: network{listen: n.Listen, dial: n.Dial}}, args...)
}

// inTestBubble is how a test runs a scenario in virtual time: in the
// synctest bubble the test is already in (engine.RunVirtual makes its own,
// which a test binary cannot: internal/bubble), on an in-memory network.
func inTestBubble(ctx context.Context, o engine.Options) (*engine.Summary, error) {
	if o.Listen == nil {
		n := memnet.New()
		o.Listen, o.Dial = n.Listen, n.Dial
	}
	if o.Watch == nil {
		o.Watch = &engine.Watch{}
	}
	return engine.Run(ctx, o)
}

// executeIn runs the CLI with d; a run in virtual time runs in the test's
// bubble (inTestBubble), so a test that runs one calls synctest.Test.
func executeIn(t *testing.T, d deps, args ...string) (string, string, error) {
	t.Helper()
	if d.runVirtual == nil {
		d.runVirtual = inTestBubble
	}
	var out, errOut bytes.Buffer
	d.in, d.out, d.err = strings.NewReader(""), &out, &errOut
	cmd := newRootCmd(d)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	return out.String(), errOut.String(), err
}

func TestRunThenReplay(t *testing.T) {
	file := filepath.Join(t.TempDir(), "basics.jsonl")
	var stderr string
	synctest.Test(t, func(t *testing.T) {
		var err error
		_, stderr, err = execute(t, "run", "informer-basics", "--out", file)
		if err != nil {
			t.Fatalf("run: %v\n%s", err, stderr)
		}
	})
	for _, want := range []string{
		"finished informer-basics: 30s simulated",
		"informer/listener-pop        started   2  stopped   2",
		"every goroutine stopped",
		"replay it:  kubeloom replay " + file,
		"breakWatches at 20s",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("run output lacks %q:\n%s", want, stderr)
		}
	}
	out, _, err := execute(t, "replay", file, "--width", "100")
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	for _, want := range []string{"informer-basics", "reflector/list-watch", "informer/listener-run", "watch/stream-receive"} {
		if !strings.Contains(out, want) {
			t.Errorf("replay output lacks %q:\n%s", want, out)
		}
	}
	for i, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if n := len([]rune(line)); n > 100 {
			t.Errorf("replay line %d is %d columns wide, more than --width 100", i+1, n)
		}
	}

	// A recording cut in the middle of a line still replays, with a warning.
	data, _ := os.ReadFile(file)
	cut := filepath.Join(t.TempDir(), "cut.jsonl")
	os.WriteFile(cut, data[:len(data)-40], 0o644)
	out, stderr, err = execute(t, "replay", cut, "--width", "80")
	if err != nil {
		t.Fatalf("replay of a truncated file: %v", err)
	}
	lines := strings.Count(string(data), "\n")
	if !strings.Contains(stderr, "cut.jsonl:"+strconv.Itoa(lines)+":") || !strings.Contains(out, "reflector/list-watch") {
		t.Errorf("truncated replay: stderr %q, out has timeline: %v", stderr, strings.Contains(out, "reflector/list-watch"))
	}
}

func TestInterruptedRunKeepsAValidRecording(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cut-short.jsonl")
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		var errOut bytes.Buffer
		done := make(chan error)
		go func() {
			done <- runRun(ctx, &runOptions{io: streams{out: &bytes.Buffer{}, err: &errOut}, clock: clock.RealClock{}, runVirtual: inTestBubble, scenario: "informer-basics", out: file, quiet: true})
		}()
		time.Sleep(12 * time.Second) // 12 simulated seconds into the run (virtual time): Ctrl-C then
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("interrupted run: %v", err)
		}
		if !strings.Contains(errOut.String(), "interrupted informer-basics") {
			t.Errorf("summary does not say the run was interrupted:\n%s", errOut.String())
		}
	})
	out, stderr, err := execute(t, "replay", file, "--width", "80")
	if err != nil || stderr != "" || !strings.Contains(out, "listener-run") {
		t.Errorf("replay of an interrupted run: err %v, stderr %q", err, stderr)
	}
}

func TestScenariosCommands(t *testing.T) {
	out, _, err := execute(t, "scenarios", "list")
	if err != nil || !strings.Contains(out, "informer-basics") || !strings.Contains(out, "informer-eras") {
		t.Errorf("scenarios list: %v\n%s", err, out)
	}
	out, _, err = execute(t, "scenarios", "show", "informer-eras")
	if err != nil || !strings.Contains(out, "eras:") {
		t.Errorf("scenarios show: %v\n%s", err, out)
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	bad := filepath.Join(dir, "bad.yaml")
	src, _, _ := execute(t, "scenarios", "show", "informer-basics")
	os.WriteFile(good, []byte(src), 0o644)
	os.WriteFile(bad, []byte("apiVersion: kubeloom.dev/v1\nkind: Scenario\nmetadata: {name: x}\nspec:\n  duraton: 10s\n"), 0o644)
	// Well-formed, but the v1.5 binary has no such flag: validate refuses
	// what run would.
	flag := filepath.Join(dir, "flag.yaml")
	os.WriteFile(flag, []byte("apiVersion: kubeloom.dev/v1\nkind: Scenario\nmetadata: {name: x}\nspec:\n  duration: 10s\n  controllerManager:\n    flags: {\"--concurrent-job-syncs\": \"5\"}\n"), 0o644)
	out, _, err = execute(t, "scenarios", "validate", good, bad, flag)
	if err == nil || !strings.Contains(err.Error(), "2 of 3") {
		t.Errorf("validate error = %v", err)
	}
	for _, want := range []string{good + ": ok", bad + ":5:3: spec.duraton: unknown field",
		flag + ":7:39: spec.controllerManager.flags.--concurrent-job-syncs: unknown flag: the classic kube-controller-manager has no --concurrent-job-syncs"} {
		if !strings.Contains(out, want) {
			t.Errorf("validate output lacks %q:\n%s", want, out)
		}
	}
	// A file in the working folder named like a built-in is what run
	// would run, so it is what show prints.
	t.Chdir(dir)
	os.WriteFile("informer-basics", []byte("apiVersion: kubeloom.dev/v1\nkind: Scenario\nmetadata: {name: local}\nspec: {duration: 10s}\n"), 0o644)
	out, _, err = execute(t, "scenarios", "show", "informer-basics")
	if err != nil || !strings.Contains(out, "name: local") {
		t.Errorf("show of a local file named like a built-in: %v\n%s", err, out)
	}
}

func TestGoroutinesAndVersion(t *testing.T) {
	out, _, err := execute(t, "goroutines")
	if err != nil || !strings.Contains(out, "informer/listener-pop") || !strings.Contains(out, "pkg/client/cache/reflector.go") {
		t.Errorf("goroutines: %v\n%s", err, out)
	}
	out, _, _ = execute(t, "goroutines", "--long")
	if !strings.Contains(out, "每个 handler 一个") {
		t.Errorf("goroutines --long lacks the Chinese narrative")
	}
	if e, _ := catalog.Lookup("informer/listener-pop"); !strings.Contains(out, "(rendered in English: "+e.Story("en").Rendering+")") {
		t.Errorf("goroutines --long lacks the English rendering of the article's words")
	}
	out, _, err = execute(t, "version")
	if err != nil || !strings.HasPrefix(out, "kubeloom ") {
		t.Errorf("version: %v %q", err, out)
	}
}

func TestRunRefusesWhatItCannotSimulate(t *testing.T) {
	dir := t.TempDir()
	for name, tc := range map[string]struct{ spec, want string }{
		"manifest URL": {"  kubelets: {count: 2, manifestURL: true}\n", "spec.kubelets.manifestURL: kubeloom serves the manifests of <manifestDir>/url at the URL; set manifestDir too"},
		"unknown flag": {"  controllerManager:\n    flags: {\"--no-such-flag\": \"1\"}\n",
			"cm.yaml:7:31: spec.controllerManager.flags.--no-such-flag: unknown flag: the classic kube-controller-manager has no --no-such-flag"},
		"bad value": {"  controllerManager:\n    flags: {\"--node-monitor-period\": \"soon\"}\n",
			"cm.yaml:7:38: spec.controllerManager.flags.--node-monitor-period: invalid argument \"soon\""},
		"no cloud": {"  controllerManager:\n    flags: {\"--cloud-provider\": aws}\n", "kubeloom simulates no cloud provider"},
		"controllers": {"  controllerManager: {controllers: [\"*\", \"-ttl\"]}\n",
			`cm.yaml:6:42: spec.controllerManager.controllers[1]: "-ttl" is no controller kubeloom knows; expected one of endpoint, replicationcontroller, podgc,`},
	} {
		t.Run(name, func(t *testing.T) {
			sc := filepath.Join(dir, "cm.yaml")
			os.WriteFile(sc, []byte("apiVersion: kubeloom.dev/v1\nkind: Scenario\nmetadata: {name: cm}\nspec:\n  duration: 1m\n"+tc.spec), 0o644)
			out := filepath.Join(dir, name+".jsonl")
			_, _, err := execute(t, "run", sc, "--out", out)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v\nwant %s", err, tc.want)
			}
			if _, statErr := os.Stat(out); !os.IsNotExist(statErr) {
				t.Errorf("a refused run left a recording behind: %v", statErr)
			}
		})
	}
}

// TestRunControllerManagerFailover runs the failover lesson through the
// CLI, in a synctest bubble (virtual time: the same on a loaded machine),
// with its replicas' HTTP servers on an in-memory network.
func TestRunControllerManagerFailover(t *testing.T) {
	file := filepath.Join(t.TempDir(), "fo.jsonl")
	var stderr string
	synctest.Test(t, func(t *testing.T) {
		var err error
		_, stderr, err = executeInBubble(t, "run", "cm-leader-failover", "--duration", "90s", "--out", file)
		if err != nil {
			t.Fatalf("run: %v\n%s", err, stderr)
		}
	})
	// Virtual time: the servers answer on the run's in-memory network, which
	// one line says, once, naming the first server up. Both eras start theirs
	// at the same simulated instant, in worlds of their own whose goroutines
	// are not ordered against each other's, so it may be either era's.
	inMemory := regexp.MustCompile(`(?m)^  the servers \((classic|modern)/cm-0 /healthz /configz /metrics /debug/pprof/, …\) answer on the run's in-memory network; 'kubeloom run … --live' serves them on 127\.0\.0\.1$`)
	if n := len(inMemory.FindAllString(stderr, -1)); n != 1 || strings.Count(stderr, "the servers (") != 1 {
		t.Errorf("run output says %d times that the servers answer in memory, want once:\n%s", n, stderr)
	}
	for _, want := range []string{
		"killLeader at 1m0s",
		"exited: killed by the scenario (killLeader): the process got SIGKILL",
		"cm/leader-renew", "every goroutine stopped",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("run output lacks %q:\n%s", want, stderr)
		}
	}
	out, _, err := execute(t, "replay", file, "--width", "140", "--to", "30s")
	if err != nil || !strings.Contains(out, "kube-controller-manager classic/cm-0") || !strings.Contains(out, "▸ controller-manager (") {
		t.Errorf("replay: %v\n%s", err, out)
	}
}

// TestRunEra runs a two-era lesson in one era only, as --era asks.
func TestRunEra(t *testing.T) {
	file := filepath.Join(t.TempDir(), "modern.jsonl")
	var stderr string
	synctest.Test(t, func(t *testing.T) {
		var err error
		_, stderr, err = executeInBubble(t, "run", "cm-leader-failover", "--era", "modern", "--duration", "20s", "--out", file)
		if err != nil {
			t.Fatalf("run: %v\n%s", err, stderr)
		}
	})
	for _, want := range []string{"era modern)", "the servers (cm-0 /healthz"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("run output lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "classic") {
		t.Errorf("a modern-only run mentions the classic era:\n%s", stderr)
	}
	out, _, err := execute(t, "replay", file, "--width", "140")
	if err != nil || !strings.Contains(out, "kube-controller-manager cm-0") || !strings.Contains(out, "controller/statefulset") {
		t.Errorf("replay: %v\n%s", err, out)
	}

	_, _, err = execute(t, "run", "cm-startup", "--era", "ancient", "--out", filepath.Join(t.TempDir(), "x.jsonl"))
	if err == nil || !strings.Contains(err.Error(), `invalid argument "ancient" for "--era" flag: unknown era "ancient": expected classic or modern`) {
		t.Errorf("--era ancient: %v", err)
	}
}

// TestScenariosShowTellsWhatToWatchFor: show prints the description and
// what to watch for in the language asked, then the file, and the whole
// output is still a scenario file; list --lang zh describes in Chinese.
func TestScenariosShowTellsWhatToWatchFor(t *testing.T) {
	sc, err := scenarios.Builtin("goroutine-leak")
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "zh"} {
		out, _, err := execute(t, "scenarios", "show", "goroutine-leak", "--lang", lang)
		if err != nil {
			t.Fatal(err)
		}
		text := sc.Metadata.Text(lang)
		flat := strings.Join(strings.Fields(strings.NewReplacer("#   - ", "", "#     ", "", "# ", "").Replace(out)), "")
		for _, want := range append([]string{text.Description}, text.WatchFor...) {
			if !strings.Contains(flat, strings.Join(strings.Fields(want), "")) {
				t.Errorf("--lang %s: the output lacks %q:\n%s", lang, want, out)
			}
		}
		if !strings.Contains(out, "kubeloom run goroutine-leak --out recordings/goroutine-leak.jsonl") {
			t.Errorf("--lang %s: no command to run it:\n%s", lang, out)
		}
		if _, err := scenarios.Parse("shown.yaml", []byte(out)); err != nil {
			t.Errorf("--lang %s: the output is not a scenario file: %v", lang, err)
		}
	}
	out, _, err := execute(t, "scenarios", "list", "--lang", "zh")
	if err != nil || !strings.Contains(out, sc.Metadata.ZH.Description) {
		t.Errorf("list --lang zh: %v\n%s", err, out)
	}
	if _, _, err := execute(t, "scenarios", "show", "goroutine-leak", "--lang", "qaa"); err == nil || !strings.Contains(err.Error(), `invalid argument "qaa" for "--lang" flag`) {
		t.Errorf("--lang qaa: %v", err)
	}
}

// TestHintsUseTheCallersSpelling: the commands run prints, and help's
// examples, are written the way kubeloom was called, so they paste.
func TestHintsUseTheCallersSpelling(t *testing.T) {
	file := filepath.Join(t.TempDir(), "run.jsonl")
	var stderr string
	synctest.Test(t, func(t *testing.T) {
		n := memnet.New()
		var err error
		_, stderr, err = executeIn(t, deps{streams: streams{prog: "bin/kubeloom"}, network: network{listen: n.Listen, dial: n.Dial}}, "run", "informer-basics", "--duration", "10s", "--out", file, "-q")
		if err != nil {
			t.Fatal(err)
		}
	})
	if want := "replay it:  bin/kubeloom replay " + file; !strings.Contains(stderr, want) {
		t.Errorf("run's summary lacks %q:\n%s", want, stderr)
	}
	out, _, err := executeIn(t, deps{streams: streams{prog: "./kubeloom"}}, "replay", "--help")
	_, examples, _ := strings.Cut(out, "Examples:")
	if err != nil || !strings.Contains(examples, "  ./kubeloom replay recordings/informer-basics.jsonl") || strings.Contains(examples, "  kubeloom replay") {
		t.Errorf("replay --help (err %v) does not spell its examples ./kubeloom:\n%s", err, out)
	}
	for arg0, want := range map[string]string{
		"bin/kubeloom": "bin/kubeloom", "kubeloom": "kubeloom", "": "kubeloom",
		"/tmp/go-build123/b001/exe/kubeloom": "go run ./cmd/kubeloom",
	} {
		if got := programName(arg0); got != want {
			t.Errorf("programName(%q) = %q, want %q", arg0, got, want)
		}
	}
}

// TestFailedActionsSpeak: an action that fails is a warning when it
// happens and a line of the summary; --strict makes the run fail, and the
// recording is complete either way, with the action's span in error.
func TestFailedActionsSpeak(t *testing.T) {
	dir := t.TempDir()
	scenario := filepath.Join(dir, "gone.yaml")
	os.WriteFile(scenario, []byte(`apiVersion: kubeloom.dev/v1
kind: Scenario
metadata: {name: gone}
spec:
  duration: 20s
  informers:
    - {resource: pods, handlers: 1}
  actions:
    - at: 10s
      delete: {kind: Pod, namespace: default, name: web-0}
`), 0o644)
	for _, strict := range []bool{false, true} {
		file := filepath.Join(dir, fmt.Sprintf("strict-%v.jsonl", strict))
		args := []string{"run", scenario, "--out", file, "-q"}
		if strict {
			args = append(args, "--strict")
		}
		var stderr string
		var err error
		synctest.Test(t, func(t *testing.T) { _, stderr, err = executeInBubble(t, args...) })
		warning := "warning: delete at 10s (" + scenario + ":9:7) failed: pods \"web-0\" not found"
		if !strings.Contains(stderr, warning) || !strings.Contains(stderr, "1 of 1 actions FAILED") {
			t.Errorf("strict %v: the output lacks the warning %q or the summary's line:\n%s", strict, warning, stderr)
		}
		if strict && (err == nil || !strings.Contains(err.Error(), "--strict: 1 of the scenario's actions failed")) {
			t.Errorf("--strict: err = %v, want the run to fail", err)
		}
		if !strict && err != nil {
			t.Errorf("without --strict: err = %v, want none", err)
		}
		f, ferr := os.Open(file)
		if ferr != nil {
			t.Fatal(ferr)
		}
		spans, rerr := traces.Read(f, file)
		f.Close()
		failed := false
		for _, s := range spans {
			failed = failed || s.Name == "action/delete" && s.StatusCode == "Error"
		}
		if rerr != nil || !failed {
			t.Errorf("strict %v: the recording (%v) has no action/delete span with status Error", strict, rerr)
		}
	}
}
