package scenarios

import (
	"strings"
	"testing"
	"time"
)

func TestParseAction(t *testing.T) {
	failover, err := Builtin("cm-leader-failover")
	if err != nil {
		t.Fatal(err)
	}
	kubelet, err := Builtin("kubelet-startup")
	if err != nil {
		t.Fatal(err)
	}
	a, err := ParseAction("page", []byte("killLeader: {}\n"), &failover.Spec, 42*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if a.Verb.Name() != "killLeader" || a.At != 42*time.Second || a.Pos.String() != "page:1:1" {
		t.Errorf("got %s at %v (%s), want killLeader at 42s (page:1:1)", a.Verb.Name(), a.At, a.Pos)
	}
	if a, err := ParseAction("page", []byte("stopKubelet: {node: node-1}"), &kubelet.Spec, 0); err != nil || a.Verb.Name() != "stopKubelet" {
		t.Errorf("stopKubelet node-1: %v, %v", a.Verb, err)
	}
	for _, tc := range []struct {
		name string
		sp   *Spec
		src  string
		want string // the error's first line
	}{
		{"empty", &failover.Spec, "  \n", "page:1:1: no action; expected one verb and its value, such as killLeader: {}"},
		{"no such node", &kubelet.Spec, "stopKubelet:\n  node: node-7\n", `page:2:9: stopKubelet.node: expected node-1 (spec.kubelets.count is 1), got "node-7"`},
		{"no leader", &kubelet.Spec, "killLeader: {}", "page:1:1: killLeader: needs spec.controllerManager"},
		{"two verbs", &kubelet.Spec, "injectOOM: {node: node-1}\nkillLeader: {}", "page:2:1: killLeader: an action has exactly one verb"},
		{"at is not for a live action", &failover.Spec, "at: 5s\nkillLeader: {}", "page:1:1: at: unknown field"},
		{"unknown verb", &failover.Spec, "killEveryone: {}", "page:1:1: killEveryone: unknown field"},
		{"bad YAML", &failover.Spec, "killLeader: {", "page:1:"},
		{"a list", &failover.Spec, "- killLeader: {}", "page:1:1: expected an action: a mapping with one verb"},
	} {
		_, err := ParseAction("page", []byte(tc.src), tc.sp, 0)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		first, _, _ := strings.Cut(err.Error(), "\n")
		if !strings.HasPrefix(first, tc.want) {
			t.Errorf("%s: got\n  %s\nwant a line starting\n  %s", tc.name, first, tc.want)
		}
	}
}
