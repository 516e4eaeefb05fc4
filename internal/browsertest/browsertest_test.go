package browsertest

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestProblems checks that what a broken page writes reaches Problems:
// a console.error, an uncaught exception, and nothing from console.log.
func TestProblems(t *testing.T) {
	b := Start(t, Options{Width: 800, Height: 600})
	page := "data:text/html," + url.PathEscape(`<!DOCTYPE html><title>broken</title><script>
console.log("fine");
console.error("something broke");
setTimeout(() => { window.thrown = true; throw new Error("boom"); });
</script>`)
	if err := chromedp.Do(b.Ctx, chromedp.Navigate(page)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(b.Ctx, chromedp.Poll[bool](`window.thrown === true`)); err != nil {
		t.Fatal(err)
	}
	got := b.Problems(t)
	if len(got) != 2 || !strings.Contains(got[0], "something broke") || !strings.Contains(got[1], "boom") {
		t.Errorf("Problems() = %q, want the console.error and the exception", got)
	}
	if !slices.ContainsFunc(b.Messages(), func(m string) bool { return strings.Contains(m, "fine") }) {
		t.Errorf("Messages() = %q, want the console.log too", b.Messages())
	}
}

// recorder is a testing.TB that records Skip and Fatal instead of ending
// the test.
type recorder struct {
	testing.TB
	skipped, fatal string
}

func (r *recorder) Skip(args ...any)  { r.skipped = fmt.Sprint(args...) }
func (r *recorder) Fatal(args ...any) { r.fatal = fmt.Sprint(args...) }

// TestPathMissing checks what happens without Chromium: a skip that says
// how to install it, and in CI a failure.
func TestPathMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv(EnvChromium, "")
	for _, ci := range []string{"", "true"} {
		t.Setenv("CI", ci)
		r := &recorder{TB: t}
		Path(r)
		msg, other := r.skipped, r.fatal
		if ci == "true" {
			msg, other = r.fatal, r.skipped
		}
		if !strings.Contains(msg, "apt-get install -y chromium") || other != "" {
			t.Errorf("CI=%q: skipped %q, failed %q; want one of them to say how to install Chromium", ci, r.skipped, r.fatal)
		}
	}
}
