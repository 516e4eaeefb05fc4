package scenarios

import (
	"context"
	"time"
)

// World is what actions can do to a running simulation: the capabilities of the fake cluster
// and of the components on it that verbs act through. sim/engine implements it once per action
// and era: every method acts with the action's span as the cause of what it sets off, and
// records on that span what it did (the object's key, how many watches broke, which replica
// it killed), so that the recording shows the action's effect. The scenarios package cannot
// see spans (it imports nothing from sim/), so the recording is the World's job.
//
// A verb uses the capabilities it needs (restartAPIServer breaks all watches, and a verb that
// restarted a kubelet would stop and start it). A verb that needs one the World does not have
// yet adds a method here and its implementation in sim/engine.
type World interface {
	// The apiserver.

	// Create stores a new object, as kubectl create does; every watch of its resource
	// delivers ADDED.
	Create(ctx context.Context, o Object) error
	// Update replaces an object with o, as kubectl replace does; watches deliver MODIFIED.
	Update(ctx context.Context, o Object) error
	// Delete deletes an object; watches deliver DELETED.
	Delete(ctx context.Context, ref ObjectRef) error
	// BreakWatches ends every open watch of r with 410 Gone.
	BreakWatches(ctx context.Context, r Resource) error
	// BreakAllWatches ends every open watch of every resource with 410 Gone, as a restarted
	// apiserver's new watch cache does.
	BreakAllWatches(ctx context.Context) error

	// The stand-alone informers of spec.informers.

	// AddHandler adds one more event handler to a running informer.
	AddHandler(ctx context.Context, informer string) error
	// HangHandler makes handler n (from 1) of an informer block forever in its next call.
	HangHandler(ctx context.Context, informer string, n int) error

	// The controller-manager.

	// KillLeader kills the replica that holds the leader lock, as SIGKILL would.
	KillLeader(ctx context.Context) error
	// BlockLeaderLock makes the apiserver refuse the leader's requests to the lock for hold
	// (0: until the run ends); its other requests go on.
	BlockLeaderLock(ctx context.Context, hold time.Duration) error

	// A node's kubelet (node-1 … node-N).

	// StopKubelet stops the node's kubelet process.
	StopKubelet(ctx context.Context, node string) error
	// StartKubelet starts a new kubelet process on the node.
	StartKubelet(ctx context.Context, node string) error
	// SetImageFSUsage sets how full the node's image filesystem is, in percent.
	SetImageFSUsage(ctx context.Context, node string, percent int) error
	// InjectOOM makes the kernel OOM killer fire on the node: on a container of the pod
	// namespace/pod (container "": its first), or, with pod "", on a process outside any pod.
	InjectOOM(ctx context.Context, node, namespace, pod, container string) error
	// TakePort makes another process bind the port of one of the node's kubelet servers
	// (ServerHealthz, ServerKubelet, ServerReadOnly) for hold (0: until the run ends).
	TakePort(ctx context.Context, node, server string, hold time.Duration) error
}
