package scenarios

import "testing"

// BenchmarkParseBuiltin measures Parse on the largest built-in (most of the time is YAML parsing).
func BenchmarkParseBuiltin(b *testing.B) {
	src, _ := BuiltinSource("informer-basics")
	for b.Loop() {
		if _, err := Parse("x", src); err != nil {
			b.Fatal(err)
		}
	}
}
