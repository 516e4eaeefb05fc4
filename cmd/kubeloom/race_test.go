//go:build race

package main

// raceDetector: this test binary runs with -race (see largeBuiltins).
const raceDetector = true
