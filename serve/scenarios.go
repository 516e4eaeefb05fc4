package serve

import (
	"net/http"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/catalog/locale"
)

// builtinText is a built-in's description and what to watch for in one
// language.
type builtinText struct {
	Description string   `json:"description"`
	WatchFor    []string `json:"watchFor"`
}

type builtin struct {
	Name string                 `json:"name"`
	Text map[string]builtinText `json:"text"` // by language code
}

// scenarios is GET /api/scenarios: the built-ins with their texts in
// every language, as `kubeloom scenarios show --lang` prints them.
func (s *Server) scenarios(w http.ResponseWriter, _ *http.Request) {
	out := []builtin{}
	for _, b := range scenarios.Builtins() {
		sc, err := scenarios.Builtin(b.Name)
		if err != nil {
			continue // a kubeloom bug, which the scenarios' tests catch
		}
		bt := builtin{Name: b.Name, Text: map[string]builtinText{}}
		for _, code := range locale.Codes() {
			t := sc.Metadata.Text(code)
			bt.Text[code] = builtinText{Description: t.Description, WatchFor: append([]string{}, t.WatchFor...)}
		}
		out = append(out, bt)
	}
	writeJSON(w, http.StatusOK, map[string]any{"scenarios": out})
}
