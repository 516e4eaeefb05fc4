package main

import (
	"strings"
	"testing"

	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// replay --latency reads a recording written to a file (only the
// attributes podstartup needs) and prints the figures podstartup's tests
// check for timelinetest.PodStarts.
func TestReplayLatency(t *testing.T) {
	file := writeRecording(t, tt.PodStarts())
	for _, tc := range []struct {
		args []string
		want []string
	}{{
		args: []string{"--width", "100"},
		want: []string{
			"pod startup of 6 pods: percentiles by nearest rank",
			"INSTANCE  INTERVAL             PODS    P50    P90    P99    MAX",
			"all       create → scheduled      4  250ms  500ms  500ms  500ms",
			"          create → Running        3   2.5s   3.5s   3.5s   3.5s",
			"node-1    create → scheduled      2     0s  250ms  250ms  250ms", // ccccc: bound to node-1, never Running
			"node-2    create → scheduled      2  500ms  500ms  500ms  500ms",
			"1 static pod (a manifest file or URL) has no create and no scheduling: not in the figures",
			"2 pods were never written Running before the recording ended",
		},
	}, {
		args: []string{"--lang", "zh", "--ascii"},
		want: []string{"6 个 pod 的启动：百分位按最近秩法（nearest rank）", "全部    创建 -> 调度          4  250ms  500ms  500ms  500ms", "1 个 pod 已创建但从未被调度器绑定"},
	}} {
		out, _, err := execute(t, append([]string{"replay", file, "--latency"}, tc.args...)...)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range tc.want {
			if !strings.Contains(out, s+"\n") {
				t.Errorf("%v: output lacks the line %q:\n%s", tc.args, s, out)
			}
		}
	}
}

// A real run: cluster-basics creates a Deployment of 4 pods at 30s and the
// scenario stops node-2 at 2m, after which the ReplicaSet makes 2 more; the
// table counts all 6 and the pods of each kubelet.
func TestReplayLatencyOfARun(t *testing.T) {
	rec := record(t, "cluster-basics")
	out, _, err := execute(t, "replay", rec, "--latency", "--width", "100")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"pod startup of 6 pods: percentiles by nearest rank",
		"all       create → scheduled      6     0s     0s     0s     0s",
		"node-1    create → scheduled      4",
		"node-2    create → scheduled      2",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
	if strings.Contains(out, "never") || strings.Contains(out, "no create") {
		t.Errorf("every pod of cluster-basics is created, bound and written Running:\n%s", out)
	}
}

func TestReplayLatencyTakesNoWindowNorFilter(t *testing.T) {
	for _, other := range [][]string{{"--summary"}, {"--from", "1s"}, {"--instance", "node-1"}, {"--goroutine", "pleg*"}} {
		_, _, err := execute(t, append([]string{"replay", "x.jsonl", "--latency"}, other...)...)
		if err == nil || !strings.Contains(err.Error(), "if any flags in the group [latency") {
			t.Errorf("--latency %v: error %v, want the flags refused together", other, err)
		}
	}
}
