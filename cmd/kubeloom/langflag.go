package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/kubeloom/kubeloom/sim/catalog/locale"
)

// addLangFlag adds --lang to fs: a language of sim/catalog/locale (a
// folder each), English by default, checked as the command line is parsed,
// as --era is, so that no command starts its work with a language it
// cannot speak.
func addLangFlag(fs *pflag.FlagSet, p *string, usage string) {
	*p = locale.Reference
	fs.Var(langValue{p}, "lang", usage)
}

// langValue is the pflag.Value of --lang, written into the options' string.
type langValue struct{ p *string }

func (v langValue) String() string { return *v.p }

// Type is what the help shows after --lang.
func (v langValue) Type() string { return "string" }

func (v langValue) Set(s string) error {
	if s == "" { // locale.Check reads "" as the default; a flag given empty is a mistake
		return fmt.Errorf("expected %s", locale.Choices())
	}
	code, err := locale.Check(s)
	if err != nil {
		return err
	}
	*v.p = code
	return nil
}
