package main

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

func TestNewVersionCmd(t *testing.T) {
	checkFlags(t, newVersionCmd, deps{}, []flagCase[versionOptions]{
		{name: "no arguments", want: versionOptions{}},
		{name: "an argument", args: []string{"v1"}, err: `unknown command "v1" for "version"`},
	})
}

func TestRunVersion(t *testing.T) {
	var out bytes.Buffer
	if err := runVersion(&versionOptions{io: streams{out: &out}}); err != nil {
		t.Fatal(err)
	}
	if want := "kubeloom " + version + " (" + runtime.Version() + ", " + runtime.GOOS + "/" + runtime.GOARCH + ")\n"; !strings.HasPrefix(out.String(), want) {
		t.Errorf("version printed %q, want it to start %q", out.String(), want)
	}
}

func TestNewGoroutinesCmd(t *testing.T) {
	checkFlags(t, newGoroutinesCmd, deps{}, []flagCase[goroutinesOptions]{
		{name: "defaults", want: goroutinesOptions{format: "text", lang: "en"}},
		{name: "long", args: []string{"-l"}, want: goroutinesOptions{long: true, format: "text", lang: "en"}},
		{name: "the reference page in Chinese", args: []string{"--format", "markdown", "--lang", "zh"}, want: goroutinesOptions{format: "markdown", lang: "zh"}},
		{name: "an unknown language", args: []string{"--lang", "qaa"}, err: `invalid argument "qaa" for "--lang" flag: unknown language "qaa": expected en (English) or zh (中文)`},
		{name: "an argument", args: []string{"kubelet"}, err: `unknown command "kubelet" for "goroutines"`},
	})
}
