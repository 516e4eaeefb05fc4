package controllermanager

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/sim/informer"
)

func TestV15DefaultsAndFlags(t *testing.T) {
	s := newCMServer(informer.Classic)
	fs, err := parse(s, informer.Classic, nil)
	if err != nil {
		t.Fatal(err)
	}
	le := s.LeaderElection
	if !le.LeaderElect || le.LeaseDuration.Duration != 15*time.Second || le.RenewDeadline.Duration != 10*time.Second || le.RetryPeriod.Duration != 2*time.Second ||
		le.ResourceLock != "" || s.MinResyncPeriod.Duration != 12*time.Hour || s.NodeMonitorGracePeriod.Duration != 40*time.Second ||
		s.PodEvictionTimeout.Duration != 5*time.Minute || s.TerminatedPodGCThreshold != 12500 || s.ConcurrentEndpointSyncs != 5 ||
		s.ConcurrentGCSyncs != 20 || !s.EnableProfiling || s.logFlushFrequency != 5*time.Second {
		t.Errorf("defaults differ from v1.5's NewCMServer: %+v", s.Config)
	}
	var help bytes.Buffer
	fs.SetOutput(&help)
	fs.PrintDefaults()
	for _, want := range []string{"--concurrent-rc-syncs", "--leader-elect-lease-duration duration", "(default 15s)", "--min-resync-period duration",
		"--terminated-pod-gc-threshold int32", "--profiling", "--log-flush-frequency"} {
		if !strings.Contains(help.String(), want) {
			t.Errorf("the flag set's help lacks %q", want)
		}
	}
	if fs.Lookup("leader-elect-resource-lock") != nil || fs.Lookup("concurrent-job-syncs") != nil {
		t.Error("era classic has flags v1.5 did not")
	}
	m := newCMServer(informer.Modern)
	mfs, err := parse(m, informer.Modern, nil)
	if err != nil || m.LeaderElection.ResourceLock != "leases" || mfs.Lookup("concurrent-job-syncs") == nil {
		t.Errorf("era modern: %v %q", err, m.LeaderElection.ResourceLock)
	}
}

func TestScenarioFlagsOverrideDefaults(t *testing.T) {
	s := newCMServer(informer.Classic)
	_, err := parse(s, informer.Classic, map[string]string{"--concurrent-rc-syncs": "3", "--node-monitor-grace-period": "20s", "--profiling": "false"})
	if err != nil {
		t.Fatal(err)
	}
	if s.ConcurrentRCSyncs != 3 || s.NodeMonitorGracePeriod.Duration != 20*time.Second || s.EnableProfiling {
		t.Errorf("overrides not applied: %+v", s.Config)
	}
}

func TestBadFlagsAreNamed(t *testing.T) {
	for flags, want := range map[string]string{
		"--no-such=1":                       "--no-such: unknown flag",
		"--port=x":                          `--port: invalid argument "x"`,
		"--address=0.0.0.0":                 "--address: \"0.0.0.0\": kubeloom serves only on a loopback address",
		"--cloud-provider=gce":              "--cloud-provider",
		"--concurrent-gc-syncs=0":           "--concurrent-gc-syncs: 0: kubeloom runs 1 to 100 workers",
		"--leader-elect-renew-deadline=20s": "--leader-elect-lease-duration: 15s must be greater than --leader-elect-renew-deadline 20s",
		"--leader-elect-retry-period=9s":    "--leader-elect-renew-deadline: 10s must be greater than 1.2",
	} {
		name, value, _ := strings.Cut(flags, "=")
		_, err := parse(newCMServer(informer.Classic), informer.Classic, map[string]string{name: value})
		var fe *FlagError
		if err == nil || !errors.As(err, &fe) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want a FlagError containing %q", flags, err, want)
		}
	}
	if err := CheckFlags(informer.Modern, map[string]string{"--leader-elect-resource-lock": "endpoints"}); err == nil || !strings.Contains(err.Error(), "removed in 1.24") {
		t.Errorf("modern endpoints lock: %v", err)
	}
}

func TestControllersFlag(t *testing.T) {
	on := enabledControllers([]string{"*", "-garbagecollector", "-petset"})
	if !on("endpoint") || on("garbagecollector") || on("statefulset") {
		t.Error(`"*", "-garbagecollector", "-petset" misread`)
	}
	only := enabledControllers([]string{"endpoint", "scheduledjob"})
	if !only("endpoint") || !only("cronjob") || only("node") {
		t.Error(`"endpoint", "scheduledjob" misread`)
	}
	if !KnownController("petset") || !KnownController("attachdetach") || KnownController("ttl") {
		t.Error("KnownController")
	}
}
