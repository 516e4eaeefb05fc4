package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestStepAgainstTheOtherEra steps the classic era of informer-eras
// against the modern one, from one recording: the DeltaFIFO's calls are
// not in B (its queue is a RealFIFO), the watch events come at the same
// instants, and the resync's pops come later in B.
func TestStepAgainstTheOtherEra(t *testing.T) {
	file := record(t, "informer-eras")
	out, stderr, err := executeStep(t, file, "--plain", "--against", file, "--a", "classic", "--b", "modern")
	if err != nil || stderr != "" {
		t.Fatalf("step --against: %v\n%s", err, stderr)
	}
	blocks := strings.Split(out, "\n\n")[1:]
	said := func(title, fact string) int {
		n := 0
		for _, b := range blocks {
			ls := strings.Split(b, "\n")
			if len(ls) > 1 && strings.HasPrefix(ls[1], title) && strings.Contains(b, "\n  "+fact+"\n") {
				n++
			}
		}
		return n
	}
	if n := said("call · DeltaFIFO.Add", "not in B"); n == 0 {
		t.Errorf("classic's DeltaFIFO.Add is not said to be missing from modern:\n%s", out)
	}
	if n := said("event · watch event", "in B: the same instant"); n == 0 {
		t.Errorf("no watch event happens at the same instant in both eras")
	}
	if !regexp.MustCompile(`\n  in B: at [0-9.]+m?s \(\+[0-9.]+m?s\)\n`).MatchString(out) {
		t.Errorf("no step of classic comes later in modern")
	}
	// Every step of the classic era says something; the modern era's own
	// steps (A is the whole recording) are compared with nothing.
	for _, b := range blocks {
		header := strings.SplitN(b, "\n", 2)[0]
		says := strings.Contains(b, "\n  in B: ") || strings.Contains(b, "\n  not in B\n")
		if classic := strings.Contains(header, " classic/"); classic != says {
			t.Errorf("classic=%v but says in B=%v:\n%s", classic, says, b)
		}
	}
}

func TestStepSelectsOnlyWithAgainst(t *testing.T) {
	_, _, err := executeStep(t, "rec.jsonl", "--a", "classic")
	if err == nil || !strings.Contains(err.Error(), "--against") {
		t.Errorf("--a without --against: %v", err)
	}
}
