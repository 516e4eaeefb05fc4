package jaegertest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Timeouts of Start and of the waits; generous, for a loaded CI machine.
const (
	// ReadyTimeout bounds the wait for Jaeger's health check (it is ready
	// after about 0.3s).
	ReadyTimeout = 30 * time.Second
	// StopTimeout is how long Jaeger gets to stop on SIGTERM (about 1.3s)
	// before it is killed.
	StopTimeout = 10 * time.Second
	// pollInterval is how often readiness and span counts are polled.
	pollInterval = 50 * time.Millisecond
)

// Env names the variables Start reads.
const (
	// EnvBinary, if set, is the path of a Jaeger binary to run instead of
	// the one built from tools/go.mod.
	EnvBinary = "KUBELOOM_JAEGER"
	// EnvCI is "true" on CI: a Jaeger that cannot be found fails the test
	// instead of skipping it.
	EnvCI = "CI"
)

// Jaeger is a running Jaeger all-in-one. Its ports are free ports of
// 127.0.0.1 picked by Start, so that tests in several packages, and a
// `make jaeger` of the developer on the default ports, do not collide.
type Jaeger struct {
	// OTLPHTTP is the OTLP/HTTP receiver: "http://127.0.0.1:PORT".
	OTLPHTTP string
	// OTLPGRPC is the OTLP/gRPC receiver: "grpc://127.0.0.1:PORT".
	OTLPGRPC string
	// Query is the query service's HTTP address: "http://127.0.0.1:PORT"
	// (/api/..., /api/v3/...).
	Query string
	// Health is the health check: "http://127.0.0.1:PORT/status".
	Health string

	cmd    *exec.Cmd
	exited chan struct{} // closed when the process has exited
	err    error         // the process's exit status, once exited is closed
	logs   *logBuffer
	client *http.Client
}

// Start runs Jaeger with tools/jaeger-config.yaml on free ports of
// 127.0.0.1, waits until its health check answers, and stops it with
// SIGTERM when the test ends. The binary is $KUBELOOM_JAEGER, else the
// tool of tools/go.mod (`go tool -modfile=tools/go.mod jaeger`). When
// neither is available, the test is skipped with a message saying how to
// build it; under CI=true it fails.
func Start(t testing.TB) *Jaeger {
	t.Helper()
	root, err := RepoRoot()
	if err != nil {
		t.Fatalf("jaegertest: %v", err)
	}
	bin, err := binary(root)
	if err != nil {
		var nb *notBuiltError
		if errors.As(err, &nb) && os.Getenv(EnvCI) != "true" {
			t.Skipf("jaegertest: %v", err)
		}
		t.Fatalf("jaegertest: %v", err)
	}
	config := filepath.Join(root, "tools", "jaeger-config.yaml")
	// A free port can be taken by someone else between the moment it is
	// picked and the moment Jaeger binds it: try again with other ports.
	var errs []error
	for range 3 {
		j, err := start(bin, config)
		if err == nil {
			t.Cleanup(func() { j.stop(t) })
			return j
		}
		errs = append(errs, err)
		if !errors.Is(err, errExited) {
			break
		}
	}
	t.Fatalf("jaegertest: failed to start Jaeger (%s --config %s): %v", bin, config, errors.Join(errs...))
	return nil
}

var errExited = errors.New("jaeger exited before it was ready")

func start(bin, config string) (*Jaeger, error) {
	ports, err := freePorts(5)
	if err != nil {
		return nil, err
	}
	addr := func(i int) string { return "127.0.0.1:" + strconv.Itoa(ports[i]) }
	j := &Jaeger{
		OTLPGRPC: "grpc://" + addr(0),
		OTLPHTTP: "http://" + addr(1),
		Query:    "http://" + addr(2),
		Health:   "http://" + addr(4) + "/status",
		exited:   make(chan struct{}),
		logs:     &logBuffer{},
		client:   &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone(), Timeout: 10 * time.Second},
	}
	// The config file binds the default ports; --set moves them (every
	// one of them on 127.0.0.1).
	j.cmd = exec.Command(bin, "--config", config,
		"--set=receivers.otlp.protocols.grpc.endpoint="+addr(0),
		"--set=receivers.otlp.protocols.http.endpoint="+addr(1),
		"--set=extensions.jaeger_query.http.endpoint="+addr(2),
		"--set=extensions.jaeger_query.grpc.endpoint="+addr(3),
		"--set=extensions.healthcheckv2.http.endpoint="+addr(4),
	)
	j.cmd.Stdout, j.cmd.Stderr = j.logs, j.logs
	if err := j.cmd.Start(); err != nil {
		return nil, fmt.Errorf("failed to run %s: %w", bin, err)
	}
	go func() {
		j.err = j.cmd.Wait()
		close(j.exited)
	}()
	if err := j.waitReady(); err != nil {
		j.kill()
		return nil, err
	}
	return j, nil
}

