package scenarios

import (
	"context"
	"time"

	"github.com/goccy/go-yaml"
)

// The kubelet servers whose port TakePort can take.
const (
	ServerHealthz  = "healthz"  // the healthz server (--healthz-port)
	ServerKubelet  = "server"   // the kubelet server (--port)
	ServerReadOnly = "readonly" // the read-only server (--read-only-port)
)

// kubeletServers lists the servers TakePort can name, in the order the documentation gives them.
var kubeletServers = []string{ServerHealthz, ServerKubelet, ServerReadOnly}

// TakePort makes another process bind the port of one of a node's kubelet servers, so that the
// kubelet's ListenAndServe, which wait.Until retries, fails until the port is released.
type TakePort struct {
	Node   string        // node-1 … node-N
	Server string        // ServerHealthz (the default), ServerKubelet or ServerReadOnly
	For    time.Duration // how long the port is held, ≥ 0; 0: until the scenario ends
}

// Name returns "takePort".
func (*TakePort) Name() string { return "takePort" }

func (tp *TakePort) decode(vd *verbDecoder) bool {
	f, ok := vd.args("a mapping with node, server and for, such as {node: node-1, server: healthz, for: 30s}", "node", "server", "for")
	if !ok {
		return false
	}
	tp.Node, ok = vd.node(f)
	tp.Server = ServerHealthz
	if v, good := f.optional("server", "healthz, server or readonly (the kubelet's healthz, main or read-only server)").oneOf(kubeletServers); good {
		tp.Server = v
	} else if f.has("server") {
		ok = false
	}
	if v, good := f.optional("for", "a duration ≥ 0 and ≤ 24h for which the port is held, such as 30s (0s: until the scenario ends)").duration(0, MaxDuration); good {
		tp.For = v
	} else if f.has("for") {
		ok = false
	}
	return ok
}

func (tp *TakePort) args() (any, error) {
	return yaml.MapSlice{
		{Key: "node", Value: tp.Node},
		{Key: "server", Value: tp.Server},
		{Key: "for", Value: tp.For.String()},
	}, nil
}

// Apply takes the port.
func (tp *TakePort) Apply(ctx context.Context, w World) error {
	return w.TakePort(ctx, tp.Node, tp.Server, tp.For)
}
