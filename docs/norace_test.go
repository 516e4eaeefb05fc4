//go:build !race

package docs

// raceDetector: this test binary runs without -race (see largeBuiltins).
const raceDetector = false
