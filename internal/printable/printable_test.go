package printable

import (
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"ascii", "kubelet/pleg-relist", "kubelet/pleg-relist"},
		{"empty", "", ""},
		{"OSC 0", "\x1b]0;pwned\x07", `\x1b]0;pwned\x07`},
		{"OSC 52", "\x1b]52;c;ZXZpbA==\x07", `\x1b]52;c;ZXZpbA==\x07`},
		{"CSI 2J", "a\x1b[2Jb", `a\x1b[2Jb`},
		{"C1 CSI rune", "a\u009b2J", `a\u009b2J`},
		{"C1 range", "\u0080\u009f", `\u0080\u009f`},
		{"raw 0x9b byte", "a\x9b2J", `a\x9b2J`},
		{"invalid UTF-8", "\xff\xfe", `\xff\xfe`},
		{"cut UTF-8", "中"[:2], `\xe4\xb8`},
		{"NUL and DEL", "\x00\x7f", `\x00\x7f`},
		{"tab, newline, CR", "a\tb\nc\rd", `a\tb\nc\rd`},
		{"bidi override", "abc\u202Efed", `abc\u202efed`},
		{"bidi isolates", "\u2066\u2067\u2068\u2069", `\u2066\u2067\u2068\u2069`},
		{"bidi marks", "\u200e\u200f\u061c", `\u200e\u200f\u061c`},
		{"line separators", "a\u2028b\u2029", `a\u2028b\u2029`},
		{"invisible", "\u200b\u00ad\ufeff\u2060", `\u200b\u00ad\ufeff\u2060`},
		{"language tag", "\U000e0001", `\U000e0001`},
		{"noncharacters", "\uffff\ufdd0\U0010fffe", `\uffff\ufdd0\U0010fffe`},
		{"private use stays", "\ue0a0", "\ue0a0"},
		{"unassigned stays: an emoji newer than Go's tables", "\U0001fae9", "\U0001fae9"},
		{"backslash stays", `a\x1b`, `a\x1b`},
		{"replacement character stays", "\ufffd", "\ufffd"},
		// What learners write is kept as it is.
		{"Chinese", "节点-1 网站-0", "节点-1 网站-0"},
		{"emoji ZWJ sequence", "👩‍💻", "👩‍💻"},
		{"variation selector", "❤️", "❤️"},
		{"combining mark", "cafe\u0301", "cafe\u0301"},
		{"flag tag sequence", "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f", "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"},
		{"ZWNJ", "می\u200cخواهم", "می\u200cخواهم"},
		{"ideographic and no-break spaces", "a\u3000b\u00a0c", "a\u3000b\u00a0c"},
		{"mixed", "节点\x1b[2J👩‍💻\u009b", `节点\x1b[2J👩‍💻\u009b`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := String(c.in); got != c.want {
				t.Errorf("String(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestTextKeepsLayout(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"line 1\nline\t2\r\n", "line 1\nline\t2\r\n"},
		{"safe\rEVIL\n", `safe\rEVIL` + "\n"},
		{"end\r", `end\r`},
		{"a\n\x1b[2J\v", "a\n" + `\x1b[2J\x0b`},
	} {
		if got := Text(c.in); got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestNoAllocation: the common case, text with nothing to escape, returns
// the string itself.
func TestNoAllocation(t *testing.T) {
	for _, s := range []string{"kube-controller-manager cm-0", "节点-1 👩‍💻 cafe\u0301"} {
		if n := testing.AllocsPerRun(100, func() { _ = String(s) }); n != 0 {
			t.Errorf("String(%q) allocates %v times", s, n)
		}
	}
}

// FuzzString: whatever the input, the output holds no control character,
// no bidirectional control and no invalid UTF-8, and escaping it again
// changes nothing.
func FuzzString(f *testing.F) {
	for _, s := range []string{"\x1b]52;c;ZXZpbA==\x07", "a\x9b\u009b", "节点\u202e", "\xff", "👩‍💻"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, lines := range []bool{false, true} {
			out := escape(s, lines)
			if !utf8.ValidString(out) {
				t.Fatalf("escape(%q, %v) = %q: not UTF-8", s, lines, out)
			}
			for i, r := range out {
				if bad(r) && !(lines && r < 0x20 && layout(out, i)) {
					t.Fatalf("escape(%q, %v) = %q: holds %U", s, lines, out, r)
				}
			}
			if again := escape(out, lines); again != out {
				t.Fatalf("escape is not idempotent: %q then %q", out, again)
			}
		}
	})
}

// bad reports a rune a terminal could take as a command.
func bad(r rune) bool {
	return r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f ||
		r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x2028 || r == 0x2029
}

func BenchmarkString(b *testing.B) {
	for _, c := range []struct{ name, s string }{
		{"ascii", "kubelet/pleg-relist informer.name=pods"},
		{"chinese", "节点-1 网站-0 的 kubelet"},
		{"escaped", "\x1b]52;c;ZXZpbA==\x07 name"},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = String(c.s)
			}
		})
	}
}

// keep takes U+2070–U+FDCF (CJK among them) as kept without looking them
// up: no format character or separator may be there in Go's tables.
func TestShortcutHoldsNoFormatCharacter(t *testing.T) {
	for r := rune(0x2070); r < 0xfdd0; r++ {
		if unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r) {
			t.Fatalf("%U is a format character or a separator: keep must look it up", r)
		}
	}
}
