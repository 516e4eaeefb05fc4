// Identities that outlive a model: a newer snapshot of a live run numbers
// its lanes and steps anew (a lane that starts lands among its group's, a
// step among those of its time), so what the view holds on to (the picked
// step, the clicked mark) is kept by what it is, not by its index.
import { CA, D, EV, groupByKey, groups, instName, IT, lanes, lowerBound, markName, spanOf, step, stepOf } from './data.js';

const laneKey = (l) => instName(l.inst) + '\n' + l.label;
const ARRS = { 1: ['it', () => IT], 2: ['calls', () => CA], 3: ['events', () => EV] };

// markId is what mark (lane li, kind, m) is: its lane's instance and
// label, its kind, and for an iteration, call or event its time and name.
export function markId(li, kind, m) {
  const l = lanes[li];
  const id = { lane: laneKey(l), kind, t: 0, name: '' };
  if (ARRS[kind]) { id.t = spanOf(l, kind, m)[0]; id.name = markName(l, kind, m); }
  return id;
}

// stepId is what step i is.
export function stepId(i) {
  const s = step(i);
  return markId(s.lane.i, s.kind, s.mark);
}

// findMark returns {li, m} of the mark id names in the model loaded now,
// or null; byLane maps lane keys to indexes (laneIndex).
export function findMark(id, byLane) {
  const li = byLane.get(id.lane);
  if (li === undefined) return null;
  if (!ARRS[id.kind]) return { li, m: 0 };
  const [name, stride] = ARRS[id.kind];
  const arr = lanes[li][name], k = stride();
  for (let m = lowerBound(arr, k, id.t); m < arr.length / k && arr[m * k] === id.t; m++) {
    if (markName(lanes[li], id.kind, m) === id.name) return { li, m };
  }
  return null;
}

export const laneIndex = () => new Map(lanes.map((l) => [laneKey(l), l.i]));

// findStep returns the index of the step id names, or -1.
export function findStep(id, byLane) {
  const f = findMark(id, byLane);
  return f ? stepOf(f.li, id.kind, f.m) : -1;
}

// hitId and findHit do for what the details panel shows (a hit: a mark,
// a lane, an instance or a group) what markId and findMark do for marks.
export function hitId(h) {
  if (h.kind === 6) return { kind: 6, inst: instName(h.inst) };
  if (h.kind === 7) return { kind: 7, key: groups[h.g].key, gutter: h.gutter };
  return { ...markId(h.li, h.kind, h.m), count: h.count };
}

export function findHit(id, byLane) {
  if (id.kind === 6) {
    const ii = D.instances.findIndex((_, i) => instName(i) === id.inst);
    return ii < 0 ? null : { li: -1, inst: ii, kind: 6 };
  }
  if (id.kind === 7) {
    const g = groupByKey.get(id.key);
    return g ? { li: -1, g: g.i, kind: 7, gutter: id.gutter } : null;
  }
  const f = findMark(id, byLane);
  if (!f) return null;
  if (id.kind === 5) return { li: f.li, kind: 5 };
  return { li: f.li, kind: id.kind, m: f.m, count: id.count, span: spanOf(lanes[f.li], id.kind, f.m) };
}
