package scenarios

import (
	"context"

	"github.com/goccy/go-yaml"
)

// StopKubelet stops the kubelet of one node, so that it stops reporting node status; its
// containers keep running.
type StopKubelet struct {
	Node string // node-1 … node-N
}

// Name returns "stopKubelet".
func (*StopKubelet) Name() string { return "stopKubelet" }

func (s *StopKubelet) decode(vd *verbDecoder) bool {
	f, ok := vd.args("a mapping with the node whose kubelet stops, such as {node: node-1}", "node")
	if !ok {
		return false
	}
	s.Node, ok = vd.node(f)
	return ok
}

func (s *StopKubelet) args() (any, error) { return yaml.MapSlice{{Key: "node", Value: s.Node}}, nil }

// Apply stops the kubelet.
func (s *StopKubelet) Apply(ctx context.Context, w World) error { return w.StopKubelet(ctx, s.Node) }
