package scenarios

import "context"

// KillLeader stops the controller-manager replica that holds the leader lock, as SIGKILL
// would: it does not release the lock, so another replica takes over only once the lease has
// expired.
type KillLeader struct{}

// Name returns "killLeader".
func (*KillLeader) Name() string { return "killLeader" }

func (*KillLeader) decode(vd *verbDecoder) bool {
	if _, ok := vd.args("{} (killLeader has no fields)"); !ok {
		return false
	}
	vd.needsLeader()
	return true
}

func (*KillLeader) args() (any, error) { return map[string]any{}, nil }

// Apply kills the leader.
func (*KillLeader) Apply(ctx context.Context, w World) error { return w.KillLeader(ctx) }
