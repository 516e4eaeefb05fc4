// Lanes: each goroutine's lifetime, its iterations and calls (work solid,
// waiting hatched) and its events.
import { CA, EV, IT, lowerBound, WAIT_US } from './data.js';
import { ROW_H } from './layout.js';
import { C, hatches } from './style.js';
import { ctx, gutter, tAt, W, X } from './view.js';

// marksDrawn counts the marks of the frame being drawn (window.kubeloom.drawnMarks).
export let marksDrawn = 0;
export const resetMarks = () => { marksDrawn = 0; };

// Rectangles are collected as (x, width) pairs in arrays reused from
// frame to frame, then drawn as one path each: a frame allocates nothing
// per lane.
const rWork = [], rThin = [], rBox = [];
export function fillRects(r, y, h) {
  if (!r.length) return;
  ctx.beginPath();
  for (let i = 0; i < r.length; i += 2) ctx.rect(r[i], y, r[i + 1], h);
  ctx.fill();
  marksDrawn += r.length / 2;
}

// drawMarks draws the spans of arr that are in view in the band y..y+h.
// Work (a span shorter than WAIT_US) is solid; marks narrower than 2px
// merge with neighbours closer than a pixel, so a lane costs at most a
// rectangle per pixel at any zoom. Waiting (WAIT_US or longer) is a
// light box with a hatch and an outline, or a light bar when it is too
// narrow for one; waits go under the work.
function drawMarks(arr, stride, max, y, h, solid, light, hatchFill, line, thinFill) {
  const n = arr.length / stride;
  if (!n) return;
  const tEnd = tAt(W);
  let i = lowerBound(arr, stride, tAt(gutter) - max);
  rWork.length = 0; rThin.length = 0; rBox.length = 0;
  let wx0 = 0, wx1 = -1, lx0 = 0, lx1 = -1;
  for (; i < n; i++) {
    const o = i * stride, s = arr[o];
    if (s > tEnd) break;
    const d = arr[o + 1];
    let x0 = X(s), x1 = X(s + d);
    if (x1 < gutter) continue;
    if (x0 < gutter) x0 = gutter;
    if (x1 > W) x1 = W;
    const wait = d >= WAIT_US;
    if (wait && x1 - x0 >= 4) {
      rBox.push(Math.round(x0) + 0.5, Math.max(Math.round(x1) - Math.round(x0) - 2, 1));
      continue;
    }
    const narrow = x1 - x0 < 2;
    if (narrow) x1 = Math.max(x1, x0 + 1);
    else if (x1 - x0 >= 4) x1 -= 1; // a gap between wide neighbours
    if (wait) {
      if (lx1 >= 0 && x0 < lx1 + 1) { if (x1 > lx1) lx1 = x1; continue; }
      if (lx1 >= 0) rThin.push(lx0, lx1 - lx0);
      lx0 = x0; lx1 = x1;
      continue;
    }
    if (wx1 >= 0 && narrow && x0 < wx1 + 1) { if (x1 > wx1) wx1 = x1; continue; }
    if (wx1 >= 0) rWork.push(wx0, wx1 - wx0);
    wx0 = x0; wx1 = x1;
  }
  if (lx1 >= 0) rThin.push(lx0, lx1 - lx0);
  if (wx1 >= 0) rWork.push(wx0, wx1 - wx0);
  if (rBox.length) {
    ctx.beginPath();
    for (let k = 0; k < rBox.length; k += 2) ctx.rect(rBox[k], y + 0.5, rBox[k + 1], h - 1);
    ctx.fillStyle = light;
    ctx.fill();
    ctx.fillStyle = hatchFill;
    ctx.fill();
    ctx.strokeStyle = line;
    ctx.lineWidth = 1;
    ctx.stroke();
    marksDrawn += rBox.length / 2;
  }
  ctx.fillStyle = thinFill;
  fillRects(rThin, y, h);
  ctx.fillStyle = solid;
  fillRects(rWork, y, h);
}

// drawEvents draws one diamond per pixel column that holds events.
function drawEvents(arr, y) {
  const n = arr.length / EV;
  if (!n) return;
  const tEnd = tAt(W);
  let i = lowerBound(arr, EV, tAt(gutter - 4));
  let last = -1e9;
  ctx.beginPath();
  for (; i < n; i++) {
    const t = arr[i * EV];
    if (t > tEnd) break;
    const x = Math.round(X(t));
    if (x - last < 2) continue;
    last = x;
    ctx.moveTo(x, y - 4); ctx.lineTo(x + 3.5, y); ctx.lineTo(x, y + 4); ctx.lineTo(x - 3.5, y); ctx.closePath();
    marksDrawn++;
  }
  ctx.fill();
}

export function drawLane(l, y, row, current) {
  if (current) { ctx.fillStyle = C.cur; ctx.fillRect(0, y, W, ROW_H); }
  else if (row % 2 === 0) { ctx.fillStyle = C.stripe; ctx.fillRect(gutter, y, W - gutter, ROW_H); }
  // Lifetime: a thin bar from start to end, ticks where the goroutine
  // starts and (unless it outlived the recording or still runs) returns.
  const xs = Math.max(X(l.start), gutter), xe = Math.min(X(l.end), W);
  if (xe >= gutter && xs <= W) {
    ctx.fillStyle = l.open ? C.lifeOpen : C.life;
    ctx.fillRect(xs, y + 8, Math.max(xe - xs, 1), 2);
    if (l.g !== 'main') {
      if (X(l.start) >= gutter) { ctx.fillStyle = C.startTick; ctx.fillRect(X(l.start), y + 3, 2, ROW_H - 6); }
      if (!l.open && !l.running && X(l.end) <= W) { ctx.fillStyle = C.endTick; ctx.fillRect(X(l.end) - 2, y + 3, 2, ROW_H - 6); }
    }
  }
  drawMarks(l.it, IT, l.itMax, y + 2, 7, C.it, C.itWait, hatches().it, C.itLine, C.itThin);
  drawMarks(l.calls, CA, l.callMax, y + 9, 7, C.call, C.callWait, hatches().call, C.callLine, C.callThin);
  ctx.fillStyle = C.ev;
  drawEvents(l.events, y + 9);
}
