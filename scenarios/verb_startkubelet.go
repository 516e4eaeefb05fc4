package scenarios

import (
	"context"

	"github.com/goccy/go-yaml"
)

// StartKubelet starts the kubelet of one node again after StopKubelet: a new kubelet process on
// the same node. Containers the runtime kept running survive, as with a real kubelet restart.
type StartKubelet struct {
	Node string // node-1 … node-N
}

// Name returns "startKubelet".
func (*StartKubelet) Name() string { return "startKubelet" }

func (s *StartKubelet) decode(vd *verbDecoder) bool {
	f, ok := vd.args("a mapping with the node whose kubelet starts again, such as {node: node-1}", "node")
	if !ok {
		return false
	}
	s.Node, ok = vd.node(f)
	return ok
}

func (s *StartKubelet) args() (any, error) { return yaml.MapSlice{{Key: "node", Value: s.Node}}, nil }

// Apply starts the kubelet.
func (s *StartKubelet) Apply(ctx context.Context, w World) error { return w.StartKubelet(ctx, s.Node) }
