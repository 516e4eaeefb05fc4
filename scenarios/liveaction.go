package scenarios

import (
	"bytes"
	"time"
)

// ParseAction decodes one action given while a scenario runs (`kubeloom serve`'s action
// buttons and YAML box): one verb and its value, written as in spec.actions but without at,
// since it applies at the instant the run is at ("killLeader: {}", "stopKubelet: {node:
// node-1}"). It is checked as the loader checks a scenario's actions: the verb's value, and that
// what it acts on exists in sp (a leader, the node, the informer). Errors are *Error values
// at file:line:col, as Parse's. The action's At is at.
//
// What depends on the actions played before (how many handlers an informer has by then) is
// left to the verb's Apply, which fails the action with the reason.
func ParseAction(file string, data []byte, sp *Spec, at time.Duration) (Action, error) {
	d := &decoder{file: file}
	if len(bytes.TrimSpace(data)) == 0 {
		d.errs.add(Position{File: file, Line: 1, Column: 1}, "", "no action; expected one verb and its value, such as killLeader: {} (one of %s)", verbList)
		return Action{}, d.errs.err()
	}
	if !d.checkLimits(data) {
		return Action{}, d.errs.err()
	}
	root, ok := d.document(data)
	if !ok {
		return Action{}, d.errs.err()
	}
	root, ok = d.value(root, "")
	if !ok {
		return Action{}, d.errs.err()
	}
	pa := pendingAction{Action: Action{Pos: d.pos(root), At: at}}
	if f, ok := d.mapping(root, "", "an action: a mapping with one verb ("+verbList+")", Verbs()); ok {
		d.verb(&pa, f, root, "")
		d.checkAction(sp, pa, false)
	}
	if err := d.errs.err(); err != nil {
		return Action{}, err
	}
	return pa.Action, nil
}