// waitReady polls the health check until it answers 200.
func (j *Jaeger) waitReady() error {
	deadline := time.NewTimer(ReadyTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	var last error
	for {
		if last = j.healthy(); last == nil {
			return nil
		}
		select {
		case <-j.exited:
			return fmt.Errorf("%w (%v); its log:\n%s", errExited, j.err, j.logs.tail(30))
		case <-deadline.C:
			return fmt.Errorf("jaeger not ready after %s (%s: %v); its log:\n%s", ReadyTimeout, j.Health, last, j.logs.tail(30))
		case <-tick.C:
		}
	}
}

func (j *Jaeger) healthy() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, j.Health, nil)
	if err != nil {
		return err
	}
	resp, err := j.client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %s", resp.Status)
	}
	return nil
}

// stop sends SIGTERM and waits for Jaeger to exit; it is killed if it
// does not exit within StopTimeout.
func (j *Jaeger) stop(t testing.TB) {
	defer j.client.CloseIdleConnections()
	if t.Failed() {
		t.Logf("jaegertest: the end of Jaeger's log:\n%s", j.logs.tail(40))
	}
	if err := j.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		t.Errorf("jaegertest: failed to send SIGTERM to Jaeger: %v", err)
	}
	timeout := time.NewTimer(StopTimeout)
	defer timeout.Stop()
	select {
	case <-j.exited:
		if j.err != nil {
			t.Errorf("jaegertest: Jaeger did not exit cleanly on SIGTERM: %v; its log:\n%s", j.err, j.logs.tail(30))
		}
	case <-timeout.C:
		t.Errorf("jaegertest: Jaeger did not stop within %s of SIGTERM; killed", StopTimeout)
		j.kill()
	}
}

func (j *Jaeger) kill() {
	j.cmd.Process.Kill()
	<-j.exited
	j.client.CloseIdleConnections()
}

// Logs is what Jaeger has written to stdout and stderr so far.
func (j *Jaeger) Logs() string { return j.logs.String() }

// freePorts returns n distinct free TCP ports of 127.0.0.1.
func freePorts(n int) ([]int, error) {
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("failed to find a free port: %w", err)
		}
		defer l.Close() // held until all are picked, so that they differ
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// RepoRoot is the kubeloom checkout the test runs in: the nearest parent
// of the working directory that holds tools/go.mod.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "tools", "go.mod")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("no tools/go.mod in %s or any parent: not in a kubeloom checkout", dir)
		}
		d = parent
	}
}

// notBuiltError says that Jaeger is not available and how to get it; the
// test is skipped for it (except on CI).
type notBuiltError struct{ reason string }

func (e *notBuiltError) Error() string {
	return e.reason + "; run `make jaeger-build` once (it builds Jaeger from tools/go.mod: a few minutes the first time, then cached), or set " + EnvBinary + " to a Jaeger v2 binary"
}

// The binary is resolved once per test binary: both go commands take a
// second or more.
var (
	binaryOnce sync.Once
	binaryPath string
	binaryErr  error
)

// binary finds the Jaeger binary: $KUBELOOM_JAEGER, else the tool of
// tools/go.mod. Outside CI, a tool that is not compiled yet is not
// built here (that takes minutes): the test is skipped instead.
func binary(root string) (string, error) {
	binaryOnce.Do(func() { binaryPath, binaryErr = findBinary(root) })
	return binaryPath, binaryErr
}

const jaegerPkg = "github.com/jaegertracing/jaeger/cmd/jaeger"

func findBinary(root string) (string, error) {
	if p := os.Getenv(EnvBinary); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s=%s: %w", EnvBinary, p, err)
		}
		return p, nil
	}
	modfile := "-modfile=" + filepath.Join(root, "tools", "go.mod")
	if _, err := exec.LookPath("go"); err != nil {
		return "", &notBuiltError{reason: "no go command in PATH to run the Jaeger tool"}
	}
	if os.Getenv(EnvCI) != "true" {
		// `go list` says, in about a second, whether the packages are
		// compiled; then `go tool -n` only links (seconds) or finds the
		// cached binary. The main package itself always reads as stale
		// ("build ID mismatch": go tool links it its own way), so only its
		// dependencies are asked about.
		out, err := goCmd(root, "list", modfile, "-deps", "-f", `{{if and .Stale (ne .Name "main")}}{{.ImportPath}}: {{.StaleReason}}{{"\n"}}{{end}}`, jaegerPkg)
		if err != nil {
			return "", &notBuiltError{reason: "the Jaeger tool of tools/go.mod is not available: " + err.Error()}
		}
		if stale, _, _ := strings.Cut(out, "\n"); stale != "" {
			return "", &notBuiltError{reason: "Jaeger is not built yet (" + stale + ")"}
		}
	}
	// -n prints the path of the built (and cached) tool instead of
	// running it: Start runs it itself, so that SIGTERM reaches Jaeger.
	out, err := goCmd(root, "tool", modfile, "-n", "jaeger")
	if err != nil {
		return "", &notBuiltError{reason: "failed to build the Jaeger tool of tools/go.mod: " + err.Error()}
	}
	return out, nil
}

// goCmd runs the go command in dir and returns its trimmed stdout.
func goCmd(dir string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(stdout.String()), nil
}

// logBuffer collects the process's output; the process writes from its
// own goroutines (os/exec copies).
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// tail is the last n lines.
func (b *logBuffer) tail(n int) string {
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
