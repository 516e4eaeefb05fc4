package stepview

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/kubeloom/kubeloom/internal/printable"
	"github.com/kubeloom/kubeloom/sim/catalog/locale"
)

// defaultWidth is the width drawn before the terminal reports its size.
const defaultWidth = 100

type styles struct {
	title, dim, heading, current, started, stopped, status, instance lipgloss.Style
}

// newStyles uses the 16 ANSI colours, which every terminal theme adapts
// to light and dark backgrounds: an adaptive colour would make lipgloss ask
// the terminal for its background while bubbletea reads the keys.
func newStyles(r *lipgloss.Renderer) *styles {
	return &styles{
		title:    r.NewStyle().Bold(true),
		dim:      r.NewStyle().Faint(true),
		heading:  r.NewStyle().Bold(true).Foreground(lipgloss.Color("4")),
		current:  r.NewStyle().Reverse(true).Bold(true),
		started:  r.NewStyle().Foreground(lipgloss.Color("2")),
		stopped:  r.NewStyle().Faint(true),
		status:   r.NewStyle().Foreground(lipgloss.Color("3")),
		instance: r.NewStyle().Bold(true).Underline(true),
	}
}

// View draws the title line, the goroutine tree beside the current step's
// story, and a line for messages and prompts above the keys' help.
func (m Model) View() string {
	w := wordsOf(m.lang)
	width, treeW, storyW, body := m.layout()

	s := m.Step()
	title := fmt.Sprintf("kubeloom step · %s · %s · +%s / %s · %s", printable.String(m.d.tl.Scenario), w.f("step", locale.Args{"i": m.cur + 1, "n": len(m.d.steps)}),
		formatOffset(m.d.tl.Offset(s.At)), formatOffset(m.d.tl.Duration()), w.l.Short)

	tree := m.treeLines(treeW, body)
	story := m.storyLines(storyW)
	if body > 0 {
		story = story[min(m.scroll, len(story)):]
		if len(story) > body {
			story = append(story[:body-1], m.st.dim.Render("↓ …"))
		}
	}
	rows := max(len(tree), len(story), body)

	var b strings.Builder
	b.WriteString(m.st.title.Render(ansi.Truncate(title, width, "…")) + "\n")
	for r := 0; r < rows; r++ {
		var l, rt string
		if r < len(tree) {
			l = tree[r]
		}
		if r < len(story) {
			rt = story[r]
		}
		pad := max(treeW-lipgloss.Width(l), 0)
		b.WriteString(strings.TrimRight(l+strings.Repeat(" ", pad)+" │ "+rt, " ") + "\n")
	}
	switch m.prompt {
	case jumpPrompt:
		b.WriteString(promptLine(w.t("jumpPrompt")+printable.String(m.input)+"█", width) + "\n")
	case searchPrompt:
		b.WriteString(promptLine(w.t("searchPrompt")+printable.String(m.input)+"█", width) + "\n")
	default:
		b.WriteString(m.st.status.Render(ansi.Truncate(m.status, width, "…")) + "\n")
	}
	help := w.f("help", locale.Args{"next": w.l.Next().Name})
	b.WriteString(m.st.dim.Render(ansi.Truncate(help, width, "…")))
	return b.String()
}

// layout returns the width of the screen, of the tree and of the story,
// and the rows of both panes (0: as many as they need).
func (m Model) layout() (width, treeW, storyW, body int) {
	width = m.width
	if width <= 0 {
		width = defaultWidth
	}
	// As wide as the longest line of the tree, up to half the screen; on
	// a narrow screen the story keeps 20 cells while the tree keeps 10.
	treeW = min(max(m.d.treeWidth(), 24), width/2)
	storyW = width - treeW - 3
	if storyW < 20 {
		treeW = max(width-3-20, min(10, treeW))
		storyW = max(width-treeW-3, 1)
	}
	if m.height > 0 {
		body = max(m.height-3, 3)
	}
	return width, treeW, storyW, body
}

// maxScroll returns how far the story can scroll: 0 when it fits.
func (m Model) maxScroll() int {
	_, _, storyW, body := m.layout()
	if body == 0 {
		return 0
	}
	return max(len(m.storyLines(storyW))-body+1, 0)
}

