package scenarios

import (
	"context"
	"slices"
)

// Verb is what an action does: one type per verb, each in its own file (verb_takeport.go
// holds TakePort), which knows the verb's name, how to decode and check it, how Marshal writes
// it and how it acts on a running simulation through a World. Action.Verb holds a pointer to
// one (*TakePort).
//
// Only this package's types implement Verb (decode and args are unexported): the loader has
// to know every verb to decode it, so the set is closed, and verbs below lists it.
type Verb interface {
	// Name is the verb as scenario files write it: "takePort".
	Name() string
	// Apply performs the verb on a running simulation. An error (deleting what is not there,
	// stopping a kubelet that is not running) fails the action, not the run.
	Apply(ctx context.Context, w World) error

	// decode reads the verb's value (vd.fl) into the verb, reports every problem in it, and
	// notes with vd what the action acts on (a node, an informer, the leader), which the
	// loader then checks against the rest of the spec. It returns false when the value is
	// wrong: the action is then not checked further.
	decode(vd *verbDecoder) bool
	// args is the verb's value as Marshal writes it, every default written out.
	args() (any, error)
}

// verbs is the verb table: every verb, in the order the documentation presents them and
// error messages list them. A new verb is a file of its own and a line here.
var verbs = []verbKind{
	kind[Create](), kind[Update](), kind[Delete](), kind[BreakWatches](), kind[RestartAPIServer](),
	kind[AddHandler](), kind[HangHandler](), kind[KillLeader](), kind[BlockLeaderLock](),
	kind[StopKubelet](), kind[StartKubelet](), kind[SetImageFSUsage](), kind[InjectOOM](), kind[TakePort](),
}

// verbKind is one row of the verb table: a verb's name, and how to make an empty one of its
// type to decode into.
type verbKind struct {
	name string
	new  func() Verb
}

// kind is the row of the verb type T (implemented by *T).
func kind[T any, P interface {
	*T
	Verb
}]() verbKind {
	return verbKind{name: P(new(T)).Name(), new: func() Verb { return P(new(T)) }}
}

// lookupVerb returns the row of the verb written name.
func lookupVerb(name string) (verbKind, bool) {
	i := slices.IndexFunc(verbs, func(k verbKind) bool { return k.name == name })
	if i < 0 {
		return verbKind{}, false
	}
	return verbs[i], true
}

// Verbs lists every action verb, in the order the documentation presents them.
func Verbs() []string {
	names := make([]string, len(verbs))
	for i, k := range verbs {
		names[i] = k.name
	}
	return names
}
