package engine

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
)

// What real processes of the articles' era ran that the source read alone
// does not show: glog's flush daemon, started by glog's init before main,
// and the poller goroutine of every wait.Poll in leader renewal.

// TestGlogFlushDaemonStartsBeforeMain holds the classic processes to what
// glog's init does: a "glog.init" step on the main goroutine, before main,
// in main's trace, starts the flush daemon, which ticks every 30s from then
// on; today's klog starts none.
func TestGlogFlushDaemonStartsBeforeMain(t *testing.T) {
	for _, era := range []string{"classic", "modern"} {
		sc := builtin(t, "cluster-basics")
		sc.Spec.Era, sc.Spec.Eras = scenarios.Era(era), nil
		sc.Spec.Duration = 95 * time.Second
		_, spans := runScenario(t, sc, nil)
		byID := map[string]traces.Span{}
		mains := map[string]traces.Span{} // by instance
		for _, s := range spans {
			byID[s.SpanID.String()] = s
			if s.Name == "main" && s.Attributes.String("process.command") != "" {
				mains[s.Resource.String(catalog.AttrServiceInstanceID)] = s
			}
		}
		daemons := 0
		for _, s := range spans {
			name := s.Attributes.String(catalog.AttrGoroutineName)
			if !strings.HasSuffix(name, "/glog-flush-daemon") || s.Name != name {
				continue
			}
			daemons++
			inst := s.Resource.String(catalog.AttrServiceInstanceID)
			init, ok := byID[s.ParentSpanID.String()]
			if !ok || init.Name != "glog.init" {
				t.Errorf("%s: %s's parent is %q, want glog.init", inst, name, init.Name)
			}
			// In virtual time init and main start at one instant; the span
			// IDs count the order spans start in (sim/tracing/ids.go).
			switch m, ok := mains[inst]; {
			case !ok:
				t.Errorf("%s: a glog flush daemon and no main", inst)
			case init.ParentSpanID.IsValid():
				t.Errorf("%s: glog.init has a parent; Go runs package inits on the main goroutine before main, so it is a root beside main", inst)
			case m.Start.Before(init.End) || !startsBefore(init, s) || !startsBefore(s, m):
				t.Errorf("%s: glog.init (%s–%s) and its daemon (%s) must start, and glog.init end, before main (%s)", inst, init.Start, init.End, s.Start, m.Start)
			case init.TraceID != m.TraceID:
				t.Errorf("%s: glog.init is in trace %s, main in %s: one process is one trace (Jaeger shows it as one)", inst, init.TraceID, m.TraceID)
			}
			var ticks []time.Duration
			for _, it := range spans {
				if it.ParentSpanID == s.SpanID && it.Name == "lockAndFlushAll" {
					ticks = append(ticks, it.Start.Sub(s.Start))
				}
			}
			if want := []time.Duration{30 * time.Second, 60 * time.Second, 90 * time.Second}; !slices.Equal(ticks, want) {
				t.Errorf("%s: %s flushed at %v after its start, want %v (a 30s ticker)", inst, name, ticks, want)
			}
		}
		processes := len(mains)
		switch {
		case era == "classic" && daemons != processes:
			t.Errorf("classic: %d glog flush daemons for %d processes, want one each", daemons, processes)
		case era == "modern" && daemons != 0:
			t.Errorf("modern: %d glog flush daemons; klog starts none in its init", daemons)
		}
	}
}

