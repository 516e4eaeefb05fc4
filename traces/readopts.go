package traces

// ReadOptions say what of each span ReadWith keeps. The zero value keeps
// everything, as Read does.
//
// A reader that needs little of a big recording saves the memory the
// rest would take: on the machines kubeloom runs on, fresh memory costs
// time too (docs/design.md, "Big recordings"). What is left out is still
// read: a line that Read reports as bad, ReadWith reports too.
type ReadOptions struct {
	// Attributes, if not nil, are the only attribute keys kept in spans'
	// and links' attributes; a span or link with none of them has nil
	// Attributes. Resources are kept whole.
	Attributes []string
	// NoEvents leaves out the spans' events.
	NoEvents bool
}

// keeper is ReadOptions as the parsers use them.
type keeper struct {
	keys     map[string]bool // the attribute keys kept; nil: all
	noEvents bool
}

func newKeeper(opt ReadOptions) keeper {
	k := keeper{noEvents: opt.NoEvents}
	if opt.Attributes != nil {
		k.keys = make(map[string]bool, len(opt.Attributes))
		for _, key := range opt.Attributes {
			k.keys[key] = true
		}
	}
	return k
}

// dropAll is the keeper of the attributes of left-out events: none.
var dropAll = map[string]bool{}

func (k keeper) keeps(key string) bool { return k.keys == nil || k.keys[key] }

// trim leaves out of a span that parseLine read what the keeper does not keep.
func (k keeper) trim(s *Span) {
	if k.noEvents {
		s.Events = nil
	}
	if k.keys == nil {
		return
	}
	s.Attributes = k.attributes(s.Attributes)
	for i := range s.Links {
		s.Links[i].Attributes = k.attributes(s.Links[i].Attributes)
	}
	for i := range s.Events {
		s.Events[i].Attributes = k.attributes(s.Events[i].Attributes)
	}
}

func (k keeper) attributes(a Attributes) Attributes {
	var kept Attributes
	for key, v := range a {
		if k.keys[key] {
			if kept == nil {
				kept = Attributes{}
			}
			kept[key] = v
		}
	}
	return kept
}
