package main

import (
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
	s := startServe(t, builtBinary(t))
	s.post("api/session?builtin=informer-basics", "")
	s.post("api/speed", `{"speed": 0}`)
	s.post("api/play", "")
	s.watch(func(st viewerState) bool { return st.Mode == "live" && st.Spans > 0 })
	s.stopped = true // stopped here, its exit status checked
	s.cmd.Process.Signal(syscall.SIGINT)
	if code := exitAfterSignal(t, s.cmd, []string{"serve"}, syscall.SIGINT); code != 130 {
		t.Errorf("serve after Ctrl-C: exit status %d, want 130\n%s", code, s.stderr.String())
	}
	files, _ := filepath.Glob(filepath.Join(s.dir, "informer-basics-*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("recordings %v, want one\n%s", files, s.stderr.String())
	}
	spans, err := traces.ReadFile(files[0])
	if err != nil || len(spans) == 0 {
		t.Errorf("the recording after Ctrl-C: %d spans, %v", len(spans), err)
	}
	if !strings.Contains(s.stderr.String(), "session informer-basics ended:") {
		t.Errorf("serve did not say the session ended:\n%s", s.stderr.String())
	}
}
