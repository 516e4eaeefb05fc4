package printable_test

import (
	"fmt"

	"github.com/kubeloom/kubeloom/internal/printable"
)

func ExampleString() {
	fmt.Println(printable.String("pod\x1b]0;pwned\x07-1"))
	fmt.Println(printable.String("网站-0 \u202eevil"))
	fmt.Println(printable.Text("line one\nsafe\rEVIL"))
	// Output:
	// pod\x1b]0;pwned\x07-1
	// 网站-0 \u202eevil
	// line one
	// safe\rEVIL
}
