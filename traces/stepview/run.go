package stepview

import (
	"context"
	"errors"
	"io"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// Run shows m full screen on out, reading keys from in, until q or Ctrl-C,
// or until ctx ends. in and out are normally the terminal (os.Stdin and
// os.Stdout); colours follow what out supports.
func Run(ctx context.Context, m Model, in io.Reader, out io.Writer) error {
	m = m.WithRenderer(lipgloss.NewRenderer(out))
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out), tea.WithAltScreen())
	_, err := p.Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil // interrupted from outside: a normal way to stop watching
	}
	return err
}
