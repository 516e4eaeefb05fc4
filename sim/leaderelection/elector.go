package leaderelection

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	rl "k8s.io/client-go/tools/leaderelection/resourcelock"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// JitterFactor stretches each acquire retry to RetryPeriod × [1, 2.2).
const JitterFactor = 1.2

// Config configures an elector (LeaderElectionConfig).
type Config struct {
	Lock rl.Interface
	// Resource is the lock's resource ("endpoints", "leases"), naming the
	// span events of its requests.
	Resource string
	// LeaseDuration, RenewDeadline and RetryPeriod are in simulated time
	// (15s, 10s and 2s by default in both eras).
	LeaseDuration, RenewDeadline, RetryPeriod time.Duration
	// Classic selects v1.5's algorithm: a lease is measured with this
	// candidate's own LeaseDuration from the last time it saw the record
	// change, and renewals poll after waiting. Otherwise today's: the
	// record's leaseDurationSeconds, an optimistic fast path for the
	// holder, and renewals that poll at once.
	Classic bool
	// OnStartedLeading runs on its own goroutine once leading, until ctx ends.
	OnStartedLeading func(ctx context.Context)
	// OnStoppedLeading runs when Run returns; lost says whether the lease
	// was lost (renewals failed for RenewDeadline) rather than ctx ending.
	OnStoppedLeading func(lost bool)
	// Refused, if set, says why the apiserver refuses this candidate's
	// requests to the lock at the moment (nil: it serves them); a refused
	// request fails with 403 Forbidden without reaching the lock.
	Refused func() error
	// Catalog names of the acquire loop, the renew loop, the goroutine
	// that runs OnStartedLeading, and the poller goroutine of each classic
	// renewal's wait.Poll.
	AcquireName, RenewName, LeadingName, PollName string
}

// Elector is one candidate (LeaderElector).
type Elector struct {
	cfg Config

	mu             sync.Mutex
	observedRecord rl.LeaderElectionRecord
	observedRaw    []byte
	observedTime   time.Time
	reportedLeader string
}

// New checks the configuration as NewLeaderElector does.
func New(cfg Config) (*Elector, error) {
	switch {
	case cfg.LeaseDuration <= cfg.RenewDeadline:
		return nil, errors.New("leaseDuration must be greater than renewDeadline")
	case cfg.RenewDeadline <= time.Duration(JitterFactor*float64(cfg.RetryPeriod)):
		return nil, errors.New("renewDeadline must be greater than retryPeriod*JitterFactor")
	case cfg.RetryPeriod < 1:
		return nil, errors.New("retryPeriod must be greater than zero")
	case cfg.Lock == nil:
		//lint:ignore ST1005 NewLeaderElector's own message (leaderelection.go, v1.5)
		return nil, errors.New("Lock must not be nil.")
	case cfg.OnStartedLeading == nil || cfg.OnStoppedLeading == nil:
		return nil, errors.New("OnStartedLeading and OnStoppedLeading callbacks must not be nil")
	}
	cfg.Lock = tracedLock{Interface: cfg.Lock, resource: cfg.Resource, denied: cfg.Refused}
	return &Elector{cfg: cfg}, nil
}

// IsLeader reports whether this candidate last saw itself holding the lock.
func (le *Elector) IsLeader() bool {
	le.mu.Lock()
	defer le.mu.Unlock()
	return le.observedRecord.HolderIdentity == le.cfg.Lock.Identity()
}

// Run acquires the lock, runs OnStartedLeading on its own goroutine and
// renews until a renewal fails or ctx ends; it runs on the caller's
// goroutine, as RunOrDie does on main. The caller's span gets the events
// "became leader" and "stopped leading".
func (le *Elector) Run(ctx context.Context) {
	lost := false
	defer func() { le.cfg.OnStoppedLeading(lost) }()
	if !le.acquire(ctx) {
		return
	}
	goroutine.SpanFrom(ctx).AddEvent("became leader", attribute.String("leader", le.cfg.Lock.Identity()))
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	goroutine.RuntimeFrom(ctx).Go(lctx, le.cfg.LeadingName, le.cfg.OnStartedLeading)
	lost = le.renew(lctx)
	reason := "context ended"
	if lost {
		reason = "renew deadline exceeded"
	}
	goroutine.SpanFrom(ctx).AddEvent("stopped leading", attribute.String("leader", le.cfg.Lock.Identity()), attribute.String("reason", reason))
}

// acquire loops on tryAcquireOrRenew every RetryPeriod × (1 + rand × 1.2)
// until it succeeds or ctx ends.
func (le *Elector) acquire(ctx context.Context) bool {
	actx, cancel := context.WithCancel(ctx)
	defer cancel()
	succeeded := false
	goroutine.RuntimeFrom(ctx).Main(actx, le.cfg.AcquireName, le.cfg.RetryPeriod, JitterFactor, func(ctx context.Context) {
		ok := le.tryAcquireOrRenew(ctx)
		le.maybeReportTransition(ctx)
		if !ok {
			return
		}
		le.cfg.Lock.RecordEvent("became leader")
		goroutine.SpanFrom(ctx).AddEvent("became leader", attribute.String("leader", le.cfg.Lock.Identity()))
		succeeded = true
		cancel()
	}, goroutine.WithIterationName("tryAcquireOrRenew"), goroutine.WithAttributes(le.lockAttrs()...))
	return succeeded
}

