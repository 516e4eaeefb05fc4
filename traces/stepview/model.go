package stepview

import (
	"errors"
	"io"
	"strconv"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/kubeloom/kubeloom/internal/printable"
	"github.com/kubeloom/kubeloom/sim/catalog/locale"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// Options configure a Model.
type Options struct {
	// Lang is the language of the narrative, a code of locale.Codes:
	// English ("en", the default), Chinese ("zh"), …. The l key goes
	// through them in turn.
	Lang string
	// From and To limit the steps to a window of simulated time, as
	// offsets from the start of the recording; To 0 means the end.
	From, To time.Duration
	// Spans are the recording the timeline was built from. They give the
	// causal links the f key follows and the nesting of the goroutine
	// tree; without them f follows object keys only and the tree is flat.
	Spans []traces.Span
	// Against, if not nil, is a recording each step is compared with: the
	// story says whether it has the same step, and when.
	Against *Against
	// Width and Height are the terminal's size until the program reports
	// it; a Height of 0 draws everything without scrolling.
	Width, Height int
}

// Model is the interactive step-through of one recording, a bubbletea
// Model: Update moves through the steps as keys arrive, View draws the
// goroutine tree beside the current step's story. It is a value; Update
// returns the changed copy.
type Model struct {
	d      *data
	lo, hi int // the window of steps the keys move in
	cur    int
	lang   string

	width, height int
	scroll        int // lines of the story scrolled off the top

	prompt     prompt
	input      string
	lastSearch string
	status     string

	st *styles
}

// prompt is what the bottom line is asking for, if anything.
type prompt int

const (
	noPrompt prompt = iota
	jumpPrompt
	searchPrompt
)

// New returns the step-through of tl at its first step (the first at or
// after o.From).
func New(tl *timeline.Timeline, o Options) (Model, error) {
	if tl == nil {
		return Model{}, errors.New("stepview: no timeline")
	}
	lang, err := checkLang(o.Lang)
	if err != nil {
		return Model{}, err
	}
	d := newData(tl, o.Spans)
	if err := d.compare(o.Against); err != nil {
		return Model{}, err
	}
	lo, hi, err := d.window(o.From, o.To)
	if err != nil {
		return Model{}, err
	}
	return Model{d: d, lo: lo, hi: hi, cur: lo, lang: lang, width: o.Width, height: o.Height,
		st: newStyles(lipgloss.NewRenderer(io.Discard))}, nil
}

// WithRenderer returns m drawing with r's colour profile, as the program
// showing it on a terminal does; a new Model draws without colours.
func (m Model) WithRenderer(r *lipgloss.Renderer) Model {
	m.st = newStyles(r)
	return m
}

// Step returns the current step.
func (m Model) Step() timeline.Step { return m.d.steps[m.cur] }

// Index returns the index of the current step in timeline.Steps of the timeline.
func (m Model) Index() int { return m.cur }

// Lang returns the language of the narrative, a code of locale.Codes.
func (m Model) Lang() string { return m.lang }

// Status returns the message of the last key (a search that found nothing,
// where f led), "" if none.
func (m Model) Status() string { return m.status }

// Init starts nothing: the model waits for keys.
func (m Model) Init() tea.Cmd { return nil }

// Update handles a key or a change of the terminal's size.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.KeyMsg:
		if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste {
			// Keys typed faster than the program reads arrive together:
			// take them one at a time, as if typed slowly.
			var next tea.Model = m
			for _, r := range msg.Runes {
				var cmd tea.Cmd
				if next, cmd = next.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt}); cmd != nil {
					return next, cmd // only tea.Quit
				}
			}
			return next, nil
		}
		if m.prompt != noPrompt {
			return m.typed(msg)
		}
		return m.key(msg)
	}
	return m, nil
}

// key handles a key outside a prompt.
func (m Model) key(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	w := wordsOf(m.lang)
	m.status = ""
	switch k.String() {
	case "q", "ctrl+c":
		return m, tea.Quit
	case "n", "right", " ", "enter":
		if m.cur < m.hi {
			m.goTo(m.cur + 1)
		} else {
			m.status = w.t("last")
		}
	case "p", "left", "backspace":
		if m.cur > m.lo {
			m.goTo(m.cur - 1)
		} else {
			m.status = w.t("first")
		}
	case "home":
		m.goTo(m.lo)
	case "end":
		m.goTo(m.hi)
	case "down", "j":
		m.scroll = min(m.scroll+1, m.maxScroll())
	case "up", "k":
		m.scroll = max(0, m.scroll-1)
	case "g":
		m.prompt, m.input = jumpPrompt, ""
	case "/":
		m.prompt, m.input = searchPrompt, ""
	case "f":
		m.followKey()
	case "l":
		m.lang = locale.Get(m.lang).Next().Code
		m.status = wordsOf(m.lang).t("language")
	}
	return m, nil
}

// typed handles a key while the bottom line asks for a time or a name.
func (m Model) typed(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	switch k.Type {
	case tea.KeyCtrlC:
		return m, tea.Quit
	case tea.KeyEsc:
		m.prompt, m.input = noPrompt, ""
	case tea.KeyEnter:
		p, in := m.prompt, m.input
		m.prompt, m.input = noPrompt, ""
		if p == jumpPrompt {
			m.jump(in)
		} else {
			m.searchFor(in)
		}
	case tea.KeyBackspace:
		if r := []rune(m.input); len(r) > 0 {
			m.input = string(r[:len(r)-1])
		}
	case tea.KeySpace:
		m.input += " "
	case tea.KeyRunes:
		m.input += string(k.Runes)
	}
	return m, nil
}

func (m *Model) goTo(i int) {
	m.cur = i
	m.scroll = 0
}

func (m *Model) jump(in string) {
	w := wordsOf(m.lang)
	off, err := parseOffset(in)
	if err != nil {
		m.status = printable.String(err.Error()) // it quotes what was typed
		return
	}
	i, ok := m.d.at(off, m.lo, m.hi)
	m.goTo(i)
	if !ok {
		m.status = w.f("pastEnd", locale.Args{"at": formatOffset(off), "last": formatOffset(m.d.tl.Offset(m.d.steps[m.hi].At))})
	}
}

func (m *Model) searchFor(in string) {
	w := wordsOf(m.lang)
	if in == "" {
		in = m.lastSearch
	}
	match, err := matcher(in)
	if err != nil {
		m.status = printable.String(err.Error())
		return
	}
	m.lastSearch = in
	i, wrapped, ok := m.d.search(match, m.cur, m.lo, m.hi)
	switch {
	case !ok:
		m.status = w.f("noMatch", locale.Args{"pattern": strconv.Quote(in)})
	case wrapped:
		m.status = w.f("wrapped", locale.Args{"pattern": printable.String(in)})
	}
	m.goTo(i)
}

func (m *Model) followKey() {
	w := wordsOf(m.lang)
	i, key, found, can := m.d.follow(m.cur, m.hi)
	// The status line shows names from the recording: made printable.
	what := printable.String(key)
	if what == "" {
		what = w.f("link", locale.Args{"step": printable.String(m.d.steps[m.cur].Name())})
	}
	switch {
	case found:
		m.status = w.f("followed", locale.Args{"what": what, "step": printable.String(m.d.steps[i].Name()), "lane": m.d.label[m.d.lane[m.d.steps[i].Lane]]})
		m.goTo(i)
	case can:
		m.status = w.f("followEnd", locale.Args{"what": what})
	default:
		m.status = w.t("noFollow")
	}
}
