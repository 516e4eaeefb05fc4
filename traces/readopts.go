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

	// chunkSize is how many bytes of the file one goroutine parses at a
	// time; 0 is defaultChunkSize. Tests make it small, so that a small
	// file is read in many chunks on several goroutines.
	chunkSize int
	// maxLine is the longest line read; 0 is maxLineLength. Tests make
	// it small, so that a long line takes kilobytes, not megabytes.
	maxLine int
}

// lineLimit is the longest line opt reads.
func (opt ReadOptions) lineLimit() int {
	if opt.maxLine > 0 {
		return opt.maxLine
	}
	return maxLineLength
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