// renew renews the lease until a renewal fails for RenewDeadline (it
// returns true: the lease is lost) or ctx ends (false).
func (le *Elector) renew(ctx context.Context) bool {
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	lost := false
	period := time.Duration(0) // v1.5: wait.Until(…, 0, stop) around a Poll that waits first
	opts := []goroutine.Option{goroutine.WithIterationName("renew"), goroutine.WithAttributes(le.lockAttrs()...)}
	if le.cfg.Classic {
		opts = append(opts, goroutine.WithPeriod(le.cfg.RetryPeriod)) // the poll's, on the lane alone
	} else {
		period = le.cfg.RetryPeriod // today: wait.UntilWithContext(…, RetryPeriod) around an immediate poll
	}
	goroutine.RuntimeFrom(ctx).Main(rctx, le.cfg.RenewName, period, 0, func(ctx context.Context) {
		var err error
		if le.cfg.Classic {
			// v1.5: wait.Poll(RetryPeriod, RenewDeadline, …) starts a poller
			// goroutine per renewal and tries at its ticks.
			err = goroutine.Poll(ctx, le.cfg.PollName, le.cfg.RetryPeriod, le.cfg.RenewDeadline, le.try, goroutine.WithAttributes(le.lockAttrs()...))
		} else {
			// Today: wait.PollUntilContextTimeout(ctx, RetryPeriod,
			// RenewDeadline, true, …) on this goroutine.
			err = goroutine.PollUntilContextTimeout(ctx, le.cfg.RetryPeriod, le.cfg.RenewDeadline, true, le.try)
		}
		le.maybeReportTransition(ctx)
		if err == nil || ctx.Err() != nil {
			return
		}
		le.cfg.Lock.RecordEvent("stopped leading")
		goroutine.SpanFrom(ctx).AddEvent("stopped leading", attribute.String("leader", le.cfg.Lock.Identity()), attribute.String("error", err.Error()))
		lost = true
		cancel()
	}, opts...)
	return lost
}

// try is one try of a renewal: tryAcquireOrRenew, noted on the renew
// iteration's span.
func (le *Elector) try(ctx context.Context) bool {
	ok := le.tryAcquireOrRenew(ctx)
	goroutine.SpanFrom(ctx).AddEvent("tryAcquireOrRenew", attribute.Bool("succeeded", ok))
	return ok
}

// tryAcquireOrRenew reads the record, creates it if missing, and takes or
// renews the lock unless another candidate holds an unexpired lease.
func (le *Elector) tryAcquireOrRenew(ctx context.Context) bool {
	now := metav1.NewTime(goroutine.RuntimeFrom(ctx).Clock().Now())
	id := le.cfg.Lock.Identity()
	rec := rl.LeaderElectionRecord{
		HolderIdentity:       id,
		LeaseDurationSeconds: int(le.cfg.LeaseDuration / time.Second),
		RenewTime:            now,
		AcquireTime:          now,
	}

	// Today: the holder updates optimistically from the record it observed.
	if !le.cfg.Classic && le.IsLeader() && le.isLeaseValid(now.Time) {
		old := le.observed()
		rec.AcquireTime, rec.LeaderTransitions = old.AcquireTime, old.LeaderTransitions
		if err := le.cfg.Lock.Update(ctx, rec); err == nil {
			le.setObserved(rec, nil, now.Time)
			return true
		}
	}

	old, raw, err := le.cfg.Lock.Get(ctx)
	if err != nil {
		if !apierrors.IsNotFound(err) {
			return false
		}
		if err := le.cfg.Lock.Create(ctx, rec); err != nil {
			return false
		}
		le.setObserved(rec, nil, now.Time)
		return true
	}

	// Has the record changed since this candidate last looked? v1.5
	// compares the records, today the raw bytes.
	le.mu.Lock()
	changed := !reflect.DeepEqual(le.observedRecord, *old)
	if !le.cfg.Classic {
		changed = !bytes.Equal(le.observedRaw, raw)
	}
	if changed {
		le.observedRecord, le.observedRaw, le.observedTime = *old, raw, now.Time
	}
	le.mu.Unlock()

	if old.HolderIdentity != "" && old.HolderIdentity != id && le.isLeaseValid(now.Time) {
		return false // held by another candidate, not yet expired
	}
	if old.HolderIdentity == id {
		rec.AcquireTime = old.AcquireTime
		if !le.cfg.Classic {
			rec.LeaderTransitions = old.LeaderTransitions // v1.5 forgot this: a renewal reset the count to 0
		}
	} else {
		rec.LeaderTransitions = old.LeaderTransitions + 1
	}
	if err := le.cfg.Lock.Update(ctx, rec); err != nil {
		return false
	}
	le.setObserved(rec, nil, now.Time)
	return true
}

