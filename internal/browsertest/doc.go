// Package browsertest starts a headless Chromium for tests that drive a
// real browser (chromedp), and collects what the page writes to its
// console. A test without Chromium skips with a message that says how to
// install it, except in CI (CI=true), where it fails: CI must not skip.
package browsertest
