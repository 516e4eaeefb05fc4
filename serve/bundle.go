package serve

// bundledScript and bundledStyle are the page's script bundle (by name:
// "serve" is assets/dist/serve.js) and the timeline's style, as
// traces/htmlview builds them into the binary.
//
// TODO(i31): htmlview.Script and htmlview.Style land with the page's
// bundler (branch i31-page); until then the server has no bundle to serve.
func bundledScript(name string) (string, bool) { return "", false }

func bundledStyle() string { return "" }
