package termview

import (
	"bytes"
	"testing"
)

func TestUseColor(t *testing.T) {
	tests := []struct {
		mode     ColorMode
		terminal bool
		env      map[string]string
		want     bool
	}{
		{ColorAuto, true, nil, true},
		{ColorAuto, false, nil, false},
		{ColorAuto, true, map[string]string{"NO_COLOR": "1"}, false},
		{ColorAuto, true, map[string]string{"NO_COLOR": "0"}, false}, // any value
		{ColorAuto, true, map[string]string{"NO_COLOR": "false"}, false},
		{ColorAuto, true, map[string]string{"NO_COLOR": ""}, true}, // empty means unset (no-color.org)
		{ColorAuto, true, map[string]string{"TERM": "dumb"}, false},
		{ColorAuto, true, map[string]string{"TERM": "xterm-256color"}, true},
		{ColorAlways, false, map[string]string{"NO_COLOR": "1", "TERM": "dumb"}, true}, // the flag wins
		{ColorNever, true, nil, false},
	}
	for _, tc := range tests {
		got := useColor(tc.mode, tc.terminal, func(k string) string { return tc.env[k] })
		if got != tc.want {
			t.Errorf("%v, terminal %v, env %v: colour %v, want %v", tc.mode, tc.terminal, tc.env, got, tc.want)
		}
	}
	// A buffer is no terminal.
	t.Setenv("NO_COLOR", "")
	if UseColor(ColorAuto, &bytes.Buffer{}) {
		t.Error("colour for a bytes.Buffer")
	}
}

func TestColorModeFlag(t *testing.T) {
	for in, want := range map[string]ColorMode{"auto": ColorAuto, "ALWAYS": ColorAlways, "never": ColorNever, "yes": ColorAlways, "off": ColorNever} {
		var m ColorMode
		if err := m.Set(in); err != nil || m != want {
			t.Errorf("Set(%q) = %v, %v; want %v", in, m, err, want)
		}
		if m.String() != colorModes[want] {
			t.Errorf("String() = %q", m.String())
		}
	}
	var m ColorMode
	if err := m.Set("sometimes"); err == nil {
		t.Error(`Set("sometimes") accepted`)
	}
}

func TestPaintCells(t *testing.T) {
	cells := []rune("├──│•→ ")
	ranks := []int{rankCap, rankLine, rankLine, rankIteration, rankEvent, rankCap, 0}
	got := newPalette(true).paintCells(cells, ranks, '→')
	want := "├\x1b[2m──\x1b[0m\x1b[32m│\x1b[0m\x1b[1;33m•\x1b[0m\x1b[1;31m→\x1b[0m "
	if got != want {
		t.Errorf("paintCells = %q, want %q", got, want)
	}
	if got := newPalette(false).paintCells(cells, ranks, '→'); got != string(cells) {
		t.Errorf("paintCells without colour = %q, want %q", got, string(cells))
	}
}
