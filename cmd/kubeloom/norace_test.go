//go:build !race

package main

// raceDetector: this test binary runs without -race (see largeBuiltins).
const raceDetector = false
