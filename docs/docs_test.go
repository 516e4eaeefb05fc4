// Package docs holds kubeloom's documentation. Its test runs the commands
// the documentation shows, so that they keep working.
package docs

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
)

// A command in a ```sh block of the docs.
type command struct {
	doc  string // path from the repository root
	line int
	text string
}

// notRun are the commands of ```sh blocks the test does not run, by their
// first words, and why. Everything else must be a kubeloom command.
var notRun = map[string]string{
	"make test":          "this is the test suite; .ci/run runs it",
	"make demo":          ".ci/run runs it",
	"make build":         "the test builds the binary itself",
	"make bench":         "benchmarks take minutes",
	"make fuzz":          "fuzzing takes minutes",
	"make lint":          ".ci/run runs it",
	"make docs":          "TestGeneratedDocsAreUpToDate in cmd/kubeloom and TestFigures here check what it writes",
	"make docs-picture":  "TestBrowser in traces/htmlview takes the picture on every run, TestPictureIsCurrent checks it",
	"make jaeger":        "runs until Ctrl-C; internal/jaegertest runs the same binary",
	"make jaeger-build":  ".ci/run runs it",
	"go tool trace":      "opens a browser; cmd/kubeloom's TestGoTraceNamesRegionsAfterGoroutines reads the trace",
	"bin/kubeloom serve": "runs until Ctrl-C; cmd/kubeloom's TestServeCtrlCLeavesAValidRecording runs the binary, serve's TestLivePage its page",
}

// TestCommandsInTheDocs runs every command of every ```sh block of
// README.md, README.zh.md and docs/ (English and 中文), in order, exactly as
// a user pastes them at the repository's root after `make build`: one
// working directory per document, holding what a clone holds (its files,
// linked read-only) and the binary at bin/kubeloom; kubeloom is not on the
// PATH, so a command must say bin/kubeloom. Commands that need a collector
// on 127.0.0.1:4317 or :4318 find one: the test serves OTLP there, unless
// something (your Jaeger) already does. Commands in ```text blocks are not
// run: synopses, placeholders, docker.
func TestCommandsInTheDocs(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	docs := []string{"README.md", "README.zh.md"}
	for _, pattern := range []string{"docs/*.md", "docs/zh/*.md"} {
		m, _ := filepath.Glob(filepath.Join(root, pattern))
		for _, p := range m {
			rel, _ := filepath.Rel(root, p)
			docs = append(docs, rel)
		}
	}
	var all [][]command
	total := 0
	only := onlyDocuments()
	for _, d := range docs {
		if only != nil && !slices.Contains(only, d) {
			continue
		}
		cmds, err := commandsOf(root, d)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(cmds) > 0 {
			all = append(all, cmds)
			total += len(cmds)
		}
	}
	if total < 20 && only == nil {
		t.Fatalf("found %d commands in %d documents; the docs show more than that", total, len(docs))
	}

	kubeloom := kubeloomBinary(t, root)
	makefile, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	serveOTLP(t)

	for _, cmds := range all {
		t.Run(cmds[0].doc, func(t *testing.T) {
			t.Parallel()
			dir := cloneLike(t, root, kubeloom)
			for _, c := range cmds {
				run(t, c, dir, string(makefile))
			}
		})
	}
}

