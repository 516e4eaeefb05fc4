// The timeline of the live page: the first snapshot mounts it, later ones
// update it (the same run grows; another run, or an opened recording,
// resets it), and it follows the newest time until the user looks away.
import { createTimeline } from '../timeline.js';

export function createView(live) {
  let tl = null;
  let pending = null;
  let scheduled = false;
  // At most one update per frame: snapshots may arrive faster than a
  // page draws, and only the newest matters.
  function flush() {
    scheduled = false;
    const { data, seq } = pending;
    pending = null;
    if (!tl) {
      document.body.classList.add('has-timeline'); // before it measures its canvas
      tl = createTimeline(data, { live: true, keepHash: false });
      tl.follow(true);
    } else {
      tl.update(data);
    }
    live.snapshotSeq = seq;
    live.snapshots++;
  }
  return {
    show(data, seq) {
      pending = { data, seq };
      if (!scheduled) {
        scheduled = true;
        requestAnimationFrame(flush);
      }
    },
    get timeline() { return tl; },
  };
}
