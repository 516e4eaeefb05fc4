package serve

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"net"
	"net/http"
	"strings"
)

// TokenHeader is the header a script may send the control token in,
// instead of "Authorization: Bearer TOKEN".
const TokenHeader = "X-Kubeloom-Token"

// newToken makes a control token: 32 random bytes, URL-safe, so that it
// can stand in a URL's fragment as it is.
func newToken() string {
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b)
}

// requestToken is the token a request carries, "" if none.
func requestToken(r *http.Request) string {
	if t := r.Header.Get(TokenHeader); t != "" {
		return t
	}
	if a, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return strings.TrimSpace(a)
	}
	return ""
}

// control wraps a handler that changes something (every POST): it runs
// only for the token holder, and only from the server's own page. The
// token is compared in constant time, so that its bytes cannot be guessed
// one at a time from how fast a refusal comes. A browser sends Origin with
// every POST made by a script; one from another site's page is refused even
// with the right token, which that page should never have.
func (s *Server) control(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(requestToken(r)), []byte(s.token)) != 1 {
			httpError(w, http.StatusUnauthorized, "this needs the session's control token: open the control URL kubeloom serve printed (the one with #token=)")
			return
		}
		if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host {
			httpError(w, http.StatusForbidden, "a control request must come from this server's own page")
			return
		}
		h(w, r)
	}
}

// guard wraps every route. When the server listens on loopback, it answers
// only requests addressed to a loopback name: a page of another site whose
// name an attacker points at 127.0.0.1 (DNS rebinding) is refused before
// it reads anything. Every answer says not to sniff its type nor frame it.
func (s *Server) guard(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Referrer-Policy", "no-referrer")
		if s.o.Loopback && !loopbackHost(r.Host) {
			httpError(w, http.StatusMisdirectedRequest, "this server answers only at 127.0.0.1, localhost or [::1]")
			return
		}
		h.ServeHTTP(w, r)
	})
}

// loopbackHost reports whether a Host header names this machine's loopback.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// IsLoopback reports whether addr (host:port, as --addr) listens on
// loopback only: an empty host is every interface, so it is not.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" {
		return false
	}
	return loopbackHost(host)
}
