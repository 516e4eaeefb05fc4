package stepview

import (
	"testing"

	"github.com/kubeloom/kubeloom/traces"
)

func TestOtherAttributes(t *testing.T) {
	attrs := traces.Attributes{
		"goroutine.name": "informer/listener-pop", "k8s.object.key": "default/web-0", "iteration": int64(3),
		"pending": int64(2), "notification": "OnUpdate",
	}
	if got := otherAttributes(attrs); got != "notification=OnUpdate pending=2" {
		t.Errorf("otherAttributes = %q", got)
	}
	many := traces.Attributes{}
	for _, k := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		many[k] = k
	}
	if got := otherAttributes(many); got != "a=a b=b c=c d=d e=e f=f (+2)" {
		t.Errorf("otherAttributes of 8 = %q", got)
	}
	if got := otherAttributes(traces.Attributes{"goroutine.name": "x"}); got != "" {
		t.Errorf("otherAttributes of the goroutine's own = %q", got)
	}
}
