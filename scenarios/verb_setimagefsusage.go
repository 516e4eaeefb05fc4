package scenarios

import (
	"context"

	"github.com/goccy/go-yaml"
)

// SetImageFSUsage sets how full a node's image filesystem is, which drives image GC.
type SetImageFSUsage struct {
	Node    string // node-1 … node-N
	Percent int    // 0 … 100
}

// Name returns "setImageFSUsage".
func (*SetImageFSUsage) Name() string { return "setImageFSUsage" }

func (s *SetImageFSUsage) decode(vd *verbDecoder) bool {
	f, ok := vd.args("a mapping with node and percent, such as {node: node-1, percent: 95}", "node", "percent")
	if !ok {
		return false
	}
	s.Node, ok = vd.node(f)
	percent, good := f.required("percent", "an integer percentage from 0 to 100").integer(0, 100)
	s.Percent = int(percent)
	return ok && good
}

func (s *SetImageFSUsage) args() (any, error) {
	return yaml.MapSlice{{Key: "node", Value: s.Node}, {Key: "percent", Value: s.Percent}}, nil
}

// Apply sets the usage.
func (s *SetImageFSUsage) Apply(ctx context.Context, w World) error {
	return w.SetImageFSUsage(ctx, s.Node, s.Percent)
}
