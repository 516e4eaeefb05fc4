package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/controllermanager"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
	"github.com/kubeloom/kubeloom/sim/tracing"
)

// replicaStagger is how long after each other the replicas of a
// controller manager start: cm-0 at 0s, cm-1 at 1s, cm-2 at 2s. Started
// at the same instant, which one takes the lock first would be decided by
// the Go scheduler (and by the CPU load in a real-time run), so a run could
// not be repeated; a second apart, as masters booted one after another
// are, cm-0 leads first in every run.
const replicaStagger = time.Second

// errKilled is why a killed replica's process ended.
var errKilled = errors.New("killed by the scenario (killLeader): the process got SIGKILL")

// cmReplica is one kube-controller-manager process. Its main runs on a
// goroutine of its own until the simulation stops or it is killed.
type cmReplica struct {
	w     *world
	name  string // cm-0, the hostname: the leader election identity starts with it
	index int    // 0 for cm-0: replica i starts i × replicaStagger after cm-0
	rt    *goroutine.Runtime

	cancel context.CancelCauseFunc
	done   chan struct{}

	mu      sync.Mutex
	exit    error      // why the process ended, once it has
	at      time.Time  // when
	blocked *lockBlock // the scenario's blockLeaderLock, if any
}

// lockBlock is a blockLeaderLock on one replica: its requests to the lock
// are refused from the action until until (zero: to the end of the run).
type lockBlock struct {
	until time.Time
	why   error
}

func (c *cmReplica) start(ctx context.Context, o *Options, clk clock.Clock) {
	sc := c.w.sc
	cm := sc.Spec.ControllerManager
	dir := ""
	if !strings.HasPrefix(sc.Source, "builtin:") && sc.Source != "" {
		dir = filepath.Dir(sc.Source)
	}
	opts := controllermanager.Options{
		ID: c.name, Era: informer.Era(c.w.era), Flags: cm.Flags, LeaderElect: cm.LeaderElect, Controllers: cm.Controllers,
		Cluster: c.w.cluster, Seed: o.Seed, Listen: o.Listen,
		ReadFile: func(name string) ([]byte, error) {
			if !filepath.IsAbs(name) && dir != "" {
				name = filepath.Join(dir, name)
			}
			return os.ReadFile(name)
		},
	}
	if as := sc.Spec.APIServer; as != nil {
		opts.RuntimeConfig = as.RuntimeConfig
	}
	opts.LockRefused = func() error { return c.lockRefused(clk) }
	if o.Serving != nil {
		id := c.rt.Instance()
		opts.OnServing = func(addr string, paths []string) { o.Serving(id, addr, paths) }
	}
	pctx, cancel := context.WithCancelCause(tracing.Process(c.rt.Context(ctx)))
	c.cancel, c.done = cancel, make(chan struct{})
	go func() {
		defer close(c.done)
		if !execWait(pctx, clk, time.Duration(c.index)*replicaStagger+execTime(c.name)) {
			return
		}
		err := controllermanager.Main(pctx, opts)
		c.mu.Lock()
		c.exit, c.at = err, clk.Now()
		c.mu.Unlock()
	}()
}

// kill ends the process at once, as SIGKILL would: no lease release, no
// last events. cause is the span that killed it, which the process's main
// span names when it records why it ended.
func (c *cmReplica) kill(cause trace.SpanContext) {
	c.cancel(goroutine.CausedBy(errKilled, cause, c.rt.Instance()))
}

// blockLock makes the apiserver refuse the replica's requests to the lock
// for hold (0: until the run ends), from now; cause is the action's span.
func (c *cmReplica) blockLock(clk clock.Clock, hold time.Duration, cause trace.SpanContext) {
	b := &lockBlock{why: errors.New("the scenario's blockLeaderLock took this replica's permission on the lock away until the end of the run")}
	if hold > 0 {
		b.until = clk.Now().Add(hold)
		b.why = fmt.Errorf("the scenario's blockLeaderLock took this replica's permission on the lock away for %s", hold)
	}
	// A refused request's error names the action as its cause.
	b.why = goroutine.CausedBy(b.why, cause, c.rt.Instance())
	c.mu.Lock()
	c.blocked = b
	c.mu.Unlock()
}

// lockRefused says why the replica's lock requests are refused now, if
// they are.
func (c *cmReplica) lockRefused(clk clock.Clock) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b := c.blocked; b != nil && (b.until.IsZero() || clk.Now().Before(b.until)) {
		return b.why
	}
	return nil
}

// stop ends the process at the end of the simulation.
func (c *cmReplica) stop() { c.cancel(context.Canceled) }

// wait waits for the process to have returned, up to grace (simulated).
func (c *cmReplica) wait(clk clock.Clock, grace time.Duration) {
	t := clk.NewTimer(grace)
	defer t.Stop()
	select {
	case <-c.done:
	case <-t.C():
	}
}

// exited says how the process ended, if it ended before the simulation did.
func (c *cmReplica) exited() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.exit == nil || errors.Is(c.exit, context.Canceled) {
		return ""
	}
	return c.exit.Error()
}

// holds reports whether a leader election identity is this replica's
// ("cm-0", or "cm-0_<uuid>" today).
func (c *cmReplica) holds(identity string) bool {
	return identity == c.name || strings.HasPrefix(identity, c.name+"_")
}
