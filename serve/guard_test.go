package serve

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
)

func TestControlNeedsTheToken(t *testing.T) {
	s := newTestServer(t, Options{})
	self := s.ts.URL // http://127.0.0.1:PORT, the page's own origin
	for _, tc := range []struct {
		name   string
		token  string
		header []string
		want   int
	}{
		{"no token", "", nil, http.StatusUnauthorized},
		{"a wrong token", "x" + s.Token()[1:], nil, http.StatusUnauthorized},
		{"a prefix of the token", s.Token()[:10], nil, http.StatusUnauthorized},
		{"the token", s.Token(), nil, http.StatusNoContent},
		{"the token in X-Kubeloom-Token", "", []string{TokenHeader, s.Token()}, http.StatusNoContent},
		{"the token from the page's origin", s.Token(), []string{"Origin", self}, http.StatusNoContent},
		{"the token from another site's page", s.Token(), []string{"Origin", "http://evil.example"}, http.StatusForbidden},
		{"the token from another port", s.Token(), []string{"Origin", "http://127.0.0.1:1"}, http.StatusForbidden},
		{"the token from a page with an opaque origin", s.Token(), []string{"Origin", "null"}, http.StatusForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := s.do(t, "POST", "/api/token", tc.token, "", tc.header...)
			if resp.StatusCode != tc.want {
				t.Errorf("POST /api/token: %d %s, want %d", resp.StatusCode, body, tc.want)
			}
		})
	}
	// Every POST route is guarded, not just /api/token.
	for _, path := range []string{"/api/session?builtin=informer-basics", "/api/play", "/api/pause", "/api/step", "/api/speed", "/api/act", "/api/open"} {
		if resp, body := s.do(t, "POST", path, "", "{}"); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("POST %s without the token: %d %s, want 401", path, resp.StatusCode, body)
		}
	}
	if s.session() != nil || len(s.recordings(t)) != 0 {
		t.Errorf("a session started without the token: recordings %v", s.recordings(t))
	}
	// GETs are for every viewer.
	for _, path := range []string{"/", "/api/scenarios", "/api/templates", "/assets/serve.js"} {
		if resp, body := s.do(t, "GET", path, "", ""); resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s without the token: %d %s, want 200", path, resp.StatusCode, body)
		}
	}
}

// rawRequest sends text as the whole request and returns the status line:
// for paths and Host headers that net/http's client would clean up.
func rawRequest(t *testing.T, addr, text string) string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprint(c, text)
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(line)
}

func TestServesOnlyTheApplication(t *testing.T) {
	s := newTestServer(t, Options{})
	addr := strings.TrimPrefix(s.ts.URL, "http://")
	for _, path := range []string{
		"/assets/", "/assets", "/assets/../go.mod", "/assets/%2e%2e/serve.go", "/assets/..%2fserve.go",
		"/assets/%2e%2e%2f%2e%2e%2fgo.mod", "/assets/serve.html", "/assets/page.html", "/assets/timeline.js",
		"/serve.go", "/../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/api", "/api/", "/index.html",
	} {
		status := rawRequest(t, addr, "GET "+path+" HTTP/1.1\r\nHost: "+addr+"\r\nConnection: close\r\n\r\n")
		// A path that cleans to another is redirected to it (net/http's
		// ServeMux), which is then a 404: never a file.
		if !strings.Contains(status, " 404 ") && !strings.Contains(status, " 301 ") && !strings.Contains(status, " 307 ") && !strings.Contains(status, " 400 ") {
			t.Errorf("GET %s: %s, want 404 (or a redirect to a path that is one)", path, status)
		}
	}
	for path, want := range map[string]string{"/assets/serve.js": "/* the bundle */", "/assets/timeline.css": "/* the style */"} {
		if resp, body := s.do(t, "GET", path, "", ""); resp.StatusCode != 200 || body != want {
			t.Errorf("GET %s: %d %q, want %q", path, resp.StatusCode, body, want)
		}
	}
}

func TestRefusesOtherHostsOnLoopback(t *testing.T) {
	s := newTestServer(t, Options{})
	addr := strings.TrimPrefix(s.ts.URL, "http://")
	_, port, _ := net.SplitHostPort(addr)
	for host, ok := range map[string]bool{
		addr: true, "localhost:" + port: true, "[::1]:" + port: true, "127.0.0.1": true,
		"evil.example:" + port: false, "attacker.test": false, "10.0.0.1:" + port: false,
	} {
		status := rawRequest(t, addr, "GET /api/scenarios HTTP/1.1\r\nHost: "+host+"\r\nConnection: close\r\n\r\n")
		if got := strings.Contains(status, " 200 "); got != ok {
			t.Errorf("GET with Host %s: %s, want allowed=%v", host, status, ok)
		}
	}
}

func TestPageHeaders(t *testing.T) {
	s := newTestServer(t, Options{Lang: "zh"})
	resp, body := s.do(t, "GET", "/", "", "")
	csp := resp.Header.Get("Content-Security-Policy")
	for _, want := range []string{"script-src 'self'", "frame-ancestors 'none'", "default-src 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-inline") {
		t.Errorf("CSP %q allows inline script or style", csp)
	}
	if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("X-Content-Type-Options: %q", got)
	}
	if strings.Contains(body, markWords) || !strings.Contains(body, `"lang":"zh"`) || !strings.Contains(body, `<script src="/assets/serve.js">`) {
		t.Errorf("the page does not carry its words and bundle:\n%.600s", body)
	}
	if strings.Contains(body, "<script>") {
		t.Error("the page has an inline script, which its CSP would block")
	}
}

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:0": true, "localhost:8080": true, "[::1]:80": true, "127.1.2.3:9": true,
		":8080": false, "0.0.0.0:8080": false, "192.168.1.5:8080": false, "[::]:80": false, "bogus": false,
	} {
		if got := IsLoopback(addr); got != want {
			t.Errorf("IsLoopback(%q) = %v, want %v", addr, got, want)
		}
	}
}
