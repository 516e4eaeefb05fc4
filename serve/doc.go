// Package serve is the web application of `kubeloom serve`: an HTTP server
// on loopback that runs one live session (serve/session) at a time for a
// class, pushes its state and timeline snapshots to every open page over
// Server-Sent Events, and takes play, pause, step, speed and actions only
// from the browser that holds the session's control token.
package serve
