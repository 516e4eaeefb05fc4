// The causal arrows of the current step, and the frames around marks.
import { D, flowsOf, lanes, markSpan, spanOf } from './data.js';
import { laneRow, ROW_H, rowY, TOP } from './layout.js';
import { C } from './style.js';
import { ctx, gutter, view, W, X } from './view.js';

// markY is the middle of a mark's band in a row at y.
export const markY = (kind, y) => y + (kind === 1 ? 5 : kind === 2 ? 13 : 9);

// flowPoint is where an arrow meets the mark (li, kind, m): on its row
// (or its collapsed group's), at the time of its span closest to near.
function flowPoint(li, kind, m, near) {
  const r = laneRow[li];
  if (r < 0) return null;
  const l = lanes[li];
  const [s, e] = kind === 0 ? [l.start, l.end] : spanOf(l, kind, m); // kind 0: the lifetime span
  const t = Math.min(Math.max(near, s), e);
  return { x: X(t), y: markY(kind, TOP + rowY[r] - view.y), t };
}

function arrow(a, b, color) {
  const dx = b.x - a.x, dy = b.y - a.y;
  const bend = Math.max(28, Math.abs(dx) / 2);
  ctx.strokeStyle = color;
  ctx.fillStyle = color;
  ctx.beginPath();
  ctx.moveTo(a.x, a.y);
  let cx, cy;
  if (Math.abs(dy) < 2) { // the same row: an arc above it
    cx = b.x - Math.max(12, Math.abs(dx) / 3); cy = b.y - 14;
    ctx.bezierCurveTo(a.x + Math.max(12, Math.abs(dx) / 3), a.y - 14, cx, cy, b.x, b.y);
  } else {
    cx = b.x - bend; cy = b.y;
    ctx.bezierCurveTo(a.x + bend, a.y, cx, cy, b.x, b.y);
  }
  ctx.stroke();
  const ang = Math.atan2(b.y - cy, b.x - cx);
  ctx.beginPath();
  ctx.moveTo(b.x, b.y);
  ctx.lineTo(b.x - 7 * Math.cos(ang - 0.45), b.y - 7 * Math.sin(ang - 0.45));
  ctx.lineTo(b.x - 7 * Math.cos(ang + 0.45), b.y - 7 * Math.sin(ang + 0.45));
  ctx.closePath();
  ctx.fill();
}

// drawFlows draws the current step's causal links: an arrow from each
// cause to it and from it to each effect (at most 150 each way).
export function drawFlows(cur) {
  let drawn = 0;
  if (!cur || cur.kind > 2) return 0;
  const li = cur.lane.i, m = cur.kind === 0 ? 0 : cur.mark;
  const f = flowsOf(li, cur.kind, m);
  if (!f.causes.length && !f.effects.length) return 0;
  const [s] = markSpan(cur);
  const me = flowPoint(li, cur.kind, m, s);
  if (!me) return 0;
  const F = D.flows;
  ctx.save();
  ctx.lineWidth = 1.6;
  ctx.globalAlpha = 0.9;
  for (const o of f.causes.slice(0, 150)) {
    const p = flowPoint(F[o], F[o + 1], F[o + 2], s);
    if (p && (p.x >= gutter || me.x >= gutter)) { arrow(p, me, C.cause); drawn++; }
  }
  for (const o of f.effects.slice(0, 150)) {
    const es = spanOf(lanes[F[o + 3]], F[o + 4], F[o + 5])[0];
    const p = flowPoint(F[o + 3], F[o + 4], F[o + 5], es);
    const from = flowPoint(li, cur.kind, m, es);
    if (p && from && (p.x >= gutter || from.x >= gutter)) { arrow(from, p, C.effect); drawn++; }
  }
  ctx.restore();
  return drawn;
}

// frameMark outlines the marks [s, e] in the row at y.
export function frameMark(s, e, y, color, width) {
  const x0 = Math.max(X(s), gutter), x1 = Math.min(Math.max(X(e), X(s) + 1), W);
  if (x1 < gutter || x0 > W) return;
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.strokeRect(Math.round(x0 - 3) + 0.5, y + 1.5, Math.round(x1 - x0 + 6), ROW_H - 3);
}
