package termview

// glyphs are the characters of one output style. Layers are drawn in
// increasing rank; a higher rank wins a cell.
type glyphs struct {
	line, start, end, open, short rune // lifetime
	busy                          rune // an iteration still running
	call, action, event           rune
	iter, few, many               rune   // one iteration in a cell; 2-4; 5 or more
	folded, unfolded              string // before a group's name
	rule, tick                    rune   // axis
	ellipsis                      string
	approx                        string
	sep                           string // between title fields
}

var unicodeGlyphs = glyphs{
	line: '─', start: '├', end: '┤', open: '→', short: '▪',
	busy: '━', call: '·', action: '◆', event: '•',
	iter: '│', few: '┃', many: '█', rule: '─', tick: '┼',
	folded: "▸", unfolded: "▾",
	ellipsis: "…", approx: "≈", sep: " · ",
}

var asciiGlyphs = glyphs{
	line: '-', start: '[', end: ']', open: '>', short: 'o',
	busy: '=', call: '.', action: '@', event: '*',
	iter: '|', few: '!', many: '#', rule: '-', tick: '+',
	folded: "+", unfolded: "-",
	ellipsis: "~", approx: "~", sep: " | ",
}

// Ranks of the layers of a lane row, lowest first.
const (
	rankLine = iota + 1
	rankBusy
	rankCap
	rankCall
	rankIteration
	rankEvent
	rankAction
)
