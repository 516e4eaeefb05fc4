package main

import (
	"path/filepath"
	"regexp"
	"strings"
)

// programName is how the user called kubeloom, for the commands kubeloom
// prints for them to paste ("replay it:  bin/kubeloom replay FILE"): the
// shell passes what was typed, "kubeloom" when it came from the PATH,
// "bin/kubeloom" or "./kubeloom" when it did not. `go run` runs a binary in
// a temporary folder, which would not paste: its spelling is the go run
// command.
func programName(arg0 string) string {
	switch {
	case arg0 == "":
		return "kubeloom"
	case strings.Contains(filepath.ToSlash(arg0), "/go-build") && strings.Contains(filepath.ToSlash(arg0), "/exe/"):
		return "go run ./cmd/kubeloom"
	}
	return arg0
}

// commandWord finds "kubeloom <command>" where a command line starts: at
// the start of a line or after a space, quote, "(" or "=" (an environment
// variable before it).
var commandWord = regexp.MustCompile(`(^|[\s'"(=` + "`" + `])kubeloom (run|replay|step|export|push|diff|scenarios|goroutines|serve|version|help)\b`)

// spell writes the kubeloom commands in text (help examples, hints,
// errors) the way the user called kubeloom.
func spell(text, prog string) string {
	if prog == "" || prog == "kubeloom" {
		return text
	}
	return commandWord.ReplaceAllString(text, "${1}"+strings.ReplaceAll(prog, "$", "$$")+" ${2}")
}
