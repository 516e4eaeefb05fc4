package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNewScenariosCmds(t *testing.T) {
	t.Run("list", func(t *testing.T) {
		checkFlags(t, newScenariosListCmd, deps{}, []flagCase[scenariosListOptions]{
			{name: "defaults", want: scenariosListOptions{lang: "en"}},
			{name: "in Chinese", args: []string{"--lang", "zh"}, want: scenariosListOptions{lang: "zh"}},
			{name: "an unknown language", args: []string{"--lang", "fr"}, err: `invalid argument "fr" for "--lang" flag: unknown language "fr": expected en (English) or zh (中文)`},
			{name: "an argument", args: []string{"informer-basics"}, err: `unknown command "informer-basics" for "list"`},
		})
	})
	t.Run("show", func(t *testing.T) {
		checkFlags(t, newScenariosShowCmd, deps{}, []flagCase[scenariosShowOptions]{
			{name: "a built-in", args: []string{"kubelet-startup"}, want: scenariosShowOptions{name: "kubelet-startup", lang: "en"}},
			{name: "a file in Chinese", args: []string{"my.yaml", "--lang", "zh"}, want: scenariosShowOptions{name: "my.yaml", lang: "zh"}},
			{name: "nothing to show", err: "accepts 1 arg(s), received 0"},
		})
	})
	t.Run("validate", func(t *testing.T) {
		checkFlags(t, newScenariosValidateCmd, deps{}, []flagCase[scenariosValidateOptions]{
			{name: "files", args: []string{"a.yaml", "b.yaml"}, want: scenariosValidateOptions{files: []string{"a.yaml", "b.yaml"}}},
			{name: "no file", err: "requires at least 1 arg(s), only received 0"},
		})
	})
}

// TestRunScenariosValidate: each file gets a line, ok or what is wrong
// with it (file:line:column), and the error counts the invalid ones.
func TestRunScenariosValidate(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(good, []byte("apiVersion: kubeloom.dev/v1\nkind: Scenario\nmetadata: {name: x}\nspec:\n  duration: 10s\n  informers: [{resource: pods}]\n"), 0o644)
	os.WriteFile(bad, []byte("apiVersion: kubeloom.dev/v1\nkind: Scenario\nmetadata: {name: x}\nspec:\n  duraton: 10s\n"), 0o644)
	var out bytes.Buffer
	err := runScenariosValidate(&scenariosValidateOptions{io: streams{out: &out}, files: []string{good, bad}})
	if err == nil || err.Error() != "1 of 2 scenario files are invalid" {
		t.Errorf("error %v, want 1 of 2 scenario files are invalid", err)
	}
	want := good + ": ok\n" + bad + ":5:3: spec.duraton: unknown field"
	if !strings.HasPrefix(out.String(), want) {
		t.Errorf("output:\n%s\nwant it to start:\n%s", out.String(), want)
	}
}
