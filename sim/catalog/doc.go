// Package catalog is the goroutine catalog as the code knows it: for every
// goroutine kubeloom simulates, its stable name, mechanism, default period
// and the Kubernetes function and file that start it (Entry), the startup
// steps between them (Step), and what the catalog tells of each in every
// language kubeloom speaks (Story: what it does, the article's words and
// kubeloom's rendering of them, how today's Kubernetes differs). The facts
// are Go, here; the stories are data files, one folder per language, in
// the sub-package locale, which also holds every other text kubeloom
// shows in more than one language. It is a leaf package of data, imported
// by the simulator and by the viewers alike, so a recording made by an
// older kubeloom still replays with the narratives of a newer one.
package catalog
