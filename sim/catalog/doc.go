// Package catalog is the goroutine catalog as the code knows it: for every
// goroutine kubeloom simulates, its stable name, mechanism, default period,
// the Kubernetes function and file that start it, and what the articles say
// about it, in English and Chinese. It is a leaf package of data, imported by
// the simulator and by the viewers alike, so a recording made by an older
// kubeloom still replays with the narratives of a newer one.
package catalog
