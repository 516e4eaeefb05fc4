// A group's row is a density of its lanes: per pixel column, how many
// of their iterations (upper band) and calls (lower band) do work there,
// in four shades, over a grey band where any of them waits.
import { CA, IT, lanes, lowerBound, span, WAIT_US } from './data.js';
import { ROW_H } from './layout.js';
import { fillRects } from './marks.js';
import { C } from './style.js';
import { ctx, gutter, tAt, view, W, X } from './view.js';

const rWait = [];
let colIt = new Int32Array(0), colCa = new Int32Array(0), colWait = new Int32Array(0);
const LEVEL_ALPHA = [0, 0.35, 0.55, 0.78, 1]; // 1, 2-3, 4-15, 16 or more marks in a column

function accumulate(arr, stride, max, col, n) {
  const len = arr.length / stride;
  if (!len) return;
  const tEnd = tAt(W);
  for (let i = lowerBound(arr, stride, tAt(gutter) - max); i < len; i++) {
    const o = i * stride, s = arr[o];
    if (s > tEnd) break;
    const d = arr[o + 1];
    const x1 = Math.min(Math.floor(X(s + d) - gutter), n - 1);
    if (x1 < 0) continue;
    const x0 = Math.max(Math.floor(X(s) - gutter), 0);
    const c = d >= WAIT_US ? colWait : col;
    c[x0]++;
    c[x1 + 1]--;
  }
}

// Bins: a group's work and waits over BINS equal parts of the
// recording, as prefix counts (s[b]: marks that start before bin b, e[b]:
// marks that end before it), so that a frame whose pixel spans a bin or
// more reads a column's count as s[last] − e[first] instead of reading
// every mark: the whole recording, folded, is how the page opens. Built
// on a group's first such frame.
const BINS = 2048;
function groupBins(g) {
  if (g.bins) return g.bins;
  const k = BINS / span;
  const mk = () => ({ s: new Uint32Array(BINS + 1), e: new Uint32Array(BINS + 1) });
  const b = { it: mk(), ca: mk(), wait: mk() };
  const bin = (t) => Math.min(Math.max(Math.floor(t * k), 0), BINS - 1);
  const add = (arr, stride, work) => {
    for (let o = 0; o < arr.length; o += stride) {
      const c = arr[o + 1] >= WAIT_US ? b.wait : work;
      c.s[bin(arr[o]) + 1]++;
      c.e[bin(arr[o] + arr[o + 1]) + 1]++;
    }
  };
  for (let li = g.first; li < g.first + g.count; li++) {
    add(lanes[li].it, IT, b.it);
    add(lanes[li].calls, CA, b.ca);
  }
  for (const c of [b.it, b.ca, b.wait]) {
    for (let i = 1; i <= BINS; i++) { c.s[i] += c.s[i - 1]; c.e[i] += c.e[i - 1]; }
  }
  g.bins = b;
  return b;
}

// fromBins fills the column counts (as differences, like accumulate)
// from a group's bins.
function fromBins(b, n) {
  const k = BINS / span;
  let b0 = Math.min(Math.max(Math.floor(tAt(gutter) * k), 0), BINS);
  for (let x = 0; x < n - 2; x++) {
    const b1 = Math.min(Math.max(Math.floor(tAt(gutter + x + 1) * k), 0), BINS);
    if (b1 > b0) {
      const it = b.it.s[b1] - b.it.e[b0], ca = b.ca.s[b1] - b.ca.e[b0], w = b.wait.s[b1] - b.wait.e[b0];
      colIt[x] += it; colIt[x + 1] -= it;
      colCa[x] += ca; colCa[x + 1] -= ca;
      colWait[x] += w; colWait[x + 1] -= w;
    }
    b0 = b1;
  }
}

// drawGroup draws a group's row: its density, read in one pass over the
// columns, which also clears them for the next row.
const rLevelIt = [[], [], [], [], []], rLevelCa = [[], [], [], [], []];
export function drawGroup(g, y, open, current) {
  ctx.fillStyle = current ? C.cur : open ? C.groupOpen : C.groupRow;
  ctx.fillRect(gutter, y, W - gutter, ROW_H);
  const n = Math.max(Math.ceil(W - gutter), 1) + 2;
  if (colIt.length < n + 1) { colIt = new Int32Array(n + 1); colCa = new Int32Array(n + 1); colWait = new Int32Array(n + 1); }
  if (BINS / span / view.scale >= 1) fromBins(groupBins(g), n);
  else {
    for (let li = g.first; li < g.first + g.count; li++) {
      const l = lanes[li];
      accumulate(l.it, IT, l.itMax, colIt, n);
      accumulate(l.calls, CA, l.callMax, colCa, n);
    }
  }
  for (let lv = 1; lv <= 4; lv++) { rLevelIt[lv].length = 0; rLevelCa[lv].length = 0; }
  rWait.length = 0;
  let aI = 0, aC = 0, aW = 0, runI = 0, runC = 0, sI = 0, sC = 0, wFrom = -1;
  for (let x = 0; x <= n; x++) {
    let lI = 0, lC = 0;
    if (x < n) {
      aI += colIt[x]; aC += colCa[x]; aW += colWait[x];
      lI = aI <= 0 ? 0 : aI === 1 ? 1 : aI < 4 ? 2 : aI < 16 ? 3 : 4;
      lC = aC <= 0 ? 0 : aC === 1 ? 1 : aC < 4 ? 2 : aC < 16 ? 3 : 4;
    }
    colIt[x] = 0; colCa[x] = 0; colWait[x] = 0;
    if (lI !== runI) { if (runI) rLevelIt[runI].push(gutter + sI, x - sI); runI = lI; sI = x; }
    if (lC !== runC) { if (runC) rLevelCa[runC].push(gutter + sC, x - sC); runC = lC; sC = x; }
    if (aW > 0 && x < n) { if (wFrom < 0) wFrom = x; } else if (wFrom >= 0) { rWait.push(gutter + wFrom, x - wFrom); wFrom = -1; }
  }
  // Waiting: one grey band wherever any lane of the group waits; work
  // over it in four shades.
  ctx.fillStyle = C.groupWait;
  fillRects(rWait, y + 6, 6);
  for (const [levels, color, top] of [[rLevelIt, C.it, y + 2], [rLevelCa, C.call, y + 9]]) {
    ctx.fillStyle = color;
    for (let lv = 1; lv <= 4; lv++) {
      if (!levels[lv].length) continue;
      ctx.globalAlpha = LEVEL_ALPHA[lv];
      fillRects(levels[lv], top, 7);
    }
  }
  ctx.globalAlpha = 1;
}
