// Hit testing: what is under a point of the canvas.
import { CA, EV, groups, IT, lanes, lowerBound, spanOf } from './data.js';
import { sticky } from './labels.js';
import { HEAD_H, R_GROUP, R_INST, rowAt, rowKind, rowRef, rowY, TOP } from './layout.js';
import { gutter, tAt, view } from './view.js';

// nearest finds the mark of arr closest to time t within tol, measuring
// each mark as drawn (at least a pixel wide); it returns {m, dist, count}
// (count: the marks within tol) or null.
function nearest(arr, stride, isPoint, max, t, tol) {
  const n = arr.length / stride, px = 1 / view.scale;
  let i = lowerBound(arr, stride, t - tol - max - px);
  let best = -1, bestD = Infinity, bestLen = Infinity, count = 0;
  for (; i < n; i++) {
    const o = i * stride, s = arr[o];
    if (s > t + tol) break;
    const len = isPoint ? 0 : arr[o + 1];
    const e = s + Math.max(len, px);
    const d = t < s ? s - t : t > e ? t - e : 0;
    if (d > tol) continue;
    count++;
    if (d < bestD || (d === bestD && len < bestLen)) { best = i; bestD = d; bestLen = len; }
  }
  return best < 0 ? null : { m: best, dist: bestD, count };
}

// Where each kind of mark is drawn in a lane: [top, bottom) in pixels,
// and the order in which equally close marks win (the smaller first).
export const BANDS = { 1: [2, 9], 2: [9, 16], 3: [6, 13] };
const WIN = { 3: 0, 2: 1, 1: 2 };

// markNear returns the mark of lanes [lo, hi) closest to (t, ly) in a
// row: {li, kind, m, count, score} or null.
function markNear(lo, hi, t, ly, tol) {
  let best = null;
  for (let li = lo; li < hi; li++) {
    const l = lanes[li];
    const consider = (kind, c) => {
      if (!c) return;
      const [a, b] = BANDS[kind];
      const dy = ly < a ? a - ly : ly >= b ? ly - b + 1 : 0;
      const score = c.dist * view.scale + dy;
      if (score > 6) return;
      if (!best || score < best.score || (score === best.score && WIN[kind] < WIN[best.kind])) {
        best = { li, kind, m: c.m, count: c.count, score };
      }
    };
    consider(3, nearest(l.events, EV, true, 0, t, tol));
    consider(2, nearest(l.calls, CA, false, l.callMax, t, tol));
    consider(1, nearest(l.it, IT, false, l.itMax, t, tol));
  }
  return best;
}

// hit returns what is under the viewport point (x, y): the mark closest
// to it (horizontal distance plus the distance to the mark's band), else
// the lane, the group, the instance, or null.
export function hit(x, y) {
  if (y < TOP) return null;
  if (sticky && y >= sticky.y && y < sticky.y + HEAD_H) return { li: -1, inst: sticky.ii, kind: 6 };
  const cy = y - TOP + view.y;
  const r = rowAt(cy);
  if (r < 0) return null;
  const kind = rowKind[r], ref = rowRef[r];
  if (kind === R_INST) return { li: -1, inst: ref, kind: 6 };
  const t = tAt(x), tol = 4 / view.scale, ly = cy - rowY[r];
  if (kind === R_GROUP) {
    const g = groups[ref];
    if (x >= gutter) {
      const best = markNear(g.first, g.first + g.count, t, ly, tol);
      if (best) return markHit(best);
    }
    return { li: -1, g: g.i, kind: 7, gutter: x < gutter };
  }
  const l = lanes[ref];
  if (x < gutter) return { li: ref, kind: 5 };
  const best = markNear(ref, ref + 1, t, ly, tol);
  if (!best) {
    if (t >= l.start - tol && t <= l.end + tol) return { li: ref, kind: 5 };
    return null;
  }
  return markHit(best);
}

function markHit(b) {
  return { li: b.li, kind: b.kind, m: b.m, count: b.count, span: spanOf(lanes[b.li], b.kind, b.m) };
}

// sameHit is whether a and b are the same thing.
export function sameHit(a, b) {
  if (!a || !b) return a === b;
  return a.li === b.li && a.kind === b.kind && a.m === b.m && a.inst === b.inst && a.g === b.g;
}
