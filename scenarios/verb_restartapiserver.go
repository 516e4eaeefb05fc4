package scenarios

import "context"

// RestartAPIServer restarts the apiserver: its watch cache starts again from the current
// resource version, so every open watch of every resource ends with 410 Gone ("too old
// resource version") and every reflector re-lists — the re-list storm of a cluster whose
// apiserver restarts (see docs/scale.md). Objects and writes are kept, as etcd keeps them.
type RestartAPIServer struct{}

// Name returns "restartAPIServer".
func (*RestartAPIServer) Name() string { return "restartAPIServer" }

func (*RestartAPIServer) decode(vd *verbDecoder) bool {
	_, ok := vd.args("{} (restartAPIServer has no fields)")
	return ok
}

func (*RestartAPIServer) args() (any, error) { return map[string]any{}, nil }

// Apply ends every watch: what clients see of a restart, since the fake apiserver keeps its
// objects as etcd would.
func (*RestartAPIServer) Apply(ctx context.Context, w World) error { return w.BreakAllWatches(ctx) }