// treeLines draws the goroutines that have appeared by the current step,
// nested under the goroutine whose code started them, grouped by instance;
// with rows > 0 only a window of rows lines around the current goroutine.
func (m Model) treeLines(width, rows int) []string {
	cur := m.d.lane[m.Step().Lane]
	var lines []string
	at := 0
	for _, in := range m.d.tree {
		header := false
		for _, n := range in.nodes {
			st := m.d.status(n.lane, m.cur)
			if st == notYet {
				continue
			}
			if !header {
				lines = append(lines, m.st.instance.Render(ansi.Truncate(in.name, width, "…")))
				header = true
			}
			glyph, style := "●", lipgloss.Style{}
			switch st {
			case started:
				glyph, style = "▶", m.st.started
			case stopped:
				glyph, style = "■", m.st.stopped
			}
			label := m.d.label[n.lane]
			mark := " "
			if n.lane == cur {
				mark, style = "›", m.st.current
				at = len(lines)
			}
			prefix := mark + strings.Repeat("  ", n.depth) + glyph + " "
			text := prefix + truncateMiddle(label, width-lipgloss.Width(prefix))
			lines = append(lines, style.Render(ansi.Truncate(text, width, "…")))
		}
	}
	lines = append(lines, "", m.st.dim.Render(ansi.Truncate(wordsOf(m.lang).t("legend"), width, "…")))
	if rows <= 0 || len(lines) <= rows {
		return lines
	}
	start := min(max(at-rows/2, 0), len(lines)-rows)
	win := append([]string(nil), lines[start:start+rows]...)
	if start > 0 {
		win[0] = m.st.dim.Render(fmt.Sprintf("  ↑ %d", start))
	}
	if end := start + rows; end < len(lines) {
		win[rows-1] = m.st.dim.Render(fmt.Sprintf("  ↓ %d", len(lines)-end))
	}
	return win
}

// storyLines draws the current step's story wrapped to width.
func (m Model) storyLines(width int) []string {
	st := m.d.tell(m.cur, m.lang)
	var lines []string
	add := func(text string, indent int, style lipgloss.Style) {
		for _, l := range Wrap(text, width-indent) {
			lines = append(lines, strings.Repeat(" ", indent)+style.Render(l))
		}
	}
	add(st.where, 0, m.st.dim)
	add(st.title, 0, m.st.title)
	for _, f := range st.facts {
		add(f, 2, lipgloss.Style{})
	}
	for _, sec := range st.sections {
		lines = append(lines, "")
		add(sec.heading, 0, m.st.heading)
		for _, l := range sec.lines {
			add(l, 2, lipgloss.Style{})
		}
	}
	return lines
}

// truncateMiddle shortens s to width cells by cutting out its middle,
// which keeps both the goroutine's name and the qualifiers that tell
// lanes of the same name apart ("informer/listener-run…handler-2").
func truncateMiddle(s string, width int) string {
	if ansi.StringWidth(s) <= width {
		return s
	}
	if width < 8 {
		return ansi.Truncate(s, width, "…")
	}
	tail := (width - 1) / 2
	head := width - 1 - tail
	return ansi.Truncate(s, head, "") + "…" + lastCells(s, tail)
}

// promptLine fits a prompt and what has been typed to the width: when it
// is too long, its start gives way to the end, where the typing is.
func promptLine(s string, width int) string {
	if ansi.StringWidth(s) <= width {
		return s
	}
	return "…" + lastCells(s, width-1)
}

// lastCells is the end of s at most n cells wide, cut between characters
// (ansi.TruncateLeft keeps a wide one the cut goes through).
func lastCells(s string, n int) string {
	var starts, widths []int
	for i, state := 0, -1; i < len(s); {
		var c string
		c, _, _, state = ansi.FirstGraphemeCluster(s[i:], state)
		starts, widths = append(starts, i), append(widths, ansi.StringWidth(c))
		i += len(c)
	}
	from, w := len(s), 0
	for k := len(starts) - 1; k >= 0 && w+widths[k] <= n; k-- {
		from, w = starts[k], w+widths[k]
	}
	return s[from:]
}

// treeWidth returns the columns the widest line of the tree needs.
func (d *data) treeWidth() int {
	w := 0
	for _, t := range d.tree {
		w = max(w, ansi.StringWidth(t.name))
		for _, n := range t.nodes {
			w = max(w, 3+2*n.depth+ansi.StringWidth(d.label[n.lane]))
		}
	}
	return w
}

// A tree is the goroutines of one instance in the order the view lists
// them: each one followed by those it started.
type tree struct {
	name  string
	nodes []treeNode
}

type treeNode struct {
	lane, depth int
}

// buildTree orders the lanes of each instance depth first.
func (d *data) buildTree() []tree {
	var out []tree
	children := map[int][]int{}
	for li, p := range d.parent {
		if p >= 0 {
			children[p] = append(children[p], li)
		}
	}
	for _, in := range d.tl.Instances {
		t := tree{name: printable.String(in.Name())}
		var walk func(li, depth int)
		walk = func(li, depth int) {
			t.nodes = append(t.nodes, treeNode{li, depth})
			for _, c := range children[li] {
				walk(c, depth+1)
			}
		}
		for _, l := range in.Lanes {
			if li := d.lane[l]; d.parent[li] < 0 {
				walk(li, 0)
			}
		}
		out = append(out, t)
	}
	return out
}
