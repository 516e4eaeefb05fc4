package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/kubeloom/kubeloom/serve"
	"github.com/kubeloom/kubeloom/sim/catalog/locale"
)

// serveOptions are what `kubeloom serve` is told.
type serveOptions struct {
	io  streams
	ctx context.Context // the command's, done after SIGINT or SIGTERM
	network
	// opener opens a URL in a browser; nil is the platform's (openURL).
	opener func(url string) error
	// ready, if not nil, is told the control URL once the server listens
	// (tests).
	ready func(controlURL string)

	addr               string
	open               bool
	dir                string
	compress           bool
	lang               string
	allowHostManifests bool
}

// newServeCmd builds `kubeloom serve`; runF, if not nil, is called with the
// parsed options instead of runServe.
func newServeCmd(d deps, runF func(*serveOptions) error) *cobra.Command {
	o := &serveOptions{io: d.streams, network: d.network}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run scenarios live in the browser, for a class: play, pause, step, speed, and actions with a click",
		Long: `Start kubeloom's web application on this machine and print its URL. The page
lists the built-in scenarios (with what to watch for) and takes a scenario file,
pasted or uploaded; it runs the one you pick live, in virtual time paced to the
wall clock: play, pause, step to the next span, a speed from 1x to as fast as it
goes, and buttons that act on the cluster now (kill the leader, break watches,
stop a kubelet, ...), recorded like a scenario's own actions. The timeline is
the one of 'kubeloom export --format html', growing as spans end.

The URL printed first carries the session's control token (#token=...): the
browser that opens it may play, pause and act. The viewers' URL, without it,
only watches; many browsers may watch one session. By default the server listens
on 127.0.0.1 only; --addr 0.0.0.0:8080 lets students on the network watch (a
warning says so); control still needs the token.

Each session records as it runs to --dir/<scenario>-<UTC time>.jsonl (.zst with
--zst), a valid recording even if kubeloom stops; Ctrl-C ends the session, its
recording complete, and exits. The page downloads the recording, exports the run
as one HTML page, and opens a recording to replay it in place.`,
		Example: `  kubeloom serve --open
  kubeloom serve --addr 0.0.0.0:8080 --lang zh      # a class on the network watches
  kubeloom serve --dir lesson-recordings --zst`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, _, err := net.SplitHostPort(o.addr); err != nil {
				return fmt.Errorf("--addr %s: expected host:port, such as 127.0.0.1:8080 (port 0: a free one)", o.addr)
			}
			if runF != nil {
				return runF(o)
			}
			o.ctx = cmd.Context()
			return runServe(o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", "127.0.0.1:0", "address to listen on (port 0: a free one); anything but loopback lets the network watch")
	f.BoolVar(&o.open, "open", false, "open the control URL in a browser (xdg-open, open)")
	f.StringVar(&o.dir, "dir", "recordings", "folder of the sessions' recordings")
	f.BoolVar(&o.compress, "zst", false, "compress the recordings with zstd (.jsonl.zst)")
	addLangFlag(f, &o.lang, "the page's first language: "+locale.Choices())
	f.BoolVar(&o.allowHostManifests, "allow-host-manifests", false, allowHostManifestsHelp)
	return cmd
}

// runServe serves until ctx is done (Ctrl-C), then closes the session so
// that its recording is complete.
func runServe(o *serveOptions) error {
	ctx := cmp.Or(o.ctx, context.Background())
	stopsGracefully(ctx) // closing the session completes its recording
	listen := o.listen
	if listen == nil {
		listen = net.Listen
	}
	ln, err := listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("--addr %s: %w", o.addr, err)
	}
	loopback := serve.IsLoopback(ln.Addr().String())
	srv := serve.New(serve.Options{
		Dir: o.dir, Compress: o.compress, Lang: o.lang, AllowHostManifests: o.allowHostManifests, Loopback: loopback,
		Logf: func(format string, args ...any) { printf(o.io.err, format, args...) },
	})
	base := baseURL(ln.Addr())
	control := base + "#token=" + srv.Token()
	if !loopback {
		host, _, _ := net.SplitHostPort(o.addr)
		_, port, _ := net.SplitHostPort(ln.Addr().String())
		printf(o.io.err, "warning: listening on %s, not only on this machine: anyone who can reach it can watch the session (only the control URL can play, pause and act: keep it to yourself)\n", net.JoinHostPort(host, port))
	}
	printf(o.io.out, "kubeloom serve: open %s\n", control)
	printf(o.io.out, "  to control the session (keep this URL to yourself); viewers open %s\n", viewersURL(base, ln.Addr()))
	printf(o.io.out, "  recordings go to %s; Ctrl-C stops\n", o.dir)
	if o.open {
		opener := o.opener
		if opener == nil {
			opener = openURL
		}
		if err := opener(control); err != nil {
			printf(o.io.err, "could not open a browser (%v): open the URL above yourself\n", err)
		}
	}
	if o.ready != nil {
		o.ready(control)
	}
	return srv.Serve(ctx, ln)
}

// baseURL is the URL of the server for this machine's browser: an
// address of every interface is reached at loopback here.
func baseURL(addr net.Addr) string {
	host, port, _ := net.SplitHostPort(addr.String())
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}

// viewersURL is what viewers open: base, or for a server on every
// interface, the URL with this machine's address on the network in place
// of loopback.
func viewersURL(base string, addr net.Addr) string {
	host, port, _ := net.SplitHostPort(addr.String())
	if ip := net.ParseIP(host); ip == nil || !ip.IsUnspecified() {
		return base
	}
	return "http://" + net.JoinHostPort("<this machine's address>", port) + "/"
}

// errNoOpener says that this platform has no known way to open a URL.
var errNoOpener = errors.New("no xdg-open or open here")

// openURL opens url with the platform's opener: xdg-open (Linux and BSDs),
// open (macOS), rundll32's URL handler (Windows). It does not wait for the
// browser.
func openURL(url string) error {
	var name string
	var args []string
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "windows":
		name, args = "rundll32", []string{"url.dll,FileProtocolHandler"}
	default:
		name = "xdg-open"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return errNoOpener
	}
	c := exec.Command(path, append(args, url)...)
	if err := c.Start(); err != nil {
		return err
	}
	go c.Wait() // reap it; the browser outlives it
	return nil
}
