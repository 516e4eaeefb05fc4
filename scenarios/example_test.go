package scenarios_test

import (
	"fmt"

	"github.com/kubeloom/kubeloom/scenarios"
)

func ExampleParse() {
	src := []byte(`apiVersion: kubeloom.dev/v1
kind: Scenario
metadata: {name: demo}
spec:
  duration: 1m
  informers:
    - {resource: pods, handlers: two}
`)
	_, err := scenarios.Parse("demo.yaml", src)
	fmt.Println(err)
	// Output: demo.yaml:7:34: spec.informers[0].handlers: expected an integer ≥ 1 and ≤ 100, got "two"
}

func ExampleBuiltin() {
	s, err := scenarios.Builtin("informer-basics")
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Spec.Duration, s.Spec.RunEras())
	for _, a := range s.Spec.Actions {
		fmt.Println(a.At, a.Verb.Name())
	}
	// Output:
	// 30s [classic]
	// 5s create
	// 10s update
	// 15s delete
	// 20s breakWatches
}

func ExampleBuiltins() {
	for _, b := range scenarios.Builtins() {
		fmt.Println(b.Name)
	}
	// Output:
	// cluster-basics
	// cluster-scale
	// cm-leader-failover
	// cm-startup
	// goroutine-leak
	// informer-basics
	// informer-eras
	// kubelet-pod-lifecycle
	// kubelet-startup
	// reflector-leak
}
