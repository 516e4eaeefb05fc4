package traces

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// syntaxAsEncodingJSON checks checkSyntax against encoding/json: the same
// lines are valid, and an invalid one is invalid at the same column for the
// same reason, except that a line that ends inside a literal, a number or
// an escape is cut short, where encoding/json calls the end a space
// ("invalid character ' ' in literal true (expecting 'u')").
func syntaxAsEncodingJSON(line []byte) error {
	got := checkSyntax(line)
	if got != nil && got.deep {
		return nil // a limit of kubeloom's, far below encoding/json's (10,000)
	}
	var raw json.RawMessage
	err := json.Unmarshal(line, &raw)
	if err == nil {
		if got != nil {
			return fmt.Errorf("checkSyntax: %v (column %d); encoding/json reads it", got, got.col)
		}
		return nil
	}
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return fmt.Errorf("encoding/json: %v", err)
	}
	switch {
	case got == nil:
		return fmt.Errorf("checkSyntax finds nothing; encoding/json: %v at %d", se, se.Offset)
	case got.msg == "":
		if se.Error() != "unexpected end of JSON input" &&
			!(strings.HasPrefix(se.Error(), "invalid character ' '") && se.Offset == int64(len(line))) {
			return fmt.Errorf("checkSyntax: the line ends early; encoding/json: %v at %d", se, se.Offset)
		}
	case got.msg != se.Error() || int64(got.col) != se.Offset || got.trailing != strings.HasSuffix(se.Error(), "after top-level value"):
		return fmt.Errorf("checkSyntax: %v at %d (trailing %v); encoding/json: %v at %d", got, got.col, got.trailing, se, se.Offset)
	}
	return nil
}

func TestSyntaxErrorsAsEncodingJSON(t *testing.T) {
	for _, line := range []string{
		`{}`, `[1,{"a":[true,false,null,"x\u00e9\n"]},-0.5e+3]`, `"s"`, `12`,
		`garbage`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{"a":1 "b":2}`, `{,}`, `{1:2}`, `[1,]`, `[1 2]`, `]`,
		`{"a":tru}`, `{"a":trux}`, `{"a":nul}`, `{"a":fals}`, `{"a":nulll}`,
		`{"a":-}`, `{"a":-x}`, `{"a":01}`, `{"a":1.}`, `{"a":1.x}`, `{"a":1e}`, `{"a":1e+}`, `{"a":1ex}`, `{"a":.5}`,
		`{"a":"x` + "\t" + `"}`, `{"a":"\x"}`, `{"a":"\u12g4"}`, `{"a":"\u12`, `{"a":"\`, `{"a":"abc`,
		`{"a":1}}`, `{"a":1} x`, `{"a":1}  `, `  {"a":1}`, "{\"a\":\"\xff\"}", `{"a":'x'}`, `{"'":1`, `{"a":"x"`,
		goodLine, goodLine[:100], goodLine + `}`,
	} {
		if err := syntaxAsEncodingJSON([]byte(line)); err != nil {
			t.Errorf("%q: %v", line, err)
		}
	}
}

func FuzzUnquote(f *testing.F) {
	for _, s := range []string{`a`, `\u00e9`, `\ud83d\ude00`, `\ud800`, `\ud800\u0041`, `\udc00\ud800`, "\xff\xfe", `\/\b\f\n\r\t\"\\`, "日本", `a"b`, "\x01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := []byte(`"` + s + `"`)
		p := parser{b: q}
		got, err := p.stringBytes()
		ok := err == nil && p.p == len(q)
		var want string
		werr := json.Unmarshal(q, &want)
		if ok != (werr == nil) {
			t.Fatalf("%q: read %v (%v), encoding/json %v", q, ok, err, werr)
		}
		if ok && string(got) != want {
			t.Fatalf("%q read as %q, encoding/json reads %q", q, got, want)
		}
	})
}
