package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestNewServeCmd(t *testing.T) {
	def := serveOptions{addr: "127.0.0.1:0", dir: "recordings", lang: "en"}
	checkFlags(t, newServeCmd, deps{}, []flagCase[serveOptions]{
		{name: "defaults", want: def},
		{name: "a class on the network", args: []string{"--addr", "0.0.0.0:8080", "--lang", "zh", "--open"},
			want: serveOptions{addr: "0.0.0.0:8080", dir: "recordings", lang: "zh", open: true}},
		{name: "compressed, elsewhere", args: []string{"--dir", "lesson", "--zst", "--allow-host-manifests"},
			want: serveOptions{addr: "127.0.0.1:0", dir: "lesson", lang: "en", compress: true, allowHostManifests: true}},
		{name: "no port", args: []string{"--addr", "127.0.0.1"}, err: "--addr 127.0.0.1: expected host:port, such as 127.0.0.1:8080 (port 0: a free one)"},
		{name: "an argument", args: []string{"cm-startup"}, err: `unknown command "cm-startup" for "serve"`},
		{name: "an unknown language", args: []string{"--lang", "qaa"}, err: `invalid argument "qaa" for "--lang" flag: unknown language "qaa": expected en (English) or zh (中文)`},
	})
}

// serveUntilReady runs runServe until the test ends and returns the control
// URL it printed, with what it wrote.
func serveUntilReady(t *testing.T, o *serveOptions) (control string, out, errOut *bytes.Buffer, stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, errOut = &bytes.Buffer{}, &bytes.Buffer{}
	o.io, o.ctx = streams{out: out, err: errOut}, ctx
	if o.dir == "" {
		o.dir = t.TempDir()
	}
	ready := make(chan string, 1)
	o.ready = func(u string) { ready <- u }
	done := make(chan error, 1)
	go func() { done <- runServe(o) }()
	select {
	case control = <-ready:
	case err := <-done:
		cancel()
		t.Fatalf("serve ended before it was ready: %v\n%s", err, errOut)
	}
	var once bool
	stop = func() error {
		if once {
			return nil
		}
		once = true
		cancel()
		return <-done
	}
	t.Cleanup(func() { stop() })
	return control, out, errOut, stop
}

func TestServePrintsItsURLs(t *testing.T) {
	control, out, errOut, stop := serveUntilReady(t, &serveOptions{addr: "127.0.0.1:0", lang: "en"})
	base, token, ok := strings.Cut(control, "#token=")
	if !ok || !strings.HasPrefix(base, "http://127.0.0.1:") || len(token) < 40 {
		t.Fatalf("control URL %q, want http://127.0.0.1:PORT/#token=TOKEN", control)
	}
	if !strings.Contains(out.String(), control) || !strings.Contains(out.String(), "viewers open "+base+"\n") {
		t.Errorf("printed:\n%s\nwant the control URL and the viewers' %s", out, base)
	}
	if strings.Contains(errOut.String(), "warning") {
		t.Errorf("a warning on loopback: %s", errOut)
	}
	resp, err := http.Get(base)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Contains(page, []byte("/assets/serve.js")) {
		t.Errorf("GET %s: %d %.200s", base, resp.StatusCode, page)
	}
	req, _ := http.NewRequest("POST", base+"api/token", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Errorf("the printed token is refused: %d", resp.StatusCode)
	}
	if err := stop(); err != nil {
		t.Errorf("serve after Ctrl-C: %v", err)
	}
}

func TestServeWarnsOffLoopback(t *testing.T) {
	control, out, errOut, _ := serveUntilReady(t, &serveOptions{addr: "0.0.0.0:0", lang: "en"})
	if !strings.HasPrefix(control, "http://127.0.0.1:") {
		t.Errorf("control URL %q: on every interface, this machine's browser opens loopback", control)
	}
	if !strings.Contains(errOut.String(), "warning: listening on 0.0.0.0:") || !strings.Contains(errOut.String(), "anyone who can reach it can watch") {
		t.Errorf("no warning off loopback:\n%s", errOut)
	}
	if !strings.Contains(out.String(), "viewers open http://<this machine's address>:") {
		t.Errorf("printed:\n%s", out)
	}
}

func TestServeOpen(t *testing.T) {
	var opened string
	control, _, _, _ := serveUntilReady(t, &serveOptions{addr: "127.0.0.1:0", open: true, opener: func(u string) error { opened = u; return nil }})
	if opened != control {
		t.Errorf("--open opened %q, want the control URL %q", opened, control)
	}
	_, _, errOut, _ := serveUntilReady(t, &serveOptions{addr: "127.0.0.1:0", open: true, opener: func(string) error { return errNoOpener }})
	if !strings.Contains(errOut.String(), "could not open a browser (no xdg-open or open here): open the URL above yourself") {
		t.Errorf("--open without an opener: %q", errOut)
	}
}

func TestServeAddrInUse(t *testing.T) {
	control, _, _, _ := serveUntilReady(t, &serveOptions{addr: "127.0.0.1:0"})
	addr := strings.TrimSuffix(strings.TrimPrefix(strings.SplitN(control, "#", 2)[0], "http://"), "/")
	err := runServe(&serveOptions{io: streams{out: io.Discard, err: io.Discard}, ctx: context.Background(), addr: addr, dir: t.TempDir()})
	if err == nil || !strings.HasPrefix(err.Error(), "--addr "+addr+":") {
		t.Errorf("a port in use: %v", err)
	}
}