// cloneLike makes a working directory that looks like the repository's
// root after make build: a link to each of the repository's top-level
// entries (the docs' commands read scenario files, and only write new
// files: recordings/, exports) and bin/kubeloom.
func cloneLike(t *testing.T, root, kubeloom string) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		switch e.Name() {
		case ".git", "bin", "recordings": // a fresh clone has no build and no recordings
			continue
		}
		if err := os.Symlink(filepath.Join(root, e.Name()), filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(kubeloom, filepath.Join(dir, "bin", "kubeloom")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// run runs one command, or checks why it is not run.
func run(t *testing.T, c command, dir, makefile string) {
	where := fmt.Sprintf("%s:%d: %s", c.doc, c.line, c.text)
	words := strings.Fields(withoutEnv(c.text))
	for prefix, why := range notRun {
		if strings.Join(words[:min(len(words), len(strings.Fields(prefix)))], " ") == prefix {
			if words[0] == "make" && !regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(words[1])+`:`).MatchString(makefile) {
				t.Errorf("%s: the Makefile has no target %s", where, words[1])
			}
			t.Logf("not run (%s): %s", why, where)
			return
		}
	}
	switch words[0] {
	case "bin/kubeloom":
	case "kubeloom", "./kubeloom":
		t.Errorf("%s: kubeloom is not on a new user's PATH: write bin/kubeloom, which `make build` makes", where)
		return
	default:
		t.Errorf("%s: not a kubeloom command; put it in a ```text block, or add it to notRun with the reason", where)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-e", "-o", "pipefail", "-c", c.text)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "COLUMNS=120")
	cmd.Stdin = nil
	start := time.Now()
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if len(words) > 1 && words[1] == "diff" && errors.As(err, &exit) && exit.ExitCode() == 1 {
		err = nil // diff's "the recordings differ", as diff(1)'s; 2 is trouble
	}
	if err != nil {
		t.Errorf("%s: %v\n%s", where, err, tail(string(out), 30))
		return
	}
	t.Logf("ok in %s: %s", time.Since(start).Round(time.Millisecond), where)
}

// commandsOf returns the commands of the ```sh blocks of a document:
// lines without their trailing comments, continuation lines joined.
func commandsOf(root, doc string) ([]command, error) {
	f, err := os.Open(filepath.Join(root, doc))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var cmds []command
	inSh, inBlock := false, false
	pending, pendingLine := "", 0
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			if inBlock {
				inBlock, inSh = false, false
				continue
			}
			inBlock = true
			lang := strings.TrimPrefix(trimmed, "```")
			inSh = lang == "sh" || lang == "bash" || lang == "shell" || lang == "console"
			continue
		}
		if !inSh {
			continue
		}
		text := strings.TrimSpace(stripComment(trimmed))
		text = strings.TrimPrefix(text, "$ ")
		if text == "" {
			continue
		}
		if pending == "" {
			pendingLine = n
		}
		if strings.HasSuffix(text, `\`) {
			pending += strings.TrimSuffix(text, `\`) + " "
			continue
		}
		cmds = append(cmds, command{doc: doc, line: pendingLine, text: strings.TrimSpace(strings.TrimSuffix(pending+text, "&"))})
		pending = ""
	}
	return cmds, sc.Err()
}

// stripComment removes a trailing "# ..." outside quotes.
func stripComment(s string) string {
	quote := rune(0)
	for i, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#' && (i == 0 || s[i-1] == ' '):
			return s[:i]
		}
	}
	return s
}

// withoutEnv drops leading VAR=value assignments.
func withoutEnv(s string) string {
	f := strings.Fields(s)
	for len(f) > 1 && regexp.MustCompile(`^[A-Z_][A-Z0-9_]*=`).MatchString(f[0]) {
		f = f[1:]
	}
	return strings.Join(f, " ")
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// serveOTLP accepts OTLP/gRPC on 127.0.0.1:4317 and OTLP/HTTP on :4318, the
// ports the docs use, and answers every export with success. A port that
// is taken is left alone: something listens there already.
func serveOTLP(t *testing.T) {
	if l, err := net.Listen("tcp", "127.0.0.1:4317"); err == nil {
		srv := grpc.NewServer()
		collectortrace.RegisterTraceServiceServer(srv, sink{})
		done := make(chan struct{})
		go func() { srv.Serve(l); close(done) }()
		t.Cleanup(func() { srv.Stop(); <-done })
	}
	if l, err := net.Listen("tcp", "127.0.0.1:4318"); err == nil {
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := proto.Marshal(&collectortrace.ExportTraceServiceResponse{})
			w.Header().Set("Content-Type", "application/x-protobuf")
			w.Write(body)
		})}
		done := make(chan struct{})
		go func() { srv.Serve(l); close(done) }()
		t.Cleanup(func() { srv.Close(); <-done })
	}
}

type sink struct {
	collectortrace.UnimplementedTraceServiceServer
}

func (sink) Export(context.Context, *collectortrace.ExportTraceServiceRequest) (*collectortrace.ExportTraceServiceResponse, error) {
	return &collectortrace.ExportTraceServiceResponse{}, nil
}
