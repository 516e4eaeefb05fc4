package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// EnvChromium names a Chrome or Chromium binary to use instead of the one
// found on PATH.
const EnvChromium = "KUBELOOM_CHROMIUM"

// binaries are the names Chromium goes by, in the order they are tried.
var binaries = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"}

// Path returns the Chromium binary: $KUBELOOM_CHROMIUM, or the first of
// chromium, chromium-browser, google-chrome, ... on PATH. When there is
// none it skips tb, or fails it when CI=true.
func Path(tb testing.TB) string {
	tb.Helper()
	if p := os.Getenv(EnvChromium); p != "" {
		return p
	}
	for _, name := range binaries {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "Chromium is not installed, so the browser test cannot run: install it " +
		"(Debian/Ubuntu: apt-get install -y chromium) or set " + EnvChromium + " to a Chrome binary"
	if os.Getenv("CI") == "true" {
		tb.Fatal(msg + " (CI=true: browser tests must not be skipped)")
	} else {
		tb.Skip(msg)
	}
	return ""
}

// Browser is a headless Chromium with one tab.
type Browser struct {
	// Ctx is the tab's chromedp context; it ends when the test does.
	Ctx context.Context

	mu       sync.Mutex
	messages []chromedp.ConsoleMessage
	changed  chan struct{} // closed and replaced when a message arrives
	done     chan struct{} // closed when the console ends
	flushes  int
}

// Options of Start.
type Options struct {
	Width, Height int // the window, default 1400×900
}

// Start launches Chromium headless, with the flags that work in a container
// (no sandbox, no GPU, nothing that reaches the network on its own) and a
// fresh profile, opens a tab and starts collecting its console. Everything
// stops when tb ends.
func Start(tb testing.TB, o Options) *Browser {
	tb.Helper()
	path := Path(tb)
	if o.Width == 0 {
		o.Width, o.Height = 1400, 900
	}
	profile, err := os.MkdirTemp("", "kubeloom-chromium-")
	if err != nil {
		tb.Fatalf("failed to make a Chromium profile directory: %v", err)
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(o.Width, o.Height),
	)
	ctx, cancelTab := chromedp.NewContext(actx)
	b := &Browser{Ctx: ctx, changed: make(chan struct{}), done: make(chan struct{})}

	// The first Do starts the browser; the console is collected from then on.
	if err := chromedp.Do(ctx); err != nil {
		cancelTab()
		cancelAlloc()
		os.RemoveAll(profile)
		tb.Fatalf("failed to start Chromium (%s): %v", path, err)
	}
	messages := chromedp.Console(ctx)
	go func() {
		defer close(b.done)
		for m, err := range messages {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.messages = append(b.messages, m)
			close(b.changed)
			b.changed = make(chan struct{})
			b.mu.Unlock()
		}
	}()
	tb.Cleanup(func() {
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		_ = chromedp.Cancel(cctx) // closes the tab and, as it owns it, the browser
		cancelTab()
		cancelAlloc()
		<-b.done
		os.RemoveAll(profile)
	})
	return b
}

// Flush waits until every console message the page wrote so far has been
// collected: it writes a marker to the console and waits for it.
func (b *Browser) Flush(tb testing.TB) {
	tb.Helper()
	b.mu.Lock()
	b.flushes++
	marker := fmt.Sprintf("browsertest: flush %d", b.flushes)
	b.mu.Unlock()
	if _, err := chromedp.Run(b.Ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf("console.debug(%q)", marker))); err != nil {
		tb.Fatalf("failed to write to the console: %v", err)
	}
	timeout := time.NewTimer(10 * time.Second)
	defer timeout.Stop()
	for {
		b.mu.Lock()
		seen := slices.ContainsFunc(b.messages, func(m chromedp.ConsoleMessage) bool { return m.Text == marker })
		changed := b.changed
		b.mu.Unlock()
		if seen {
			return
		}
		select {
		case <-changed:
		case <-b.done:
			tb.Fatal("the console ended before the flush marker arrived")
		case <-timeout.C:
			tb.Fatal("the console did not deliver the flush marker within 10s")
		}
	}
}

// Problems flushes the console and returns the messages that say something
// went wrong: errors, uncaught exceptions and error entries of the browser
// log (a resource that failed to load, a Content-Security-Policy violation).
func (b *Browser) Problems(tb testing.TB) []string {
	tb.Helper()
	b.Flush(tb)
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, m := range b.messages {
		if m.IsException() || m.Type == chromedp.ConsoleError {
			s := m.String()
			if m.URL != "" {
				s += " (" + m.URL + ")"
			}
			out = append(out, s)
		}
	}
	return out
}

// Messages returns every console message so far, as text.
func (b *Browser) Messages() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]string, 0, len(b.messages))
	for _, m := range b.messages {
		out = append(out, m.String())
	}
	return slices.Clip(out)
}
