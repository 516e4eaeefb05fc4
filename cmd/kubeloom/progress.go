package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"k8s.io/utils/clock"

	"github.com/kubeloom/kubeloom/internal/printable"
	"github.com/kubeloom/kubeloom/sim/engine"
)

// runPrinter is what `kubeloom run` prints while a run lasts, on the error
// stream: on a terminal, one status line redrawn from the run's Watch a few
// times a real second; elsewhere (a pipe, CI), a line per action. Warnings
// (a failed action) and the servers' addresses interrupt either.
//
// The run only hands it lines; its own goroutine, outside the run (outside
// its bubble in virtual time), writes them: a write to a terminal or a pipe
// is a system call, which could hand the run's processor to another
// goroutine at a moment the machine decides. So a run with progress is the
// same run as a quiet one.
type runPrinter struct {
	w       io.Writer
	live    bool // redraw a status line (a terminal, and not --quiet)
	quiet   bool
	virtual bool   // the servers are on the run's in-memory network
	prog    string // how the user called kubeloom

	mu           sync.Mutex
	lines        []string      // to print, in order
	wake         chan struct{} // the writer has lines to print
	lastAction   string
	status       bool // a status line is drawn and must be cleared first
	toldInMemory bool
}

// redraw is how often the status line is redrawn.
const redraw = 100 * time.Millisecond

// follow prints the run's lines, and on a terminal redraws the status line
// from watch, until the result is called; then the last lines are printed.
func (p *runPrinter) follow(watch *engine.Watch, clk clock.PassiveClock) (stop func()) {
	p.mu.Lock()
	p.wake = make(chan struct{}, 1)
	p.mu.Unlock()
	done := make(chan struct{})
	finished := make(chan struct{})
	start := clk.Now()
	go func() {
		defer close(finished)
		var tick <-chan time.Time
		if p.live {
			t := time.NewTicker(redraw)
			defer t.Stop()
			tick = t.C
		}
		for {
			select {
			case <-done:
				p.flush()
				p.clear()
				return
			case <-p.wake:
				p.flush()
			case <-tick:
				if s, ok := watch.Snapshot(); ok {
					p.draw(s, clk.Since(start))
				}
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// say queues a line, made printable (it quotes names from the scenario);
// safe from any goroutine, and it never waits.
func (p *runPrinter) say(line string) {
	line = printable.Text(line)
	p.mu.Lock()
	p.lines = append(p.lines, line)
	wake := p.wake
	p.mu.Unlock()
	select {
	case wake <- struct{}{}:
	default:
	}
}

// flush prints the queued lines, clearing the status line first.
func (p *runPrinter) flush() {
	p.mu.Lock()
	lines := p.lines
	p.lines = nil
	p.mu.Unlock()
	if len(lines) == 0 {
		return
	}
	p.clear()
	for _, l := range lines {
		fmt.Fprintln(p.w, l)
	}
}

// draw redraws the status line: where the run is, how fast simulated time
// goes (×N: simulated seconds per real second so far), what runs.
func (p *runPrinter) draw(s engine.Progress, real time.Duration) {
	last := ""
	if s.LastAction != "" {
		last = "  last: " + printable.String(s.LastAction)
	}
	fmt.Fprintf(p.w, "\r\x1b[K  %6.1fs / %s  %-8s goroutines %-5d spans %-8d%s", s.Elapsed.Seconds(), s.Duration, times(s.Elapsed, real), s.Goroutines, s.Spans, last)
	p.status = true
}

// clear removes the status line, if one is drawn.
func (p *runPrinter) clear() {
	if p.status {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.status = false
	}
}

// action is told of each action the run plays: off a terminal it prints a
// line for it.
func (p *runPrinter) action(s engine.Progress) {
	if p.live || p.quiet || s.LastAction == "" || s.LastAction == p.lastAction {
		return
	}
	p.lastAction = s.LastAction // the run's goroutine only
	p.say(fmt.Sprintf("  %6.1fs  %s  (goroutines %d, spans %d)", s.Elapsed.Seconds(), s.LastAction, s.Goroutines, s.Spans))
}

// failed warns of an action that failed.
func (p *runPrinter) failed(f engine.ActionFailure) { p.say(fmt.Sprintf("warning: %s", f)) }

// serving tells where an instance's HTTP server listens. In virtual time
// it is on the run's in-memory network, which nothing outside the run
// reaches: one line says so and how to reach the servers instead.
func (p *runPrinter) serving(instance, addr string, paths []string) {
	if !p.virtual {
		p.say(fmt.Sprintf("  %s serves http://%s  (%s)", instance, addr, strings.Join(paths, " ")))
		return
	}
	p.mu.Lock()
	told := p.toldInMemory
	p.toldInMemory = true
	p.mu.Unlock()
	if !told {
		p.say(fmt.Sprintf("  the servers (%s %s, …) answer on the run's in-memory network; '%s run … --live' serves them on 127.0.0.1",
			instance, strings.Join(paths, " "), p.prog))
	}
}

// times is simulated time over real time as "×2,900" (or "×60.0" below
// 100): the speed a run reached.
func times(simulated, real time.Duration) string {
	if real <= 0 || simulated <= 0 {
		return ""
	}
	x := simulated.Seconds() / real.Seconds()
	if x < 100 {
		return fmt.Sprintf("×%.1f", x)
	}
	return "×" + thousands(int64(x+0.5))
}

// thousands writes n with commas: 12,345.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// pace says how the run's time went, for the summary: "virtual time,
// ×2,900" or "live at speed 60x, ×59.8".
func pace(sum *engine.Summary, real time.Duration) string {
	reached := times(sum.Duration, real)
	if sum.Speed == 0 {
		return strings.TrimSuffix("virtual time, "+reached, ", ")
	}
	return strings.TrimSuffix(fmt.Sprintf("live at speed %gx, %s", sum.Speed, reached), ", ")
}

// roundReal rounds a real duration for the summary: to the millisecond
// (0.213s), as a run in virtual time takes well under a second.
func roundReal(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
