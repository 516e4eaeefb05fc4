// Package containerruntime is the container runtime of one simulated node: a
// deterministic, in-memory stand-in for the docker daemon (1.11, the v1.5 era)
// that the simulated kubelet drives through a small CRI-like API — images,
// pod containers and their lifecycle, image-filesystem accounting, OOM events
// and per-container stats. It starts no goroutines: containers that exit by
// themselves do so lazily, when the runtime is next asked, and everything it
// invents (IDs, sizes, stats) follows from a seed and the node name.
package containerruntime
