// The marks a comparison (kubeloom diff --format html, D.diff) puts on the
// rows: a lane whose family differs is highlighted, one whose family ran on
// one side only gets a badge, and a group holding either shows it folded.
// An export's data has no D.diff: every row is unmarked.
import { D, groups } from './data.js';

export const MARK_NONE = 0, MARK_DIFFERS = 1, MARK_ONE_SIDE = 2;

let marksOf = null, laneMarks = null, groupMarks = null;

// marks computes the lanes' and the groups' marks once per data.
function marks() {
  if (marksOf === D) return;
  marksOf = D;
  const dd = D.diff;
  laneMarks = new Int8Array(D.lanes.length);
  groupMarks = new Int8Array(groups.length);
  if (!dd) return;
  for (let li = 0; li < laneMarks.length; li++) {
    const f = dd.lanes[li] >= 0 ? dd.families[dd.lanes[li]] : null;
    if (f && f.differs.length) laneMarks[li] = f.a && f.b ? MARK_DIFFERS : MARK_ONE_SIDE;
  }
  for (const g of groups) {
    for (let li = g.first; li < g.first + g.count; li++) groupMarks[g.i] = Math.max(groupMarks[g.i], laneMarks[li]);
  }
}

// laneMark and groupMark are a row's mark.
export function laneMark(li) { marks(); return laneMarks[li] || MARK_NONE; }
export function groupMark(gi) { marks(); return groupMarks[gi] || MARK_NONE; }

// side is the side of instance ii: 0 (A), 1 (B), or -1 on an export.
export const side = (ii) => (D.diff ? D.diff.sides[ii] : -1);
