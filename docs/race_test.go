//go:build race

package docs

// raceDetector: this test binary runs with -race (see largeBuiltins).
const raceDetector = true