// isLeaseValid: v1.5 counts this candidate's LeaseDuration from the last
// change it saw; today the record's leaseDurationSeconds.
func (le *Elector) isLeaseValid(now time.Time) bool {
	le.mu.Lock()
	defer le.mu.Unlock()
	d := le.cfg.LeaseDuration
	if !le.cfg.Classic {
		d = time.Duration(le.observedRecord.LeaseDurationSeconds) * time.Second
	}
	return le.observedTime.Add(d).After(now)
}

func (le *Elector) observed() rl.LeaderElectionRecord {
	le.mu.Lock()
	defer le.mu.Unlock()
	return le.observedRecord
}

func (le *Elector) setObserved(r rl.LeaderElectionRecord, raw []byte, at time.Time) {
	le.mu.Lock()
	defer le.mu.Unlock()
	le.observedRecord, le.observedRaw, le.observedTime = r, raw, at
}

// maybeReportTransition notes a new holder. KCM sets no OnNewLeader
// callback, so no goroutine starts (catalog cm/on-new-leader); the span
// event shows what the candidate learnt.
func (le *Elector) maybeReportTransition(ctx context.Context) {
	le.mu.Lock()
	holder := le.observedRecord.HolderIdentity
	changed := holder != le.reportedLeader
	le.reportedLeader = holder
	le.mu.Unlock()
	if changed && holder != "" {
		goroutine.SpanFrom(ctx).AddEvent("new leader observed", attribute.String("leader", holder))
	}
}

func (le *Elector) lockAttrs() []attribute.KeyValue {
	return []attribute.KeyValue{
		attribute.String("leaderelection.lock", le.cfg.Resource+" "+le.cfg.Lock.Describe()),
		attribute.String("leaderelection.identity", le.cfg.Lock.Identity()),
	}
}

// tracedLock adds a span event per lock request to the current iteration:
// renewals happen every 2s, so one span each is what the trace can afford.
type tracedLock struct {
	rl.Interface
	resource string
	denied   func() error // Config.Refused
}

// refuse is the apiserver's answer to a request it refuses: 403 Forbidden.
func (t tracedLock) refuse() error {
	if t.denied == nil {
		return nil
	}
	why := t.denied()
	if why == nil {
		return nil
	}
	return refusedError{apierrors.NewForbidden(schema.GroupResource{Resource: t.resource}, lockName(t.Describe()), why), why}
}

// refusedError is the 403 of a refused lock request, which unwraps to the
// reason too: a reason made by goroutine.CausedBy links the span that
// records the error to what refused it (the scenario's action).
type refusedError struct {
	status *apierrors.StatusError
	why    error
}

func (e refusedError) Error() string   { return e.status.Error() }
func (e refusedError) Unwrap() []error { return []error{e.status, e.why} }

// lockName is the name in a lock's "namespace/name".
func lockName(described string) string {
	if i := strings.LastIndexByte(described, '/'); i >= 0 {
		return described[i+1:]
	}
	return described
}

// refused records a refused request: its event, and the error on the
// try's iteration, linked to what refused it.
func (t tracedLock) refused(ctx context.Context, verb string, err error) {
	t.event(ctx, verb, err)
	goroutine.SpanFrom(ctx).RecordError(err)
}

func (t tracedLock) event(ctx context.Context, verb string, err error, attrs ...attribute.KeyValue) {
	if err != nil {
		attrs = append(attrs, attribute.String("error", err.Error()))
	}
	goroutine.SpanFrom(ctx).AddEvent(fmt.Sprintf("%s.%s", t.resource, verb),
		append(attrs, attribute.String(catalog.AttrObjectKey, t.Describe()))...)
}

func (t tracedLock) Get(ctx context.Context) (*rl.LeaderElectionRecord, []byte, error) {
	if err := t.refuse(); err != nil {
		t.refused(ctx, "Get", err)
		return nil, nil, err
	}
	r, raw, err := t.Interface.Get(ctx)
	var attrs []attribute.KeyValue
	if r != nil {
		attrs = append(attrs, attribute.String("holder", r.HolderIdentity))
	}
	t.event(ctx, "Get", err, attrs...)
	return r, raw, err
}

func (t tracedLock) Create(ctx context.Context, r rl.LeaderElectionRecord) error {
	if err := t.refuse(); err != nil {
		t.refused(ctx, "Create", err)
		return err
	}
	err := t.Interface.Create(ctx, r)
	t.event(ctx, "Create", err, attribute.String("holder", r.HolderIdentity))
	return err
}

func (t tracedLock) Update(ctx context.Context, r rl.LeaderElectionRecord) error {
	if err := t.refuse(); err != nil {
		t.refused(ctx, "Update", err)
		return err
	}
	err := t.Interface.Update(ctx, r)
	t.event(ctx, "Update", err, attribute.String("holder", r.HolderIdentity))
	return err
}
