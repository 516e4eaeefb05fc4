package scenarios

import (
	"context"
	"time"

	"github.com/goccy/go-yaml"
)

// BlockLeaderLock makes the apiserver refuse the leader's requests to the leader election lock
// for a while (403 Forbidden, as when a change of authorization takes its permission on the
// lock away), while the replica's other requests go on. Its renewals then fail: after
// RenewDeadline (10s) without one it stops leading and, as kube-controller-manager's
// OnStoppedLeading does, exits ("leaderelection lost"); another replica takes over once the
// lease has expired.
type BlockLeaderLock struct {
	For time.Duration // how long the requests are refused, ≥ 0; 0: until the scenario ends
}

// Name returns "blockLeaderLock".
func (*BlockLeaderLock) Name() string { return "blockLeaderLock" }

func (b *BlockLeaderLock) decode(vd *verbDecoder) bool {
	f, ok := vd.args("a mapping with for, such as {for: 30s}", "for")
	if !ok {
		return false
	}
	if v, good := f.optional("for", "a duration ≥ 0 and ≤ 24h for which the lock is refused, such as 30s (0s: until the scenario ends)").duration(0, MaxDuration); good {
		b.For = v
	} else if f.has("for") {
		ok = false
	}
	vd.needsLeader()
	return ok
}

func (b *BlockLeaderLock) args() (any, error) {
	return yaml.MapSlice{{Key: "for", Value: b.For.String()}}, nil
}

// Apply blocks the lock for the leader.
func (b *BlockLeaderLock) Apply(ctx context.Context, w World) error {
	return w.BlockLeaderLock(ctx, b.For)
}
