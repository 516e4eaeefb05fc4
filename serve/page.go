package serve

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/kubeloom/kubeloom/sim/catalog/locale"
	"github.com/kubeloom/kubeloom/traces/htmlview"
)

// pageCSP is the page's Content-Security-Policy: its script and style
// come only from this server's /assets/, no inline script runs, it talks
// only to this server, and no other site may frame it (clickjacking a
// teacher's play button).
const pageCSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
	"frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

// markWords is where serve.html takes the page's words: a JSON data
// block, which no browser runs as script.
const markWords = "{{WORDS}}"

// pageLang is a language of the page, as htmlview's data carries them.
type pageLang struct {
	Code string            `json:"code"`
	Name string            `json:"name"`
	Tag  string            `json:"tag"`
	Text map[string]string `json:"text"`
}

// page is GET /: serve.html with the words of every language, the first
// being the one --lang chose.
func (s *Server) page(w http.ResponseWriter, _ *http.Request) {
	words := struct {
		Lang  string     `json:"lang"`
		Langs []pageLang `json:"langs"`
	}{Lang: s.o.Lang}
	for _, code := range locale.Codes() {
		l := locale.Get(code)
		words.Langs = append(words.Langs, pageLang{Code: code, Name: l.Name, Tag: l.Tag, Text: l.Messages("page")})
	}
	// json.Marshal escapes <, > and &: no "</script>" can end the block.
	b, err := json.Marshal(words)
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("Cache-Control", "no-store")
	page := strings.Replace(htmlview.ServePage(), markWords, string(b), 1)
	w.Write([]byte(page))
}

// asset is GET /assets/{name}: the page's bundle and styles, by name from
// a fixed list, so that no path leads anywhere else.
func (s *Server) asset(w http.ResponseWriter, r *http.Request) {
	var body, ctype string
	ok := true
	switch r.PathValue("name") {
	case "serve.js":
		body, ok = s.o.script("serve.js")
		ctype = "text/javascript; charset=utf-8"
	case "serve.css":
		body, ctype = htmlview.ServeStyle(), "text/css; charset=utf-8"
	case "timeline.css":
		body, ctype = s.o.style(), "text/css; charset=utf-8"
	default:
		ok = false
	}
	if !ok {
		httpError(w, http.StatusNotFound, "not found")
		return
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Cache-Control", "no-cache")
	w.Write([]byte(body))
}
