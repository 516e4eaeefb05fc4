package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/scenarios"
)

// scaleScenario is the shape of issue 15's scale target: n kubelets and
// one controller-manager, and at 10s a Deployment of 30 pods per node,
// run for d of simulated time (cmd/kubeloom's BenchmarkClusterScale runs
// it as a user would, in virtual time).
func scaleScenario(b *testing.B, n int, d time.Duration) *scenarios.Scenario {
	yaml := fmt.Sprintf(`apiVersion: kubeloom.dev/v1
kind: Scenario
metadata: {name: scale-%d}
spec:
  duration: %s
  seed: 1
  era: classic
  controllerManager: {replicas: 1}
  kubelets: {count: %d}
  actions:
    - at: 10s
      create:
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web}
        spec:
          replicas: %d
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec:
              containers:
                - {name: web, image: "nginx:1.11", ports: [{containerPort: 80}]}
`, n, d, n, 30*n)
	sc, err := scenarios.Parse(fmt.Sprintf("scale-%d.yaml", n), []byte(yaml))
	if err != nil {
		b.Fatal(err)
	}
	return sc
}