// TestLostRenewalIsFiveTriesInTenSeconds blocks the classic leader's lock
// (cm-leader-failover's blockLeaderLock at 120s) and holds its last renewal
// to v1.5's wait.Poll(2s, 10s): a poller goroutine whose ticker gets four
// ticks through (2, 4, 6 and 8s), then the 10s timer closes the channel
// and WaitFor tries a fifth and last time; the renewal is lost, the
// process exits "leaderelection lost", and another replica takes over. A
// healthy renewal is one poller goroutine with one tick.
func TestLostRenewalIsFiveTriesInTenSeconds(t *testing.T) {
	sc := builtin(t, "cm-leader-failover")
	sc.Spec.Era, sc.Spec.Eras = scenarios.EraClassic, nil
	_, spans := runScenario(t, sc, nil)
	var blocked string
	for _, s := range spans {
		if s.Name == "action/blockLeaderLock" {
			blocked = s.Attributes.String("kubeloom.blocked")
		}
	}
	if blocked == "" {
		t.Fatal("no action/blockLeaderLock span naming the replica it blocked (kubeloom.blocked)")
	}
	in := func(s traces.Span) bool { return s.Resource.String(catalog.AttrServiceInstanceID) == blocked }

	var renew traces.Span     // the replica's last renewal
	var pollers []traces.Span // the replica's pollers: the last is the lost renewal's
	for _, s := range spans {
		switch {
		case !in(s):
		case s.Name == "renew" && s.Start.After(renew.Start):
			renew = s
		case s.Name == "cm/leader-poll-ticker":
			pollers = append(pollers, s)
		}
	}
	if len(pollers) == 0 {
		t.Fatalf("%s ran no cm/leader-poll-ticker", blocked)
	}
	slices.SortFunc(pollers, func(a, b traces.Span) int { return a.Start.Compare(b.Start) })
	poller, healthy := pollers[len(pollers)-1], pollers[:len(pollers)-1]
	if poller.ParentSpanID != renew.SpanID {
		t.Fatalf("the last poller (started %s) is not the last renewal's (started %s)", poller.Start, renew.Start)
	}
	var tries []time.Duration
	for _, e := range renew.Events {
		if e.Name == "tryAcquireOrRenew" {
			if ok, _ := e.Attributes["succeeded"].(bool); ok {
				t.Errorf("a try at %s succeeded while the lock was blocked", e.Time.Sub(renew.Start))
			}
			tries = append(tries, e.Time.Sub(renew.Start))
		}
	}
	want := []time.Duration{2 * time.Second, 4 * time.Second, 6 * time.Second, 8 * time.Second, 10 * time.Second}
	if !slices.Equal(tries, want) {
		t.Errorf("the lost renewal tried at %v after it began, want %v", tries, want)
	}
	var ticks []time.Duration
	for _, s := range spans {
		if s.ParentSpanID == poller.SpanID && s.Name == "tick" {
			ticks = append(ticks, s.Start.Sub(poller.Start))
		}
	}
	if !slices.Equal(ticks, want[:4]) || poller.End.Sub(poller.Start) != 10*time.Second {
		t.Errorf("the lost renewal's poller ticked at %v and lived %s, want ticks at %v and 10s (the timeout)", ticks, poller.End.Sub(poller.Start), want[:4])
	}
	if len(healthy) < 10 {
		t.Fatalf("%d healthy renewals before the block, want a renewal every 2s", len(healthy))
	}
	for _, p := range healthy {
		if d := p.End.Sub(p.Start); d != 2*time.Second {
			t.Errorf("a healthy renewal's poller lived %s, want 2s (one tick, one successful try)", d)
			break
		}
	}
	exited, tookOver := false, false
	for _, s := range spans {
		if in(s) && s.Name == "main" && s.Attributes.String("process.exit") == "leaderelection lost" {
			exited = true
		}
		if !in(s) && s.Name == "RunOrDie" {
			for _, e := range s.Events {
				if e.Name == "became leader" && e.Time.After(renew.End) {
					tookOver = true
				}
			}
		}
	}
	if !exited || !tookOver {
		t.Errorf("after the lost renewal: exited %v (want process.exit \"leaderelection lost\"), another replica became leader %v", exited, tookOver)
	}
}

// TestMountWaitPollsEvery300ms holds WaitForAttachAndMount to the era's
// poll: v1.5's wait.Poll(300ms, 2m) through a kubelet/volume-mount-poller
// goroutine, the first check 300ms in; today's PollUntilContextTimeout on
// the pod worker, with no goroutine, a check at once. Either way the wait
// is whole 300ms steps.
func TestMountWaitPollsEvery300ms(t *testing.T) {
	for _, era := range []scenarios.Era{scenarios.EraClassic, scenarios.EraModern} {
		sc := builtin(t, "kubelet-startup")
		sc.Spec.Era, sc.Spec.Eras, sc.Spec.Duration = era, nil, 30*time.Second
		extra, err := scenarios.Parse("mount.yaml", []byte("apiVersion: kubeloom.dev/v1\nkind: Scenario\nmetadata: {name: mount}\n"+
			"spec:\n  duration: 30s\n  kubelets: {count: 1}\n  actions:\n    - {at: 10s, create: "+podWithVolume+"}\n"))
		if err != nil {
			t.Fatal(err)
		}
		sc.Spec.Actions = append(extra.Spec.Actions, sc.Spec.Actions...) // 10s, before the built-in's own
		_, spans := runScenario(t, sc, nil)
		var waits []traces.Span
		pollers := 0
		for _, s := range spans {
			switch s.Name {
			case "WaitForAttachAndMount":
				waits = append(waits, s)
			case "kubelet/volume-mount-poller":
				pollers++
				if d := s.End.Sub(s.Start); d%(300*time.Millisecond) != 0 || d == 0 {
					t.Errorf("%s: a poller lived %s, want whole ticks of 300ms", era, d)
				}
			}
		}
		if len(waits) == 0 {
			t.Fatalf("%s: the pod with a volume never waited for its mount", era)
		}
		// v1.5 waits a tick even when the volumes are mounted already (every
		// later sync of the pod); today's checks at once.
		for _, w := range waits {
			if d := w.End.Sub(w.Start); d%(300*time.Millisecond) != 0 || era == scenarios.EraClassic && d == 0 {
				t.Errorf("%s: WaitForAttachAndMount took %s, want whole 300ms steps (classic: at least one)", era, d)
			}
		}
		if want := map[scenarios.Era]int{scenarios.EraClassic: len(waits), scenarios.EraModern: 0}[era]; pollers != want {
			t.Errorf("%s: %d poller goroutines for %d waits, want %d", era, pollers, len(waits), want)
		}
	}
}

// startsBefore says whether span a started before b: earlier, or at the
// same instant with an earlier ID (an instance numbers its spans in the
// order they start).
func startsBefore(a, b traces.Span) bool {
	return a.Start.Before(b.Start) || a.Start.Equal(b.Start) && bytes.Compare(a.SpanID[:], b.SpanID[:]) < 0
}
