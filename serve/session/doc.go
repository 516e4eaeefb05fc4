// Package session runs one scenario live, under a teacher's hand: the run
// of `kubeloom serve`. It is a run in virtual time (sim/engine) whose clock
// the session drives from outside its bubble — play at a speed paced to the
// wall clock, pause, step to the next thing that happens — and whose
// actions can also come from a click, applied at the current simulated
// instant and recorded like a scheduled action. It keeps what the page
// shows: snapshots of the timeline so far, encoded as the HTML page reads
// them (traces/htmlview), made only when the simulation is quiet.
package session
