package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/kubeloom/kubeloom/traces"
)

// TestServeCtrlCLeavesAValidRecording runs the binary (a live session's run
// needs a bubble of its own, which a test binary cannot give it), starts
// informer-basics from the control URL it prints, plays it as fast as it
// goes until spans arrive on the event stream, and sends Ctrl-C: serve
// exits with 130, and the recording on disk is whole.
func TestServeCtrlCLeavesAValidRecording(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := builtBinary(t)
	dir := t.TempDir()
	cmd := exec.Command(bin, "serve", "--dir", dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	first, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("serve printed nothing: %v\n%s", err, stderr.String())
	}
	go io.Copy(io.Discard, stdout)
	control := strings.TrimSpace(strings.TrimPrefix(first, "kubeloom serve: open "))
	base, token, ok := strings.Cut(control, "#token=")
	if !ok {
		t.Fatalf("first line %q has no control URL", first)
	}
	post := func(path, body string) {
		t.Helper()
		req, _ := http.NewRequest("POST", base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		ans, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("POST %s: %d %s", path, resp.StatusCode, ans)
		}
	}
	post("api/session?builtin=informer-basics", "")
	post("api/speed", `{"speed": 0}`)
	post("api/play", "")
	events, err := http.Get(base + "api/events")
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(events.Body)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		var st struct {
			Mode  string `json:"mode"`
			Spans int64  `json:"spans"`
		}
		if ok && json.Unmarshal([]byte(data), &st) == nil && st.Mode == "live" && st.Spans > 0 {
			break
		}
	}
	events.Body.Close()
	cmd.Process.Signal(syscall.SIGINT)
	if code := exitAfterSignal(t, cmd, []string{"serve"}, syscall.SIGINT); code != 130 {
		t.Errorf("serve after Ctrl-C: exit status %d, want 130\n%s", code, stderr.String())
	}
	files, _ := filepath.Glob(filepath.Join(dir, "informer-basics-*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("recordings %v, want one\n%s", files, stderr.String())
	}
	spans, err := traces.ReadFile(files[0])
	if err != nil || len(spans) == 0 {
		t.Errorf("the recording after Ctrl-C: %d spans, %v", len(spans), err)
	}
	if !strings.Contains(stderr.String(), "session informer-basics ended:") {
		t.Errorf("serve did not say the session ended:\n%s", stderr.String())
	}
}
