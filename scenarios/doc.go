// Package scenarios defines kubeloom's scenario files: Kubernetes-style YAML that says which
// simulated components to start, which objects the fake apiserver holds and what happens at
// which simulated time. Parse and LoadFile decode a file strictly and report every problem with
// its file, line and column; Builtin and Resolve give access to the library of scenarios
// embedded in the binary. Each action verb is a type of its own (verb_*.go, listed in the
// table in verb.go) that acts on a running simulation through World, which sim/engine
// implements. The package is data and validation only: it imports nothing from sim/.
package scenarios
