package serve

import "github.com/kubeloom/kubeloom/traces/htmlview"

// bundledScript and bundledStyle are the page's script bundle by file name
// ("serve.js" is assets/dist/serve.js, the bundle of
// assets/js/entry-serve.js) and the timeline's style, as traces/htmlview
// builds them into the binary (`make assets`).
func bundledScript(name string) (string, bool) { return htmlview.Script(name) }

func bundledStyle() string { return htmlview.Style() }
