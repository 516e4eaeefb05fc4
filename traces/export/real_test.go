package export_test

import (
	"bytes"
	"context"
	"net"
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/engine"
	"github.com/kubeloom/kubeloom/traces"
)

// realRecording runs informer-basics for 20 simulated seconds at speed
// 1000 (about 20ms of real time plus start-up), its servers on real
// loopback ports, and reads the recording back. It runs outside a synctest
// bubble: the servers listen on the real network. The goroutines get an
// hour of simulated time (3.6 real seconds) to stop: at this speed the
// default 10s would be 10ms, and a loaded CPU can take longer than that.
func realRecording(t *testing.T) []traces.Span {
	t.Helper()
	sc, err := scenarios.Builtin("informer-basics")
	if err != nil {
		t.Fatal(err)
	}
	var rec bytes.Buffer
	loopback := func(network, _ string) (net.Listener, error) { return net.Listen(network, "127.0.0.1:0") }
	sum, err := engine.Run(context.Background(), engine.Options{
		Scenario: sc, Recording: &rec, Speed: 1000, Duration: 20 * time.Second, Listen: loopback, Grace: time.Hour,
	})
	if err != nil {
		t.Fatalf("running informer-basics: %v", err)
	}
	if len(sum.Leftovers) > 0 {
		t.Fatalf("goroutines left running: %v", sum.Leftovers)
	}
	spans, err := traces.Read(&rec, "informer-basics.jsonl")
	if err != nil {
		t.Fatalf("reading the recording: %v", err)
	}
	return spans
}

func TestExportRealRecording(t *testing.T) {
	spans := realRecording(t)
	links := 0
	for _, s := range spans {
		links += len(s.Links)
	}
	if len(spans) < 20 || links == 0 {
		t.Fatalf("the run recorded %d spans and %d links; want a real informer lesson", len(spans), links)
	}

	t.Run("jaeger", func(t *testing.T) {
		checkJaeger(t, spans, decodeJaeger(t, jaegerJSON(t, spans)))
	})
	t.Run("chrome", func(t *testing.T) {
		checkChrome(t, spans, decodeChrome(t, chromeJSON(t, spans)))
	})
}
