package termview

// glyphs are the characters of one output style. Layers are drawn in
// increasing rank; a higher rank wins a cell.
type glyphs struct {
	line, start, end, open, short rune // lifetime
	busy                          rune // an iteration still running
	call, action, event           rune
	iter, many                    rune // one iteration; 10 or more in one cell
	rule, tick                    rune // axis
	ellipsis                      string
	approx                        string
	sep                           string // between title fields
}

var unicodeGlyphs = glyphs{
	line: '─', start: '├', end: '┤', open: '→', short: '▪',
	busy: '━', call: '·', action: '◆', event: '•',
	iter: '│', many: '+', rule: '─', tick: '┼',
	ellipsis: "…", approx: "≈", sep: " · ",
}

var asciiGlyphs = glyphs{
	line: '-', start: '[', end: ']', open: '>', short: 'o',
	busy: '=', call: '.', action: '@', event: '*',
	iter: '|', many: '+', rule: '-', tick: '+',
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
